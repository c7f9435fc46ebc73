import DietCore
import FoodKit
import Foundation
import GRDB
import TestSupport
import Testing

@testable import DietStore

@Suite("The user's own foods")
struct CustomFoodTests {
    let per100g = Nutrients(kcal: 372, proteinG: 13, carbsG: 58, totalCarbsG: 67, fiberG: 9, sugarsG: 1.2, fatG: 7, sodiumMg: 10)

    func store() throws -> (AppDatabase, FixedClock) {
        let clock = FixedClock.at(.ymd(2026, 3, 2), 8, in: Zones.berlin)
        let store = try AppDatabase.inMemory(clock: clock)
        try store.completeOnboarding(.alice, timeZone: Zones.berlin)
        return (store, clock)
    }

    @Test("a custom food is found by search and by barcode, and queued for sync")
    func addAndFind() throws {
        let (store, _) = try store()
        let draft = try CustomFood(
            name: "Omas Dinkelmüsli",
            barcode: try Barcode("4006381333931"),
            per100g: per100g,
            portions: [Portion(amount: 1, name: "Schale", grams: 60)]
        )
        let food = try store.addCustomFood(draft)
        let hits = try store.searchFoods("dinkelm", language: .de, timeZone: Zones.berlin)
        #expect(hits.first?.food.id == food.id)
        #expect(try store.customFood(barcode: try Barcode("4006381333931"))?.name == "Omas Dinkelmüsli")
        #expect(try store.food(id: food.id, language: .de)?.portions.first?.grams == 60)
        let queued = try store.reader.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_outbox WHERE table_name = 'custom_foods'")
        }
        #expect(queued == 1)
    }

    @Test("a custom food whose short id is all digits is still found by it (not taken for a database number)")
    func digitsOnlyShortID() throws {
        let (store, _) = try store()
        let id = try #require(UUID(uuidString: "94458371-0000-4000-8000-000000000001"))
        let food = try store.addCustomFood(try CustomFood(name: "Omas Müsli", per100g: per100g), id: id)
        #expect(try store.food(id: "94458371", language: .de)?.id == food.id)
        // a real database number still means the database food
        #expect(try store.food(id: "5062", language: .en)?.name.lowercased().contains("chicken") == true)
    }

    @Test("a second food with the same barcode is refused")
    func duplicateBarcode() throws {
        let (store, _) = try store()
        let code = try Barcode("036000291452")
        try store.addCustomFood(try CustomFood(name: "A", barcode: code, per100g: per100g))
        #expect(throws: StoreError.duplicateBarcode("0036000291452")) {
            try store.addCustomFood(try CustomFood(name: "B", barcode: code, per100g: per100g))
        }
    }

    @Test(
        "impossible label values are refused with field and range",
        arguments: [
            (950.0, 10.0, "Calories must be from 0 to 900 kcal; you entered 950.0."),
            (300.0, 120.0, "Protein must be from 0 to 100 g; you entered 120.0."),
        ]
    )
    func invalid(kcal: Double, protein: Double, message: String) {
        let values = Nutrients(kcal: kcal, proteinG: protein, carbsG: 0, totalCarbsG: 0, fiberG: 0, sugarsG: 0, fatG: 0, sodiumMg: 0)
        #expect(throws: ValidationError.self) { try CustomFood(name: "X", per100g: values) }
        do {
            _ = try CustomFood(name: "X", per100g: values)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("a deleted custom food disappears from search")
    func delete() throws {
        let (store, _) = try store()
        let food = try store.addCustomFood(try CustomFood(name: "Zorblax bar", per100g: per100g))
        try store.deleteCustomFood(id: food.id)
        #expect(try store.searchFoods("zorblax", language: .en, timeZone: Zones.berlin).isEmpty)
    }
}
