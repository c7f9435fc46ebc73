import DietCore
import DietStore
import FoodKit
import Foundation
import GRDB
import Testing

/// Issue 29, finding 1: a unit is chosen by its identity, never by the start of a name ("g"
/// was "große", 300 g, so 150 g of an apple became 45,000 g and was refused).
@Suite("Units by identity: grams stay grams, a portion is its id")
struct UnitIdentityTests {
    static let everyday = ["9003", "9040", "11367", "1123"]  // Apfel, Banane, Kartoffeln, Ei

    @Test("in German, 150 g of Apfel, Banane, Kartoffeln and Ei are saved as 150 g, and the recent one-tap logs them again")
    func gramsAreGrams() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            for id in Self.everyday {
                let page = try await browser.get("/log/food/\(id)")
                #expect(page.body.contains(#"<option value="g""#), "\(id) offers grams")
                let saved = try await browser.post("/log/food/\(id)", [("amount", "150"), ("unit", "g")])
                #expect(saved.status == .seeOther, "\(id): \(saved.body.prefix(400))")
                #expect(try harness.store().lastGrams(of: id) == 150)
            }
            // the one-tap "Eintragen" of a recent food sends its grams with the unit g
            let log = try await browser.get("/log")
            let recent = try #require(log.first(#"action="/log/food/(9003)""#))
            let again = try await browser.post("/log/food/\(recent)", [("amount", "150"), ("unit", "g")])
            #expect(again.status == .seeOther)
        }
        let meals = try harness.store().meals(on: LocalDate(WebHarness.now, in: harness.timeZone))
        #expect(meals.count == 5)
        // 150 g of apple is about 80 kcal, never thousands
        #expect(meals.allSatisfy { $0.entry.kcal < 400 }, "\(meals.map(\.entry.kcal))")
    }

    @Test("a household portion is sent by its id; a portion's name, a made-up id or another food's portion is refused and nothing is saved")
    func portionsByID() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let apple = try #require(try harness.store().food(id: "9003", language: .de))
        let large = try #require(apple.householdPortions.firstIndex { $0.name == "große" })
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            let page = try await browser.get("/log/food/9003")
            #expect(page.body.contains(#"<option value="p\#(large)""#))
            let saved = try await browser.post("/log/food/9003", [("amount", "1"), ("unit", "p\(large)")])
            #expect(saved.status == .seeOther)
            #expect(try harness.store().lastGrams(of: "9003") == apple.householdPortions[large].gramsPerUnit)
            for unit in ["große", "gr", "p99", "p-1", "p01", "P1"] {
                let refused = try await browser.post("/log/food/9003", [("amount", "1"), ("unit", unit)])
                #expect(refused.status == .unprocessableContent, "unit \(unit)")
            }
        }
        #expect(try harness.store().meals(on: LocalDate(WebHarness.now, in: harness.timeZone)).count == 1)
    }

    @Test("every food of the database, in de, en and es, in every unit it offers: the grams saved are the amount typed times the unit's grams")
    func everyFoodEveryUnit() throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let store = try harness.store()
        let ids = try store.reader.read { db in try Int.fetchAll(db, sql: "SELECT id FROM foods.foods ORDER BY id") }
        #expect(ids.count > 5_000)
        var checked = 0
        for language in Language.allCases {
            for id in ids {
                guard let food = try store.food(id: String(id), language: language) else { continue }
                // a person types "g" (or gramm, ml) whatever the food's measures are called
                for typed in ["g", "G", "gramm", "ml"] {
                    #expect(food.unit(named: typed) == .grams, "\(id) \(language): \(typed)")
                }
                for unit in food.units {
                    #expect(FoodUnit(id: unit.id) == unit)
                    let perUnit = try #require(food.gramsPerUnit(of: unit))
                    #expect(food.grams(amount: 1.5, unit: unit) == 1.5 * perUnit)
                    if unit == .grams { #expect(perUnit == 1) }
                    checked += 1
                }
                // a measure typed by its shown name is that measure (or one of the same weight)
                for portion in food.householdPortions {
                    let unit = food.unit(named: portion.name)
                    #expect(unit != nil && unit.flatMap(food.gramsPerUnit(of:)) != nil, "\(id) \(language): \(portion.name)")
                }
            }
        }
        #expect(checked > 30_000)
    }
}
