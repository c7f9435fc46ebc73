import DietCore
@testable import DietStore
import FoodKit
import Foundation
import TestSupport
import Testing

/// Issue 15's findings, each along the whole path from words to a saved meal: parse, find the
/// foods and their portions, log, and read the day back.
@Suite("Food understanding: from words to a saved meal")
struct FoodUnderstandingTests {
    /// Resolves `text`, logs every item as the confirm screens do, and returns the meal and
    /// the calories the day holds afterwards.
    func logWords(_ text: String, language: Language) throws -> (TextMeal, Int) {
        let (store, clock) = try makeStore()
        let meal = try store.resolveMealText(text, language: language, timeZone: Zones.berlin)
        let entries = try meal.items.map { item in
            (try item.nutrients.mealEntry(named: item.food.name, at: clock.now(), in: Zones.berlin),
             FoodPortion(foodID: item.food.id, grams: item.choice.grams) as FoodPortion?)
        }
        _ = try store.logMeals(entries, source: .text)
        let saved = try store.meals(on: .ymd(2026, 1, 5)).reduce(0) { $0 + $1.entry.kcal }
        return (meal, saved)
    }

    @Test("Döner mit Pommes und eine Cola: a döner, a portion of fries and a cola, 900 to 1,600 kcal")
    func donerWithFries() throws {
        let (meal, kcal) = try logWords("Döner mit Pommes und eine Cola", language: .de)
        #expect(meal.items.count == 3 && meal.unmatched.isEmpty && meal.unparsed.isEmpty, "\(meal.items.map(\.food.name))")
        #expect(meal.items.first?.food.id == "95001", "\(meal.items.map(\.food.usdaName))")
        #expect(meal.items.dropFirst().first.map { $0.food.usdaName.lowercased().contains("french fr") } == true,
                "\(meal.items.map(\.food.usdaName))")
        #expect(meal.items.last.map { $0.food.usdaName.lowercased().contains("cola") } == true, "\(meal.items.map(\.food.usdaName))")
        #expect((900...1600).contains(kcal), "saved \(kcal) kcal: \(meal.items.map { ($0.food.name, $0.choice.grams) })")
    }

    @Test("arroz con leche is the rice pudding, one dish, not rice plus milk")
    func arrozConLeche() throws {
        let (meal, kcal) = try logWords("arroz con leche", language: .es)
        #expect(meal.items.map(\.food.id) == ["19194"], "\(meal.items.map(\.food.usdaName))")
        #expect(kcal > 100)
    }

    @Test("2 Scheiben Brot are two slices of bread, not rolls, sprouts or broth")
    func bread() throws {
        let (meal, kcal) = try logWords("2 Scheiben Brot", language: .de)
        let item = try #require(meal.items.first)
        #expect(item.food.usdaName.hasPrefix("Bread"), "\(item.food.usdaName)")
        #expect(item.choice.portion != nil && (40...100).contains(item.choice.grams), "\(item.choice)")
        #expect((100...300).contains(kcal))
    }

    @Test("a recipe line in German: 3 Zehen Knoblauch, fein gehackt, is garlic")
    func recipeLine() throws {
        let (meal, _) = try logWords("3 Zehen Knoblauch, fein gehackt", language: .de)
        let item = try #require(meal.items.first)
        #expect(meal.items.count == 1 && item.food.usdaName.hasPrefix("Garlic"), "\(meal.items.map(\.food.usdaName))")
        #expect(item.parsed.preparation == ["fein", "gehackt"])
    }

    @Test("the portions a German speaker reads carry no USDA yield notes")
    func portionsInGerman() throws {
        let (meal, _) = try logWords("ein halbes Hähnchen", language: .de)
        let food = try #require(meal.items.first?.food)
        #expect(food.householdPortions.allSatisfy { !$0.name.lowercased().contains("yield") }, "\(food.householdPortions)")
    }
}
