import DietCore
import Foundation
import TestSupport
import Testing

@testable import DietStore

@Suite("Log again, copy a day, recent and frequent foods")
struct CopyTests {
    @Test("yesterday's meal logged again now, with its food and portion")
    func logAgain() throws {
        let (store, clock) = try makeStore()
        let original = try store.logMeal(try meal("Skyr", kcal: 130, at: clock), food: FoodPortion(foodID: "1116", grams: 200))
        clock.advance(by: 86_400 + 3600)
        let copy = try store.logAgain(original.id, timeZone: Zones.berlin)
        #expect(copy.id != original.id && copy.entry.kcal == 130 && copy.entry.localDate == .ymd(2026, 1, 6))
        #expect(try store.usedFoods(frequent: true, language: .en).first?.uses == 2)
    }

    @Test("copying a day keeps each meal's local time; an empty day copies nothing")
    func copyDay() throws {
        let (store, clock) = try makeStore()
        try store.logMeal(try meal("Porridge", kcal: 400, at: clock))
        clock.advance(by: 4 * 3600)
        try store.logMeal(try meal("Salad", kcal: 350, at: clock))
        let copies = try store.copyDay(from: .ymd(2026, 1, 5), to: .ymd(2026, 1, 7), timeZone: Zones.berlin)
        #expect(copies.map(\.entry.localTime) == [.hm(8), .hm(12)])
        #expect(try store.meals(on: .ymd(2026, 1, 7)).map(\.entry.name) == ["Porridge", "Salad"])
        #expect(try store.copyDay(from: .ymd(2026, 1, 1), to: .ymd(2026, 1, 7), timeZone: Zones.berlin).isEmpty)
    }

    @Test("recent foods are newest first, frequent foods most used first")
    func usedFoods() throws {
        let (store, clock) = try makeStore()
        for _ in 0..<3 { try store.logMeal(try meal(at: clock), food: FoodPortion(foodID: "9040", grams: 118)) }
        clock.advance(by: 600)
        try store.logMeal(try meal(at: clock), food: FoodPortion(foodID: "1123", grams: 50))
        #expect(try store.usedFoods(frequent: false, language: .de).map(\.name) == ["Ei", "Banane"])
        #expect(try store.usedFoods(frequent: true, language: .de).map(\.foodID) == ["9040", "1123"])
    }
}
