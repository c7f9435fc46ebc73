import DietCore
@testable import DietStore
import Foundation
import TestSupport
import Testing

@Suite("Food search")
struct FoodSearchTests {
    /// Query, language, the USDA id that must be in the top 3 (`search-queries.tsv`).
    static let relevance: [(String, Language, Int)] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("search-queries.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let columns = line.split(separator: "\t").map(String.init)
            guard columns.count == 3, let language = Language(rawValue: columns[1]), let id = Int(columns[2]) else { return nil }
            return (columns[0], language, id)
        }
    }()

    func store() throws -> AppDatabase {
        try AppDatabase.inMemory(clock: FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin))
    }

    @Test("common queries in three languages find the right food in the top 3")
    func hitRate() throws {
        let store = try store()
        var misses: [String] = []
        for (query, language, id) in Self.relevance {
            let top = try store.searchFoods(query, language: language, timeZone: Zones.berlin, limit: 3).compactMap { Int($0.food.id) }
            if !top.contains(id) { misses.append("\(query) (\(language)): \(top)") }
        }
        let rate = Double(Self.relevance.count - misses.count) / Double(Self.relevance.count)
        #expect(Self.relevance.count >= 150)
        #expect(rate >= 0.95, "hit rate \(rate): \(misses)")
        print("food search hit rate: \(Self.relevance.count - misses.count) of \(Self.relevance.count); misses: \(misses)")
    }

    @Test("a food's name follows the language, nutrients are per 100 g with available carbs")
    func food() throws {
        let banana = try #require(try store().food(id: "9040", language: .de))
        #expect(banana.name == "Banane" && banana.usdaName == "Bananas, raw")
        #expect(banana.per100g.kcal == 89 && banana.per100g.totalCarbsG == 22.84)
        #expect(abs(banana.per100g.carbsG - (22.84 - 2.6)) < 1e-9)
        #expect(banana.portions.contains { $0.grams == 118 })
    }

    @Test("a typo of one letter in a long word still finds the food")
    func typo() throws {
        let hits = try store().searchFoods("chiken breast", language: .en, timeZone: Zones.berlin)
        #expect(hits.prefix(3).contains { $0.food.id == "5062" })
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
        let skim = "1085"
        #expect(before.first != skim)
        try store.writer.write { db in
            let meal = MealRecord(id: UUID(), entry: try MealEntry(name: "Magermilch", kcal: 70, at: clock.now(), in: Zones.berlin),
                                  createdAt: clock.now())
            var record = meal
            record.foodID = skim
            _ = try Outbox.save(record, db, now: clock.now())
        }
        let after = try store.searchFoods("milk", language: .en, timeZone: Zones.berlin).map(\.food.id)
        #expect(after.first == skim)
    }
}

@Suite("Food catalog attachment")
struct FoodCatalogAttachmentTests {
    @Test("the bundled catalog is attached read-only: a write to it fails and changes nothing")
    func readOnly() throws {
        let store = try AppDatabase.inMemory(clock: FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin))
        #expect(throws: (any Error).self) {
            try store.writer.write { db in try db.execute(sql: "UPDATE foods.foods SET kcal = 0 WHERE id = 9040") }
        }
        #expect(try store.food(id: "9040", language: .en)?.per100g.kcal == 89)
    }
}

@Suite("Food search inside compound words")
struct CompoundSearchTests {
    @Test("käse also finds Frischkäse and Hüttenkäse, after the foods that start with it")
    func compounds() throws {
        let store = try AppDatabase.inMemory(clock: FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin))
        let hits = try store.searchFoods("käse", language: .de, timeZone: Zones.berlin, limit: 20)
        let names = hits.map(\.food.name)
        #expect(names.first == "Gouda")
        #expect(names.contains("Frischkäse") && names.contains("Hüttenkäse"))
        // no common food that starts with "käse" ranks below one that only contains it
        let firstInfix = try #require(hits.firstIndex { $0.rank.exactness == 3 })
        #expect(hits.dropFirst(firstInfix).allSatisfy { $0.rank.exactness == 3 || $0.rank.tier > hits[firstInfix].rank.tier })
    }
}

@Suite("Food search by the first letter")
struct FirstLetterSearchTests {
    @Test("after logging it, a food is the first result for its first letter", arguments: ["23610", "11477", "9421"])
    func usedFirst(id: String) throws {
        let clock = FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin)
        let store = try AppDatabase.inMemory(clock: clock)
        try store.completeOnboarding(.alice, timeZone: Zones.berlin)
        let food = try #require(try store.food(id: id, language: .en))
        try store.logMeal(try MealEntry(name: food.name, kcal: 100, at: clock.now(), in: Zones.berlin),
                          food: FoodPortion(foodID: id, grams: 100))
        let letter = String(food.name.prefix(1))
        #expect(try store.searchFoods(letter, language: .en, timeZone: Zones.berlin).first?.food.id == id)
    }
}
