import DietCore
import Foundation
import GRDB
import TestSupport
import Testing

@testable import DietStore

/// Entries a phone kept offline arrive with their own id and the moment they were logged; a
/// replay after a lost answer must neither duplicate nor resurrect (issue 16).
@Suite("Offline logging in the store")
struct OfflineLoggingTests {
    private func mealCount(_ store: AppDatabase) throws -> Int {
        try store.reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM meal_logs") ?? 0 }
    }

    @Test("a meal logged twice with the same client id is one meal and one meal_logged event")
    func sameIDOnce() throws {
        // Given a meal logged with a client-made id
        let (store, clock) = try makeStore()
        let id = UUID()
        let first = try store.logMeal(try meal(at: clock), id: id)
        let events = try store.eventNames().count
        // When the same id arrives again (the answer was lost), with other values
        let again = try store.logMeal(try meal("Other", kcal: 999, at: clock), id: id)
        // Then nothing changed: one meal with the first values, no second event
        #expect(try mealCount(store) == 1)
        #expect(again == first)
        #expect(try store.meal(id)?.entry.kcal == 420)
        #expect(try store.eventNames().count == events)
    }

    @Test("the client id of a deleted meal does not bring it back")
    func deletedStaysDeleted() throws {
        // Given a meal logged with a client id, then deleted (say on another device)
        let (store, clock) = try makeStore()
        let id = UUID()
        try store.logMeal(try meal(at: clock), id: id)
        try store.deleteMeal(id, timeZone: Zones.berlin)
        // When the phone replays it
        try store.logMeal(try meal(at: clock), id: id)
        // Then it stays deleted
        #expect(try store.meal(id) == nil)
        #expect(try store.meals(on: .ymd(2026, 1, 5)).isEmpty)
        #expect(try store.mealExists(id))
    }

    @Test("foods logged together under one client id are saved once, each item with its own derived id")
    func foodsOnce() throws {
        // Given two foods logged together under a client id
        let (store, clock) = try makeStore()
        let id = UUID()
        let ids = AppDatabase.mealIDs(for: id, count: 2)
        let chosen = [FoodAmount(foodID: "1123", grams: 100), FoodAmount(foodID: "5062", grams: 150)]
        let first = try store.logFoods(chosen, at: clock.now(), moment: nil, timeZone: Zones.berlin, language: .en, source: .text, ids: ids)
        // When the same batch is replayed
        let second = try store.logFoods(chosen, at: clock.now(), moment: nil, timeZone: Zones.berlin, language: .en, source: .text, ids: ids)
        // Then there are two meals, not four, with the derived ids
        #expect(try mealCount(store) == 2)
        #expect(Set(first.map(\.id)) == Set(ids))
        #expect(Set(second.map(\.id)) == Set(ids))
        #expect(ids[0] == id && ids[1] != id && AppDatabase.mealIDs(for: id, count: 2) == ids)
    }

    @Test("log again with a client id is saved once, even after the original is deleted")
    func againOnce() throws {
        // Given a meal, logged again with a client id
        let (store, clock) = try makeStore()
        let original = try store.logMeal(try meal(at: clock))
        let copy = UUID()
        try store.logAgain(original.id, as: copy, timeZone: Zones.berlin)
        // When the original is deleted and the "again" replayed
        try store.deleteMeal(original.id, timeZone: Zones.berlin)
        let replayed = try store.logAgain(original.id, as: copy, timeZone: Zones.berlin)
        // Then the copy is there once
        #expect(replayed.id == copy)
        #expect(try store.meals(on: .ymd(2026, 1, 5)).map(\.id) == [copy])
    }

    @Test("a weight logged offline lands on its day; the weight logged later of a day wins, a replay changes nothing")
    func weightLaterWins() throws {
        // Given a weight logged online this morning for today
        let (store, clock) = try makeStore()
        let today = LocalDate.ymd(2026, 1, 5)
        try store.logWeight(try WeightEntry(date: today, kg: 72.0), timeZone: Zones.berlin)
        // When a weight kept offline from yesterday evening and one from earlier today arrive
        let yesterday = today.adding(days: -1).instant(at: TimeOfDay(hour: 21)!, in: Zones.berlin)
        let earlier = today.instant(at: TimeOfDay(hour: 7)!, in: Zones.berlin)
        #expect(try store.logWeight(try WeightEntry(date: today.adding(days: -1), kg: 72.6), timeZone: Zones.berlin, loggedAt: yesterday))
        #expect(try !store.logWeight(try WeightEntry(date: today, kg: 71.5), timeZone: Zones.berlin, loggedAt: earlier))
        // Then yesterday has its weight and today keeps the later one
        let weights = try store.weights(from: today.adding(days: -1), through: today)
        #expect(weights.map(\.kg) == [72.6, 72.0])
        // And replaying yesterday's again changes nothing (no second event)
        let events = try store.eventNames().count
        #expect(try !store.logWeight(try WeightEntry(date: today.adding(days: -1), kg: 72.6), timeZone: Zones.berlin, loggedAt: yesterday))
        #expect(try store.eventNames().count == events)
        // And one logged offline after the stored one replaces it
        clock.advance(by: 3600)
        #expect(try store.logWeight(try WeightEntry(date: today, kg: 71.8), timeZone: Zones.berlin, loggedAt: clock.now()))
        #expect(try store.weights(from: today, through: today).map(\.kg) == [71.8])
    }
}
