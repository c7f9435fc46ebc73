import DietCore
import DietStore
import Foundation

/// The food search over the committed relevance set (Tests/DietStoreTests/Foods/search-queries.tsv):
/// top-1 and top-3 per language, and the time of each search as typed (1, 2, 3 letters) and whole.
enum SearchScores {
    struct Query {
        let text: String
        let language: Language
        let ids: Set<String>
    }

    static func queries() -> [Query] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/DietStoreTests/Foods/search-queries.tsv")
        return ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").filter { !$0.hasPrefix("#") }
            .compactMap { line in
                let columns = line.split(separator: "\t").map(String.init)
                guard columns.count >= 3, let language = Language(rawValue: columns[1]) else { return nil }
                return Query(text: columns[0], language: language, ids: Set(columns[2].split(separator: "|").map(String.init)))
            }
    }

    /// Prints the scores and timings; returns the queries (text, language) for the web benchmark.
    static func run(store: AppDatabase, zone: TimeZone) throws -> [(String, Language)] {
        let queries = queries()
        for language in Language.allCases {
            let mine = queries.filter { $0.language == language }
            var first = 0
            var three = 0
            for query in mine {
                let top = try store.searchFoods(query.text, language: language, timeZone: zone, limit: 3).map(\.food.id)
                if top.first.map(query.ids.contains) == true { first += 1 }
                if !query.ids.isDisjoint(with: top) { three += 1 }
            }
            let share = { (count: Int) in 100 * Double(count) / Double(max(1, mine.count)) }
            print(
                String(
                    format: "Food search relevance (%@): top-1 %.1f %% · top-3 %.1f %% (n = %d)",
                    language.rawValue,
                    share(first),
                    share(three),
                    mine.count
                )
            )
        }
        for (label, length) in [("1 letter", 1), ("2 letters", 2), ("3 letters", 3), ("whole query", Int.max)] {
            var timings: [Double] = []
            var slowest: [String: Double] = [:]
            for _ in 0..<3 {
                for query in queries {
                    let typed = String(query.text.prefix(length))
                    let began = ContinuousClock.now
                    _ = try store.searchFoods(typed, language: query.language, timeZone: zone)
                    let time = milliseconds(ContinuousClock.now - began)
                    timings.append(time)
                    slowest[typed] = min(slowest[typed] ?? .infinity, time)
                }
            }
            print("Food search, \(label): " + Percentiles(samples: timings).line)
            // the slowest queries by their best of three runs: where the time goes
            let worst = slowest.sorted { $0.value > $1.value }.prefix(5).map { String(format: "%@ %.1f ms", $0.key, $0.value) }
            print("  slowest: " + worst.joined(separator: ", "))
        }
        return queries.map { ($0.text, $0.language) }
    }
}
