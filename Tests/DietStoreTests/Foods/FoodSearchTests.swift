import DietCore
@testable import DietStore
import Foundation
import TestSupport
import Testing

@Suite("Food search")
struct FoodSearchTests {
    /// Query, language, the USDA id that must be in the top 3.
    static let relevance: [(String, Language, Int)] = [
        ("hähnchenbrust", .de, 5062), ("hähn", .de, 5062), ("hahnchen", .de, 5062), ("chicken breast", .en, 5062),
        ("pechuga de pollo", .es, 5062), ("banana", .en, 9040), ("banane", .de, 9040), ("plátano", .es, 9040),
        ("platano", .es, 9040), ("pan integral", .es, 18075), ("vollkornbrot", .de, 18075), ("oat", .en, 8120),
        ("haferflocken", .de, 8120), ("hafer", .de, 8120), ("quark", .de, 1014), ("magerquark", .de, 1014),
        ("brezel", .de, 43109), ("leberkäse", .de, 7008), ("kaese", .de, 1022), ("milch", .de, 1077), ("leche", .es, 1077),
        ("milk", .en, 1077), ("egg", .en, 1123), ("eier", .de, 1123), ("huevo", .es, 1123), ("apfel", .de, 9003),
        ("manzana", .es, 9003), ("apple", .en, 9003), ("rice", .en, 20045), ("reis", .de, 20045), ("arroz", .es, 20045),
        ("lachs", .de, 15236), ("salmon", .en, 15236), ("salmón", .es, 15236), ("tomate", .de, 11529),
        ("kartoffel", .de, 11367), ("patata", .es, 11367), ("olive oil", .en, 4053), ("aceite oliva", .es, 4053),
        ("integral pan", .es, 18075), ("kaffee", .de, 14209), ("bier", .de, 14003), ("linsen", .de, 16070),
        ("garbanzos", .es, 16057), ("joghurt", .de, 1116), ("yogur", .es, 1116), ("avocado", .en, 9037),
        ("aguacate", .es, 9037), ("spaghetti", .en, 20121), ("nudeln", .de, 20121),
    ]

    func store() throws -> AppDatabase {
        try AppDatabase.inMemory(clock: FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin))
    }

    @Test("common queries in three languages find the right food in the top 3")
    func hitRate() throws {
        let store = try store()
        var misses: [String] = []
        for (query, language, id) in Self.relevance {
            let top = try store.searchFoods(query, language: language, timeZone: Zones.berlin, limit: 3).map(\.food.id)
            if !top.contains(id) { misses.append("\(query) (\(language)): \(top)") }
        }
        let rate = Double(Self.relevance.count - misses.count) / Double(Self.relevance.count)
        #expect(rate >= 0.95, "hit rate \(rate): \(misses)")
    }

    @Test("a food's name follows the language, nutrients are per 100 g with available carbs")
    func food() throws {
        let banana = try #require(try store().food(id: 9040, language: .de))
        #expect(banana.name == "Banane" && banana.usdaName == "Bananas, raw")
        #expect(banana.per100g.kcal == 89 && banana.per100g.totalCarbsG == 22.84)
        #expect(abs(banana.per100g.carbsG - (22.84 - 2.6)) < 1e-9)
        #expect(banana.portions.contains { $0.grams == 118 })
    }

    @Test("a typo of one letter in a long word still finds the food")
    func typo() throws {
        let hits = try store().searchFoods("chiken breast", language: .en, timeZone: Zones.berlin)
        #expect(hits.prefix(3).contains { $0.food.id == 5062 })
    }

    @Test("nothing matching gives an empty result, so the caller offers manual entry")
    func empty() throws {
        #expect(try store().searchFoods("xqzzv", language: .en, timeZone: Zones.berlin).isEmpty)
        #expect(try store().searchFoods(" ,. ", language: .en, timeZone: Zones.berlin).isEmpty)
    }

    @Test("foods the user logged rank first")
    func usage() throws {
        let clock = FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin)
        let store = try AppDatabase.inMemory(clock: clock)
        try store.completeOnboarding(.alice, timeZone: Zones.berlin)
        let before = try store.searchFoods("milk", language: .en, timeZone: Zones.berlin).map(\.food.id)
        let skim = 1085
        #expect(before.first != skim)
        try store.writer.write { db in
            let meal = MealRecord(id: UUID(), entry: try MealEntry(name: "Magermilch", kcal: 70, at: clock.now(), in: Zones.berlin),
                                  createdAt: clock.now())
            var record = meal
            record.foodID = String(skim)
            _ = try Outbox.save(record, db, now: clock.now())
        }
        let after = try store.searchFoods("milk", language: .en, timeZone: Zones.berlin).map(\.food.id)
        #expect(after.first == skim)
    }
}
