import DietCore
import FoodKit
import Foundation
import GRDB

/// The bundled food database (schema `foods`, attached read-only) and its search.
enum FoodCatalog {
    static var bundledURL: URL? {
        Bundle.module.url(forResource: "foods", withExtension: "sqlite", subdirectory: "Resources")
    }

    /// A `file:` URI that opens the catalog read-only and immutable: no writes, no journal.
    static func readOnlyURI(_ url: URL) -> String {
        let path = url.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? url.path
        return "file:\(path)?mode=ro&immutable=1"
    }

    /// How many candidate rows the full-text index hands to the ranking.
    static let candidateLimit = 400

    /// Ranked foods for `text`: every word as a prefix, in any order; when nothing matches,
    /// words of 5+ letters are corrected by one edit against the index's vocabulary. While
    /// at most three letters per word are typed, only the curated common foods are searched.
    static func search(_ db: Database, text: String, language: Language, today: LocalDate, limit: Int) throws -> [FoodHit] {
        let words = SearchText.words(SearchText.fold(text))
        guard !words.isEmpty else { return [] }
        let folded = words.joined(separator: " ")
        let table = words.allSatisfy({ $0.count < 4 }) ? "common_search" : "food_search"
        // a single letter matches hundreds of names; the best-ranked 60 rows hold the first screen
        let rows = words.count == 1 && words[0].count == 1 ? 60 : candidateLimit
        var candidates = try matches(db, table: table, words: words.map { [$0] }, query: folded, limit: rows)
        if words.count == 1 && words[0].count == 1 {
            // the user's own recent foods always reach the first screen
            for (id, match) in try usedFoodMatches(db, letter: words[0], language: language) where candidates[id] == nil {
                candidates[id] = match
            }
        }
        if words.count == 1, words[0].count >= 4, candidates.count < limit {
            // inside German compounds: "kase" in "frischkase", after the prefix matches
            for (id, match) in try infixMatches(db, word: words[0]) where candidates[id] == nil {
                candidates[id] = match
            }
        }
        if candidates.isEmpty {
            let vocabulary = try String.fetchAll(db, sql: "SELECT term FROM temp.food_vocab")
            let alternatives = words.map { [$0] + Typo.corrections(for: $0, in: vocabulary) }
            if alternatives.contains(where: { $0.count > 1 }) {
                candidates = try matches(db, table: "food_search", words: alternatives, query: folded, limit: candidateLimit)
            }
        }
        let own = try customMatches(db, words: words, query: folded)
        guard !candidates.isEmpty || !own.isEmpty else { return [] }
        let usage = try Self.usage(db, foods: candidates.keys.map(String.init) + own.map(\.food.id), today: today)
        let summaries = candidates.isEmpty ? [] : try Row.fetchAll(db, sql: """
            SELECT f.id, f.common, d.name FROM foods.foods f JOIN foods.display_names d ON d.food_id = f.id AND d.language = ?
            WHERE f.id IN (\(candidates.keys.map { _ in "?" }.joined(separator: ",")))
            """, arguments: StatementArguments([language.rawValue] + candidates.keys.map { $0 as any DatabaseValueConvertible }))
        var ranked = summaries.compactMap { row -> (String, SearchRank, String)? in
            let id: Int = row["id"]
            guard let match = candidates[id] else { return nil }
            let rank = SearchRank(usage: usage[String(id)] ?? 0, isCommon: row["common"] == 1, nameLength: (row["name"] as String).count,
                                  relevance: match.relevance - (match.inLanguage ? 1 : 0), exactness: match.exactness)
            return (String(id), rank, match.text)
        }
        ranked += own.map { food, exactness in
            // the user's own foods rank like curated ones, and first once they have been logged
            (food.id, SearchRank(usage: usage[food.id] ?? 0, isCommon: true, nameLength: food.name.count, relevance: -20,
                                 exactness: exactness), SearchText.fold(food.name))
        }
        let ownByID = Dictionary(own.map { ($0.food.id, $0.food) }, uniquingKeysWith: { first, _ in first })
        ranked.sort { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }
        let top = ranked.prefix(limit)
        let catalog = try foods(db, ids: top.compactMap { ownByID[$0.0] == nil ? Int($0.0) : nil }, language: language)
        var hits: [FoodHit] = []
        for (id, rank, matched) in top {
            if let found = ownByID[id] ?? Int(id).flatMap({ catalog[$0] }) {
                hits.append(FoodHit(food: found, rank: rank, matched: matched))
            }
        }
        return hits
    }

