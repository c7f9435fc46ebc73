import DietCore
import FoodKit
import Foundation
import GRDB
import SyncProtocol
import TestSupport
import Testing

@testable import DietStore

/// A pulled row this device cannot store is set aside with its reason; the rest of the page
/// applies and the cursor moves on, so one bad row can never stop a device's sync.
@Suite("Pulled rows the store cannot keep are set aside")
struct SyncSetAsideTests {
    let clock = FixedClock.at(.ymd(2026, 1, 5), 8, in: Zones.berlin)

    func onboardedStore() throws -> AppDatabase {
        let store = try AppDatabase.inMemory(clock: clock, deviceID: "laptop")
        try store.completeOnboarding(.alice, timeZone: Zones.berlin)
        return store
    }

    /// A meal as another device pushed it, with `changes` applied to its row.
    func remoteMeal(id: UUID = UUID(), wallMs: Int64 = 1_767_600_000_000, _ changes: [String: JSONValue] = [:]) -> Change {
        var row: [String: JSONValue] = [
            "name": .string("Apfel"), "kcal": .number(80), "logged_at": .string("2026-01-05T07:00:00.000Z"),
            "local_date": .string("2026-01-05"), "local_time": .string("08:00"), "time_zone": .string("Europe/Berlin"),
            "created_at": .string("2026-01-05T07:00:00.000Z"),
        ]
        row.merge(changes) { $1 }
        return Change(
            table: .mealLogs,
            id: id,
            hlc: HLC(wallMs: wallMs, counter: 0, deviceID: "phone"),
            deleted: false,
            row: .object(row)
        )
    }

    @Test("kcal -5 and a 60,000-character name are set aside; the valid meal applies and the cursor moves")
    func badRowsDoNotStopThePull() throws {
        let store = try onboardedStore()
        let page = PullResponse(
            changes: [
                remoteMeal(["kcal": .number(-5)]),
                remoteMeal(["name": .string(String(repeating: "x", count: 60_000))]),
                remoteMeal(["name": .string("Birne")]),
            ],
            nextCursor: 42,
            hasMore: false
        )

        let outcome = try store.merge(page)

        #expect(outcome == MergeOutcome(applied: 1, ignored: 0, setAside: 2))
        #expect(try store.meals(on: .ymd(2026, 1, 5)).map(\.entry.name) == ["Birne"])
        #expect(try store.pullCursor() == 42)
        let reasons = try store.syncStatus().setAside.map(\.reason).sorted()
        #expect(
            reasons == [
                "meal_logs.kcal: must be a whole number from 1 to 9999; got -5",
                "meal_logs.name: must be 1–80 characters; got 60000",
            ]
        )
    }

    @Test("a row that keeps the contract but breaks the store's schema is set aside, not thrown")
    func schemaRefusal() throws {
        let store = try onboardedStore()
        // A weight of an older version, stored under a random id the day before onboarding
        // (onboarding's own weigh-in holds its day): the day's natural-key row
        // from another device now collides with it on the one-weight-per-day index.
        try store.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO weight_entries (id, local_date, weight_kg, logged_at, time_zone, updated_hlc, deleted)
                    VALUES (?, '2026-01-04', 72.4, '2026-01-04T07:00:00.000Z', 'Europe/Berlin', '0001767600000000-0000-laptop', 0)
                    """,
                arguments: [UUID().uuidString]
            )
        }
        let remote = Change(
            table: .weightEntries,
            id: NaturalKey.id(table: .weightEntries, key: "2026-01-04"),
            hlc: HLC(wallMs: 1_767_600_001_000, counter: 0, deviceID: "phone"),
            deleted: false,
            row: .object([
                "local_date": .string("2026-01-04"), "weight_kg": .number(72.1),
                "logged_at": .string("2026-01-04T07:30:00.000Z"), "time_zone": .string("Europe/Berlin"),
            ])
        )

        let outcome = try store.merge(PullResponse(changes: [remote, remoteMeal()], nextCursor: 3, hasMore: false))

        #expect(outcome == MergeOutcome(applied: 1, ignored: 0, setAside: 1))
        #expect(try store.syncStatus().setAside.first?.reason.hasPrefix("weight_entries: the store refused the row") == true)
        #expect(try store.pullCursor() == 3)
    }

    @Test("a profile the app cannot use is set aside and the local profile stays")
    func unusableProfile() throws {
        let store = try onboardedStore()
        let local = try #require(try store.pendingChanges(limit: 100).first { $0.table == .profile })
        guard case var .object(fields) = local.row else {
            Issue.record("the profile is an object")
            return
        }
        fields["eating_window"] = .string(#"{"start":"25:00"}"#)
        let remote = Change(
            table: .profile,
            id: local.id,
            hlc: HLC(wallMs: local.hlc.wallMs + 1000, counter: 0, deviceID: "phone"),
            deleted: false,
            row: .object(fields)
        )

        #expect(try store.merge(PullResponse(changes: [remote], nextCursor: 7, hasMore: false)).setAside == 1)
        #expect(try store.settings()?.profile == Profile.alice)
        #expect(try store.pullCursor() == 7)
    }

    @Test("a newer valid change of a set-aside row replaces it and clears the note")
    func newerChangeClearsSetAside() throws {
        let store = try onboardedStore()
        let id = UUID()
        try store.merge(PullResponse(changes: [remoteMeal(id: id, ["kcal": .number(0)])], nextCursor: 1, hasMore: false))
        #expect(try store.syncStatus().setAside.count == 1)

        try store.merge(PullResponse(changes: [remoteMeal(id: id, wallMs: 1_767_600_001_000)], nextCursor: 2, hasMore: false))

        #expect(try store.syncStatus().setAside.isEmpty)
        #expect(try store.meals(on: .ymd(2026, 1, 5)).map(\.id) == [id])
    }

    @Test("every row the app writes keeps the row contract, so the server never refuses a real user's change")
    func appRowsKeepTheContract() throws {
        let store = try onboardedStore()
        try store.logMeal(
            try MealEntry(
                name: "Quark\nmit Beeren",
                kcal: 300,
                proteinG: 20,
                carbsG: nil,
                fatG: 1,
                fiberG: 2,
                at: clock.now(),
                in: Zones.berlin
            )
        )
        try store.logFoods(
            [FoodAmount(foodID: "5062", grams: 118)],
            at: clock.now(),
            moment: 2,
            timeZone: Zones.berlin,
            language: .de,
            source: .search
        )
        try store.logWeight(try WeightEntry(date: .ymd(2026, 1, 5), kg: 72.4), timeZone: Zones.berlin)
        try store.checkCycle(timeZone: Zones.berlin)
        let cake = Nutrients(kcal: 250, proteinG: 3, carbsG: 35, totalCarbsG: 37, fiberG: 2, sugarsG: 20, fatG: 11, sodiumMg: 120)
        try store.addCustomFood(
            try CustomFood(
                name: "Omas Apfelkuchen",
                per100g: cake,
                portions: [Portion(amount: 1, name: "Stück", grams: 120)]
            )
        )
        let pending = try store.pendingChanges(limit: 1000)
        #expect(Set(pending.map(\.table)).isSuperset(of: [.profile, .mealLogs, .weightEntries, .analyticsEvents, .customFoods]))
        for change in pending {
            #expect(RowContract.violation(in: change, now: clock.now()) == nil, "\(change.table) \(change.row)")
        }
    }
}
