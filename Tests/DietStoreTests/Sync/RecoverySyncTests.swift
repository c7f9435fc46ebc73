import DietCore
import Foundation
import GRDB
import SyncProtocol
import TestSupport
import Testing

@testable import DietStore

@Suite("Mindful meals sync through the row contract")
struct RecoverySyncTests {
    let clock = FixedClock.at(.ymd(2026, 1, 5), 8, in: Zones.berlin)

    func onboardedStore() throws -> AppDatabase {
        let store = try AppDatabase.inMemory(clock: clock, deviceID: "laptop")
        try store.completeOnboarding(.alice, timeZone: Zones.berlin)
        return store
    }

    /// A mindful meal as another device pushed it, with `changes` applied to its row.
    func remote(
        id: UUID = UUID(),
        deleted: Bool = false,
        wallMs: Int64 = 1_767_600_000_000,
        _ changes: [String: JSONValue] = [:]
    ) -> Change {
        var row: [String: JSONValue] = [
            "name": .string("Porridge with berries"), "hunger": .number(2), "fullness": .number(4),
            "logged_at": .string("2026-01-05T07:00:00.000Z"), "local_date": .string("2026-01-05"),
            "local_time": .string("08:00"), "time_zone": .string("Europe/Berlin"), "created_at": .string("2026-01-05T07:00:00.000Z"),
        ]
        row.merge(changes) { $1 }
        return Change(
            table: .mindfulMeals,
            id: id,
            hlc: HLC(wallMs: wallMs, counter: 0, deviceID: "phone"),
            deleted: deleted,
            row: .object(row)
        )
    }

    @Test("a pulled mindful meal is stored; hostile ones are set aside and the pull goes on")
    func pull() throws {
        let store = try onboardedStore()
        let page = PullResponse(
            changes: [
                remote(["hunger": .number(6)]),
                remote(["name": .string("Soup\u{1B}[2J")]),
                remote(["feeling": .string("guilty")]),
                remote(["kcal": .number(1234)]),
                remote(["feeling": .string("calm")]),
            ],
            nextCursor: 9,
            hasMore: false
        )

        let outcome = try store.merge(page)

        #expect(outcome == MergeOutcome(applied: 1, ignored: 0, setAside: 4))
        let kept = try store.mindfulMeals(on: .ymd(2026, 1, 5))
        #expect(kept.map(\.entry.name) == ["Porridge with berries"])
        #expect(kept.first?.entry.hunger == .hungry && kept.first?.entry.feeling == .calm)
        #expect(try store.pullCursor() == 9)
        #expect(try store.syncStatus().setAside.allSatisfy { $0.table == "mindful_meals" })
    }

    @Test("a pulled tombstone deletes the mindful meal here")
    func tombstone() throws {
        let store = try onboardedStore()
        try store.deleteWeight(on: .ymd(2026, 1, 5))  // onboarding's weigh-in would keep the day active
        let id = UUID()
        _ = try store.merge(PullResponse(changes: [remote(id: id)], nextCursor: 1, hasMore: false))
        _ = try store.merge(
            PullResponse(
                changes: [remote(id: id, deleted: true, wallMs: 1_767_600_001_000)],
                nextCursor: 2,
                hasMore: false
            )
        )
        #expect(try store.mindfulMeals(on: .ymd(2026, 1, 5)).isEmpty)
        #expect(try store.count("activity_days") == 0)
    }

    @Test("what is logged here goes out as a change that keeps the contract")
    func push() throws {
        let store = try onboardedStore()
        let entry = try MindfulMealEntry(
            name: "Tea and toast",
            hunger: .neutral,
            fullness: .satisfied,
            feeling: .tired,
            at: clock.now(),
            in: Zones.berlin,
            moment: 1
        )
        let meal = try store.logMindfulMeal(entry)
        let batch = try store.pendingChanges(limit: 100)
        let change = try #require(batch.first { $0.table == .mindfulMeals })
        #expect(change.id == meal.id)
        #expect(RowContract.violation(in: change, now: clock.now()) == nil)
    }

    @Test("an export holds the mindful meals and imports back into an empty store")
    func exportImport() throws {
        let store = try onboardedStore()
        _ = try store.logMindfulMeal(
            try MindfulMealEntry(
                name: "Soup",
                hunger: .hungry,
                fullness: .satisfied,
                at: clock.now(),
                in: Zones.berlin
            )
        )
        let export = try store.exportData()
        #expect(export.tables["mindful_meals"]?.count == 1)
        let copy = try AppDatabase.inMemory(clock: clock, deviceID: "phone")
        try copy.importData(export)
        #expect(try copy.mindfulMeals(on: .ymd(2026, 1, 5)).map(\.entry.name) == ["Soup"])
    }

    @Test("delete everything leaves no mindful meal behind")
    func purge() throws {
        let store = try onboardedStore()
        _ = try store.logMindfulMeal(
            try MindfulMealEntry(
                name: "Soup",
                hunger: .hungry,
                fullness: .satisfied,
                at: clock.now(),
                in: Zones.berlin
            )
        )
        try store.purge()
        #expect(try store.count("mindful_meals") == 0)
    }
}
