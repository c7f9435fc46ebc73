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
    static let candidateLimit = 160
    /// The foods one screen of results shows (the search's default limit).
    static let screenful = 10
    /// How many names of the first keystrokes (one to three letters of one word) are ranked.
    static let firstLettersLimit = 80
    /// How many names found inside words (compound parts) join the candidates.
    static let infixLimit = 80

    /// Ranked foods for `text` (see `SearchRank`): every word (or its singular) as a prefix, in
    /// any order, connectors optional, and a single word of 4+ letters also inside curated names
    /// (German compounds); a word of 5+ letters no name knows also stands for its corrections
    /// (one edit, two in long words); when nothing matches, foods matching all words but one are offered.
    /// While at most three letters per word are typed, only the curated common foods are searched.
    static func search(_ db: Database, text: String, language: Language, today: LocalDate, limit: Int) throws -> [FoodHit] {
        // "atún en lata" finds "atún enlatado": connectors are not required
        let typed = SearchText.withoutConnectors(SearchText.words(SearchText.fold(text)))
        guard !typed.isEmpty else { return [] }
        var words = typed.enumerated().map { index, word in
            SearchText.singularForms(word, language: language, finished: index < typed.count - 1)
        }
        // a word no name holds (nor starts, while it may be half typed) is a slip: its
        // corrections join it ("heidelbeern" → heidelbeeren), words the database knows stay as typed
        for index in words.indices where words[index][0].count >= Typo.minimumLength {
            guard try !knows(db, words[index][0], asPrefix: index == words.count - 1) else { continue }
            words[index] += try Self.vocabulary(db).corrections(for: words[index][0]).filter { !words[index].contains($0) }
        }
        var candidates = try catalogMatches(db, words: words, language: language, typed: text, limit: limit)
        if candidates.isEmpty && words.count > 1 {
            candidates = try partialMatches(db, words: words, language: language)
        }
        let own = try customMatches(db, words: words, language: language)
        guard !candidates.isEmpty || !own.isEmpty else { return [] }
        let ranked = try rank(db, candidates: candidates, own: own, language: language, today: today)
        return try hits(db, ranked: ranked.prefix(limit), own: own, language: language)
    }

    /// The catalog's foods matching `words`, best name per food.
    private static func catalogMatches(
        _ db: Database,
        words: [[String]],
        language: Language,
        typed text: String,
        limit: Int
    ) throws -> [Int: Match] {
        let typed = words.map { $0[0] }
        let short = typed.allSatisfy { $0.count < 4 }
        // a single letter matches hundreds of names; the best-ranked 60 rows hold the first screen
        let rows = typed.count == 1 && typed[0].count == 1 ? 60 : short ? candidateLimit / 2 : candidateLimit
        var candidates = try matches(db, table: "common_search", words: words, language: language, limit: rows)
        if !short && candidates.count < max(limit, screenful) {
            // the source descriptions rank below every curated name: needed only when those are
            // fewer than a screenful (whatever the caller's limit, so the first hit stays the same)
            for (id, match) in try matches(db, table: "food_search", words: words, language: language, limit: candidateLimit) {
                if let current = candidates[id], current.name <= match.name { continue }
                candidates[id] = match
            }
        }
        // the user's own recent foods are always candidates
        for (id, match) in try usedFoodMatches(db, words: words, language: language) where candidates[id] == nil {
            candidates[id] = match
        }
        if language == .de, typed.count == 1, typed[0].count >= NameMatch.compoundMinimum {
            // inside German compounds: "kase" in "frischkase", "brot" in "vollkornbrot" (English and
            // Spanish write their kinds as words of their own: "cream cheese", "queso crema")
            // typed with umlauts, only names with them: "hähn" is in "Hähnchen", not in "Truthahn"
            let forms = SearchText.indexForms(text)
            let infix = forms.count > 1 && SearchText.words(forms[1]).count == 1 ? forms[1] : typed[0]
            for (id, match) in try infixMatches(db, word: infix, language: language) {
                if let current = candidates[id], current.name <= match.name { continue }
                candidates[id] = match
            }
        }
        return candidates
    }

    /// Whether `word` is a word of the catalog's names or, when it may be half typed, the start
    /// of one: a word to take as typed, never to correct ("nudeln" is no slip of "nudelsalat").
    /// Asked of the index, so a search of known words never reads the whole vocabulary.
    static func knows(_ db: Database, _ word: String, asPrefix: Bool) throws -> Bool {
        let sql =
            asPrefix
            ? "SELECT 1 FROM temp.food_vocab WHERE term >= ?1 AND term < ?1 || char(1114111) LIMIT 1"
            : "SELECT 1 FROM temp.food_vocab WHERE term = ?1 LIMIT 1"
        return try Bool.fetchOne(db.cachedStatement(sql: sql), arguments: [word]) ?? false
    }

    /// The words of the catalog's names, for typo corrections: read and indexed once, the
    /// catalog never changes.
    private static func vocabulary(_ db: Database) throws -> Typo.Vocabulary {
        if let known = vocabularyCache.withLock({ $0 }) { return known }
        let vocabulary = Typo.Vocabulary(try String.fetchAll(db, sql: "SELECT term FROM temp.food_vocab"))
        vocabularyCache.withLock { $0 = vocabulary }
        return vocabulary
    }

    private static let vocabularyCache = Locked<Typo.Vocabulary?>(nil)

    /// Orders the candidates and the user's own foods: (id, rank, matched name), best first.
    private static func rank(
        _ db: Database,
        candidates: [Int: Match],
        own: [(food: Food, name: NameRank)],
        language: Language,
        today: LocalDate
    ) throws -> [(String, SearchRank, String)] {
        let usage = try Self.usage(db, foods: candidates.keys.map(String.init) + own.map(\.food.id), today: today)
        let summaries =
            candidates.isEmpty
            ? []
            : try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT f.id, f.common, d.name, f.popularity FROM foods.foods f JOIN foods.display_names d ON d.food_id = f.id AND d.language = ?
                        WHERE f.id IN (SELECT value FROM json_each(?))
                        """
                ),
                arguments: [language.rawValue, jsonList(Array(candidates.keys))]
            )
        var ranked = summaries.compactMap { row -> (String, SearchRank, String)? in
            // id, common, name, popularity, by position
            let id: Int = row[0]
            guard let match = candidates[id] else { return nil }
            let rank = SearchRank(
                usage: usage[String(id)] ?? 0,
                isCommon: row[1] == 1,
                name: match.name,
                popularity: row[3],
                nameLength: (row[2] as String).count,
                relevance: match.relevance
            )
            return (String(id), rank, match.text)
        }
        ranked += own.map { food, name in
            // the user's own foods rank before the database's at a word's start, first of all once logged
            (
                food.id,
                SearchRank(
                    usage: usage[food.id] ?? 0,
                    isCommon: true,
                    name: name,
                    nameLength: food.name.count,
                    relevance: -20,
                    isOwn: true
                ),
                SearchText.fold(food.name)
            )
        }
        return ranked.sorted { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }
    }

    /// Foods matching all typed words but one ("atún en lata", "basmati rice"), else any one
    /// of them ("semi skimmed milk" → milk).
    private static func partialMatches(_ db: Database, words: [[String]], language: Language) throws -> [Int: Match] {
        var candidates: [Int: Match] = [:]
        let subsets = words.indices.map { skipped in words.enumerated().filter { $0.offset != skipped }.map(\.element) }
        for subset in words.count > 2 ? subsets + words.map({ [$0] }) : subsets {
            if !candidates.isEmpty && subset.count == 1 && words.count > 2 { break }
            for (id, match) in try matches(db, table: "food_search", words: subset, language: language, limit: candidateLimit / 4) {
                if let current = candidates[id], current.name <= match.name { continue }
                candidates[id] = match
            }
        }
        return candidates
    }

    /// The ranked ids as foods, named in `language`.
    private static func hits(
        _ db: Database,
        ranked: ArraySlice<(String, SearchRank, String)>,
        own: [(food: Food, name: NameRank)],
        language: Language
    ) throws -> [FoodHit] {
        let ownByID = Dictionary(own.map { ($0.food.id, $0.food) }, uniquingKeysWith: { first, _ in first })
        let catalog = try foods(db, ids: ranked.compactMap { ownByID[$0.0] == nil ? Int($0.0) : nil }, language: language)
        return ranked.compactMap { id, rank, matched in
            (ownByID[id] ?? Int(id).flatMap { catalog[$0] }).map { FoodHit(food: $0, rank: rank, matched: matched) }
        }
    }

    /// Catalog foods this user logged (the 50 most recent) whose shown name matches `words`.
    private static func usedFoodMatches(_ db: Database, words: [[String]], language: Language) throws -> [Int: Match] {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT d.food_id, d.name FROM foods.display_names d
                    WHERE d.language = ? AND d.food_id IN (
                      SELECT CAST(food_id AS INTEGER) FROM meal_logs WHERE deleted = 0 AND food_id IS NOT NULL
                      GROUP BY food_id ORDER BY max(local_date) DESC LIMIT 50)
                    """
            ),
            arguments: [language.rawValue]
        )
        var result: [Int: Match] = [:]
        for row in rows {
            let name = SearchText.fold(row["name"] as String)
            let kind = NameMatch.of(name: name, words: words, language: language)
            guard kind < .infix else { continue }
            result[row["food_id"]] = Match(
                name: NameRank(match: kind, source: .userLanguage, isPrimary: true, length: name.count),
                relevance: 0,
                text: name
            )
        }
        return result
    }

    /// Curated foods whose name contains `word` anywhere (trigram index). The trigram rows are
    /// written together with those of `common_search`, so the same rowid tells the name's
    /// language; a row without its twin counts as another language's.
    private static func infixMatches(_ db: Database, word: String, language: Language) throws -> [Int: Match] {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT m.food_id, m.text, m.relevance, c.food_id AS twin, c.language, c.is_primary FROM (
                      SELECT rowid AS id, food_id, text, bm25(common_trigram) AS relevance FROM foods.common_trigram
                      WHERE common_trigram MATCH ? ORDER BY relevance LIMIT ?) m
                    LEFT JOIN foods.common_search c ON c.rowid = m.id
                    """
            ),
            arguments: ["\"" + word.replacingOccurrences(of: "\"", with: "") + "\"", infixLimit]
        )
        var best: [Int: Match] = [:]
        for row in rows {
            let id: Int = row["food_id"]
            let twin = (row["twin"] as Int?) == id
            let match = match(
                text: row["text"],
                language: twin ? row["language"] : nil,
                isPrimary: twin && row["is_primary"] == 1,
                words: [[word]],
                user: language,
                relevance: row["relevance"]
            )
            if let current = best[id], current.name <= match.name { continue }
            best[id] = match
        }
        return best
    }

    /// The user's own foods whose name has every word as a prefix of one of its words.
    private static func customMatches(_ db: Database, words: [[String]], language: Language) throws -> [(food: Food, name: NameRank)] {
        let typed = words.map { $0[0] }
        let conditions = typed.map { _ in "(' ' || search_text) LIKE ? ESCAPE '\\'" }.joined(separator: " AND ")
        let patterns = typed.map { "% " + $0.replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%" }
        let statement = try db.cachedStatement(sql: "SELECT * FROM custom_foods WHERE deleted = 0 AND \(conditions) LIMIT 50")
        return try CustomFoodRecord.fetchAll(statement, arguments: StatementArguments(patterns)).compactMap { record in
            let name = SearchText.fold(record.name)
            return record.food.map {
                (
                    $0,
                    NameRank(
                        match: NameMatch.of(name: name, words: words, language: language),
                        source: .userLanguage,
                        isPrimary: true,
                        length: name.count
                    )
                )
            }
        }
    }

    /// A food's best matching name so far.
    struct Match {
        var name: NameRank
        var relevance: Double
        var text: String
    }

    /// How one indexed name (folded, in `language`, "usda" for the description) answers `words`.
    private static func match(
        text: String,
        language: String?,
        isPrimary: Bool,
        words: [[String]],
        user: Language,
        relevance: Double
    ) -> Match {
        let nameLanguage = language.flatMap(Language.init(rawValue:))
        let source: NameSource = language == "usda" ? .usda : nameLanguage == user ? .userLanguage : .otherLanguage
        var kind = NameMatch.of(name: text, words: words, language: nameLanguage)
        // a compound only as another name of a food is a weak match: "Apfel" ends the alias
        // "Erdäpfel" of Kartoffeln, which is no apple
        if kind == .compoundHead && !isPrimary { kind = .infix }
        return Match(name: NameRank(match: kind, source: source, isPrimary: isPrimary, length: text.count), relevance: relevance, text: text)
    }

    /// food id → best match, for words where each position accepts any of its alternatives.
    private static func matches(_ db: Database, table: String, words: [[String]], language: Language, limit: Int) throws -> [Int: Match] {
        // the typed word as a prefix, its singular forms and corrections as whole words only
        let expression = words.map { alternatives in
            "("
                + alternatives.enumerated().map { index, word in
                    "\"\(word.replacingOccurrences(of: "\"", with: ""))\"" + (index == 0 ? "*" : "")
                }.joined(separator: " OR ") + ")"
        }.joined(separator: " AND ")
        // One letter matches most names: bm25 tells them apart by little but costs much, so
        // the shortest names (the "short common names" of the ranking) come first instead.
        // Up to three letters match many names alike: bm25 tells them apart by little but costs
        // much, so the shortest names come first instead (the ranking's order for a word being typed).
        let short = words.allSatisfy { $0[0].count < 4 }
        let relevance = short ? "length(text)" : "bm25(\(table))"
        // the first keystrokes: the names with a word starting so, shortest first (the ranking's
        // order for a word being typed), straight from an index instead of sorting the hundreds
        // of names the full-text index would hand over
        let firstLetters = table == "common_search" && words.count == 1 && words[0].count == 1 && words[0][0].count <= 3
        // the statements are kept prepared: a search runs on every keystroke
        let rows =
            try firstLetters
            ? Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT food_id, language, is_primary, text, length AS relevance FROM foods.name_prefixes
                        WHERE prefix = ? ORDER BY length LIMIT ?
                        """
                ),
                arguments: [words[0][0], min(limit, firstLettersLimit)]
            )
            : Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT food_id, language, is_primary, text, \(relevance) AS relevance FROM foods.\(table)
                        WHERE \(table) MATCH ? ORDER BY relevance LIMIT ?
                        """
                ),
                arguments: [expression, limit]
            )
        var best: [Int: Match] = [:]
        // columns by position: a name's lookup costs a case-insensitive comparison per row
        for row in rows {
            let id: Int = row[0]
            let match = match(
                text: row[3],
                language: row[1],
                isPrimary: row[2] == 1,
                words: words,
                user: language,
                relevance: short ? 0 : row[4]
            )
            if let current = best[id], current.name <= match.name { continue }
            best[id] = match
        }
        return best
    }

    /// Ids as one JSON array, for `IN (SELECT value FROM json_each(?))`: one prepared statement
    /// for any number of them.
    /// Written by hand: a search builds three of these, and `JSONEncoder` cost a tenth of its time.
    static func jsonList(_ ids: [Int]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    /// Text ids as one JSON array of strings, escaped as JSON requires.
    static func jsonList(_ ids: [String]) -> String {
        var json = "["
        for (index, id) in ids.enumerated() {
            if index > 0 { json += "," }
            json += "\""
            for scalar in id.unicodeScalars {
                switch scalar {
                case "\"": json += "\\\""
                case "\\": json += "\\\\"
                case _ where scalar.value < 0x20:
                    json += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                default: json.unicodeScalars.append(scalar)
                }
            }
            json += "\""
        }
        return json + "]"
    }

    /// Uses of each food by this user, decayed by age (see `SearchRank.usageScore`).
    static func usage(_ db: Database, foods: [String], today: LocalDate) throws -> [String: Double] {
        guard !foods.isEmpty else { return [:] }
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT food_id, count(*) AS uses, max(local_date) AS last FROM meal_logs
                    WHERE deleted = 0 AND food_id IS NOT NULL AND food_id IN (SELECT value FROM json_each(?))
                    GROUP BY food_id
                    """
            ),
            arguments: [jsonList(foods)]
        )
        var result: [String: Double] = [:]
        for row in rows {
            let id: String = row["food_id"]
            guard let last = LocalDate(iso: row["last"]) else { continue }
            result[id] = SearchRank.usageScore(count: row["uses"], daysSinceLastUse: last.days(to: today))
        }
        return result
    }
}
