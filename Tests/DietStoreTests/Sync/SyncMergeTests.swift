import DietCore
import DietStore
import Foundation
import GRDB
import SyncProtocol
import TestSupport
import Testing

@Suite("The store's side of sync")
struct SyncMergeTests {
    let clock = FixedClock.at(.ymd(2026, 1, 5), 8, in: Zones.berlin)

    private func onboardedStore() throws -> AppDatabase {
        let store = try AppDatabase.inMemory(clock: clock, deviceID: "laptop")
        try store.completeOnboarding(.alice, timeZone: Zones.berlin)
        return store
    }

    private func meal(_ store: AppDatabase, _ name: String) throws -> Meal {
        try store.logMeal(try MealEntry(name: name, kcal: 300, at: clock.now(), in: Zones.berlin))
    }

    private func remote(_ local: Change, name: String, wallMs: Int64, deleted: Bool = false) -> Change {
        guard case var .object(fields) = local.row else { return local }
        fields["name"] = .string(name)
        return Change(
            table: local.table,
            id: local.id,
            hlc: HLC(wallMs: wallMs, counter: 0, deviceID: "phone"),
            deleted: deleted,
            row: .object(fields)
        )
    }

    @Test("an older remote change leaves the newer local row and its pending upload alone")
    func olderRemoteLoses() throws {
        let store = try onboardedStore()
        let porridge = try meal(store, "Porridge")
        let local = try #require(try store.pendingChanges(limit: 100).first { $0.id == porridge.id })
        let older = remote(local, name: "Old porridge", wallMs: local.hlc.wallMs - 1000)

        let outcome = try store.merge(PullResponse(changes: [older], nextCursor: 5, hasMore: false))
        #expect(outcome.ignored == 1 && outcome.applied == 0)
        #expect(try store.meals(on: .ymd(2026, 1, 5)).map(\.entry.name) == ["Porridge"])
        #expect(try store.pendingChanges(limit: 100).contains(local))
        #expect(try store.pullCursor() == 5)
    }

    @Test("a newer remote change replaces the row, drops the lost local upload and moves the clock past it")
    func newerRemoteWins() throws {
        let store = try onboardedStore()
        let porridge = try meal(store, "Porridge")
        let local = try #require(try store.pendingChanges(limit: 100).first { $0.id == porridge.id })
        let newer = remote(local, name: "Porridge with honey", wallMs: local.hlc.wallMs + 60_000)

        #expect(try store.merge(PullResponse(changes: [newer], nextCursor: 9, hasMore: false)).applied == 1)
        #expect(try store.meals(on: .ymd(2026, 1, 5)).map(\.entry.name) == ["Porridge with honey"])
        #expect(try store.pendingChanges(limit: 100).contains { $0.id == porridge.id } == false)
        // The next local edit is stamped after the remote one, though this device's clock is behind.
        _ = try store.editMeal(porridge.id, to: try MealEntry(name: "Porridge, edited", kcal: 350, at: clock.now(), in: Zones.berlin))
        let edit = try #require(try store.pendingChanges(limit: 100).first { $0.id == porridge.id })
        #expect(edit.hlc > newer.hlc)
    }

    @Test("a remote tombstone deletes the meal; rows of unknown tables or shapes are set aside, not failed on")
    func tombstonesAndUnknownTables() throws {
        let store = try onboardedStore()
        let porridge = try meal(store, "Porridge")
        let local = try #require(try store.pendingChanges(limit: 100).first { $0.id == porridge.id })
        let tombstone = remote(local, name: "Porridge", wallMs: local.hlc.wallMs + 1, deleted: true)
        let future = Change(
            table: .calendarSources,
            id: UUID(),
            hlc: HLC(wallMs: 1, counter: 0, deviceID: "phone"),
            deleted: false,
            row: .object(["url": .string("https://example.org/cal.ics")])
        )
        let damaged = Change(
            table: .mealLogs,
            id: UUID(),
            hlc: HLC(wallMs: 1, counter: 0, deviceID: "phone"),
            deleted: false,
            row: .object(["name": .number(3)])
        )
        let outcome = try store.merge(PullResponse(changes: [tombstone, future, damaged], nextCursor: 12, hasMore: false))
        #expect(outcome == MergeOutcome(applied: 1, ignored: 0, setAside: 2))
        #expect(try store.meals(on: .ymd(2026, 1, 5)).isEmpty)
        #expect(try store.pullCursor() == 12)
    }

    @Test("acknowledged changes leave the outbox; refused ones stay with the reason until the row is written again")
    func acknowledgeAndRefuse() throws {
        let store = try onboardedStore()
        let porridge = try meal(store, "Porridge")
        let apple = try meal(store, "Apple")
        let pending = try store.pendingChanges(limit: 100)
        // The apple is edited while the push is in flight: its newer change must stay queued.
        _ = try store.editMeal(apple.id, to: try MealEntry(name: "Green apple", kcal: 60, at: clock.now(), in: Zones.berlin))
        let results = pending.map { change in
            PushResult(
                id: change.id,
                table: change.table,
                status: change.id == porridge.id ? .rejected : .applied,
                message: change.id == porridge.id ? "too far ahead" : nil
            )
        }
        try store.acknowledge(pushed: pending, results: results)

        let left = try store.pendingChanges(limit: 100)
        #expect(left.map(\.id).contains(apple.id))
        #expect(left.map(\.id).contains(porridge.id) == false)
        let status = try store.syncStatus()
        #expect(status.rejected.map(\.reason) == ["too far ahead"])
        _ = try store.editMeal(porridge.id, to: try MealEntry(name: "Porridge again", kcal: 320, at: clock.now(), in: Zones.berlin))
        #expect(try store.syncStatus().rejected.isEmpty)
        #expect(try store.pendingChanges(limit: 100).map(\.id).contains(porridge.id))
    }

    @Test("a store bound to one account refuses another")
    func boundToOneAccount() throws {
        let store = try onboardedStore()
        let anna = UUID()
        try store.bindAccount(anna)
        try store.bindAccount(anna)
        #expect(throws: StoreError.boundToAnotherAccount) { try store.bindAccount(UUID()) }
        #expect(try store.syncStatus().accountID == anna)
    }
}
