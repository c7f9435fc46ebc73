import DietCore
import DietStore
import Foundation
import GRDB
import TestSupport

/// The German everyday set (issue 29; Tests/DietStoreTests/Foods/german-everyday.tsv): searches and
/// meals in words answered in German on a new user's store, scored against labels from BLS 4.0.
enum GermanEverydayScores {
    static func run(zone: TimeZone) throws {
        let store = try AppDatabase.inMemory(clock: FixedClock(Date()))
        let code = { (id: String) in
            try store.reader.read { db in try String.fetchOne(db, sql: "SELECT bls_code FROM foods.foods WHERE id = ?", arguments: [id]) }
        }
        let report = try GermanEverydaySet.score(try GermanEverydaySet.load()) { item in
            if item.isMeal {
                let meal = try store.resolveMealText(item.text, language: .de, timeZone: zone)
                return GermanEverydaySet.Answer(
                    foods: try meal.items.map { ($0.food.id, try code($0.food.id), $0.food.name) } + meal.unmatched.map { ("", nil, "? \($0.food)") },
                    kcal: meal.totals.kcal
                )
            }
            guard let hit = try store.searchFoods(item.text, language: .de, timeZone: zone, limit: 1).first else { return nil }
            return GermanEverydaySet.Answer(foods: [(hit.food.id, try code(hit.food.id), hit.food.name)], kcal: hit.food.per100g.kcal)
        }
        print("\nGerman everyday set (target 98 % right): \(report.line)")
        for failure in report.failures.prefix(15) { print("  " + failure) }
    }
}
