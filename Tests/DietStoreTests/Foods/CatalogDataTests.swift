import DietCore
@testable import DietStore
import FoodKit
import Foundation
import GRDB
import TestSupport
import Testing

/// The bundled food database as scripts/build-food-db writes it: the recipe dishes and the
/// household portions a person reads.
@Suite("Catalog data")
struct CatalogDataTests {
    func store() throws -> AppDatabase {
        try AppDatabase.inMemory(clock: FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin))
    }

    /// The kcal of one serving (the dish's first portion).
    func servingKcal(_ id: String, in store: AppDatabase) throws -> Double {
        let dish = try #require(try store.food(id: id, language: .de))
        let serving = try #require(dish.portions.first)
        return dish.per100g.kcal * serving.grams / 100
    }

    @Test("a Döner serving has the energy of a takeaway Döner, a Currywurst with sauce that of a snack-bar one")
    func dishServings() throws {
        // Given the bundled database
        let store = try store()
        // When a Döner and a Currywurst are read by their fixed ids
        let doner = try servingKcal("95001", in: store)
        let currywurst = try servingKcal("95003", in: store)
        // Then one serving each is in the range of the real thing
        #expect((550...900).contains(doner), "Döner \(doner) kcal")
        #expect((350...650).contains(currywurst), "Currywurst \(currywurst) kcal")
    }

    @Test("every dish's energy agrees with its macronutrients (4·protein + 4·carbs + 9·fat, within 15 %)")
    func dishEnergy() throws {
        // Given every recipe dish of the database
        let rows = try store().reader.read { db in
            try Row.fetchAll(db, sql: "SELECT id, kcal, protein_g, carbs_g, fat_g FROM foods.foods WHERE id BETWEEN 95001 AND 95999")
        }
        // Then there are at least 60, each with plausible energy
        #expect(rows.count >= 60)
        for row in rows {
            let kcal: Double = row["kcal"]
            let atwater = 4 * (row["protein_g"] as Double) + 4 * (row["carbs_g"] as Double) + 9 * (row["fat_g"] as Double)
            #expect(abs(kcal - atwater) <= 0.15 * atwater, "dish \(row["id"] as Int): \(kcal) kcal, macros give \(atwater)")
        }
    }

    @Test("a dish is found by its everyday name in each language, is common, and its serving comes first")
    func dishNames() throws {
        // Given the bundled database
        let store = try store()
        // When the Döner is searched for as a person types it, in German and Spanish
        let german = try store.searchFoods("Döner Kebab", language: .de, timeZone: Zones.berlin, limit: 5)
        let spanish = try store.searchFoods("tortilla de patatas", language: .es, timeZone: Zones.berlin, limit: 5)
        // Then the dish is among the results, common, named in the language, its serving first
        #expect(german.contains { $0.food.id == "95001" })
        #expect(spanish.contains { $0.food.id == "95005" })
        let doner = try #require(try store.food(id: "95001", language: .de))
        #expect(doner.name == "Döner" && doner.isCommon)
        #expect(doner.usdaName.hasPrefix("Döner kebab (recipe: "))
        #expect(doner.portions.first?.grams == 350)
    }
}
