import DietCore
import FoodKit
import Foundation
import TestSupport
import Testing

@testable import DietStore

/// Issue 29, finding 2: "100g Hähnchen" in words became a Caesar salad from the user's history,
/// and the search "hänchen" listed it first. History ranks among the foods the words name; it
/// never replaces them.
@Suite("History ranks among matches, never replaces them")
struct HistoryNeverReplacesTests {
    @Test("after five Caesar salads (one of its names holds 'Hähnchen'), Hähnchen in words and in search is chicken")
    func chickenStaysChicken() throws {
        let clock = FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin)
        let store = try AppDatabase.inMemory(clock: clock)
        try store.completeOnboarding(.alice, timeZone: Zones.berlin)
        for day in 0..<5 {
            let instant = LocalDate(dayNumber: LocalDate.ymd(2026, 2, 24).dayNumber + day).instant(at: .hm(12, 30), in: Zones.berlin)
            try store.logFood("95047", grams: 350, at: instant, moment: nil, timeZone: Zones.berlin, language: .de, source: .search)
        }
        for typed in ["100g Hähnchen", "100 g Hähnchen", "Hähnchen 100g"] {
            let meal = try store.resolveMealText(typed, language: .de, timeZone: Zones.berlin)
            let item = try #require(meal.items.first, "\(typed)")
            #expect(item.food.id != "95047", "\(typed) → \(item.food.name)")
            #expect(item.food.name.hasPrefix("Hähnchen"), "\(typed) → \(item.food.name)")
            #expect(item.choice.grams == 100)
        }
        for query in ["hähnchen", "Hähnchen", "hänchen"] {
            let hits = try store.searchFoods(query, language: .de, timeZone: Zones.berlin).map(\.food)
            #expect(hits.first?.name.hasPrefix("Hähnchen") == true, "\(query) → \(hits.prefix(3).map(\.name))")
        }
        // the salad itself is still first for its own name, and for the start of it
        #expect(try store.searchFoods("caesar", language: .de, timeZone: Zones.berlin).first?.food.id == "95047")
        #expect(try store.searchFoods("cae", language: .de, timeZone: Zones.berlin).first?.food.id == "95047")
    }
}