    /// Catalog foods this user logged (the 50 most recent) whose shown name starts with `letter`.
    private static func usedFoodMatches(_ db: Database, letter: String, language: Language) throws -> [Int: Match] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT d.food_id, d.name FROM foods.display_names d
            WHERE d.language = ? AND d.food_id IN (
              SELECT CAST(food_id AS INTEGER) FROM meal_logs WHERE deleted = 0 AND food_id IS NOT NULL
              GROUP BY food_id ORDER BY max(created_at) DESC LIMIT 50)
            """, arguments: [language.rawValue])
        var result: [Int: Match] = [:]
        for row in rows {
            let name = SearchText.fold(row["name"] as String)
            guard name.hasPrefix(letter) else { continue }
            result[row["food_id"]] = Match(relevance: 0, text: name, inLanguage: true, exactness: 1)
        }
        return result
    }

    /// Curated foods whose name contains `word` anywhere (trigram index), ranked below any
    /// prefix match.
    private static func infixMatches(_ db: Database, word: String) throws -> [Int: Match] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT food_id, text, bm25(common_trigram) AS relevance FROM foods.common_trigram
            WHERE common_trigram MATCH ? ORDER BY relevance LIMIT 50
            """, arguments: ["\"" + word.replacingOccurrences(of: "\"", with: "") + "\""])
        var best: [Int: Match] = [:]
        for row in rows {
            let id: Int = row["food_id"]
            if best[id] == nil {
                best[id] = Match(relevance: (row["relevance"] as Double) + 50, text: row["text"], inLanguage: true, exactness: 3)
            }
        }
        return best
    }

    /// The user's own foods whose name has every word as a prefix of one of its words.
    private static func customMatches(_ db: Database, words: [String], query: String) throws -> [(food: Food, exactness: Int)] {
        let conditions = words.map { _ in "(' ' || search_text) LIKE ? ESCAPE '\\'" }.joined(separator: " AND ")
        let patterns = words.map { "% " + $0.replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%" }
        return try CustomFoodRecord.filter(sql: "deleted = 0 AND " + conditions, arguments: StatementArguments(patterns))
            .limit(50).fetchAll(db).compactMap { record in
                record.food.map { ($0, SearchRank.exactness(name: SearchText.fold(record.name), query: query)) }
            }
    }

    /// Curated names (every language) holding a word the meal parser splits on, folded.
    static func dishes(_ db: Database) throws -> Set<String> {
        let names = try String.fetchAll(db, sql: "SELECT name FROM foods.names WHERE language != 'usda'")
        return Set(names.map(SearchText.fold).filter { name in
            SearchText.words(name).count > 2 && SearchText.words(name).contains { MealTextParser.separators.contains($0) }
        })
    }

    struct Match {
        var relevance: Double
        var text: String
        var inLanguage: Bool
        var exactness: Int
    }

    /// food id → best match, for words where each position accepts any of its alternatives.
    private static func matches(_ db: Database, table: String, words: [[String]], query: String, limit: Int) throws -> [Int: Match] {
        let expression = words.map { alternatives in
            "(" + alternatives.map { "\"\($0.replacingOccurrences(of: "\"", with: ""))\"*" }.joined(separator: " OR ") + ")"
        }.joined(separator: " AND ")
        // One letter matches most names: bm25 tells them apart by little but costs much, so
        // the shortest names (the "short common names" of the ranking) come first instead.
        let oneLetter = words.count == 1 && words[0].count == 1 && words[0][0].count == 1
        let relevance = oneLetter ? "length(text)" : "bm25(\(table))"
        let rows = try Row.fetchAll(db, sql: """
            SELECT food_id, language, text, \(relevance) AS relevance FROM foods.\(table)
            WHERE \(table) MATCH ? ORDER BY relevance LIMIT ?
            """, arguments: [expression, limit])
        var best: [Int: Match] = [:]
        for row in rows {
            let id: Int = row["food_id"]
            let text: String = row["text"]
            let match = Match(relevance: oneLetter ? 0 : row["relevance"], text: text, inLanguage: row["language"] != "usda",
                              exactness: SearchRank.exactness(name: text, query: query))
            if let current = best[id], (current.exactness, current.inLanguage ? 0 : 1, current.relevance)
                <= (match.exactness, match.inLanguage ? 0 : 1, match.relevance) { continue }
            best[id] = match
        }
        return best
    }

    /// Uses of each food by this user, decayed by age (see `SearchRank.usageScore`).
    static func usage(_ db: Database, foods: [String], today: LocalDate) throws -> [String: Double] {
        guard !foods.isEmpty else { return [:] }
        let rows = try Row.fetchAll(db, sql: """
            SELECT food_id, count(*) AS uses, max(local_date) AS last FROM meal_logs
            WHERE deleted = 0 AND food_id IS NOT NULL AND food_id IN (\(foods.map { _ in "?" }.joined(separator: ",")))
            GROUP BY food_id
            """, arguments: StatementArguments(foods))
        var result: [String: Double] = [:]
        for row in rows {
            let id: String = row["food_id"]
            guard let last = LocalDate(iso: row["last"]) else { continue }
            result[id] = SearchRank.usageScore(count: row["uses"], daysSinceLastUse: last.days(to: today))
        }
        return result
    }
}
