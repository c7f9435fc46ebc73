import DietCore
import Foundation
import GRDB
import SyncProtocol
import TestSupport
import Testing

@testable import DietStore

/// WHOOP records as a synced table: the v15 migration keeps the device's copy and queues it,
/// fetched records go through the outbox, pulled ones are stored (hostile ones set aside), and a
/// device-only disconnect tombstones what this device wrote.
@Suite("WHOOP records sync through the row contract")
struct WhoopSyncTests {
    let clock = FixedClock.at(.ymd(2026, 1, 5), 8, in: Zones.berlin)

    static let recovery = #"{"created_at":"2026-01-05T06:00:00Z","cycle_id":1001,"score":{"recovery_score":61},"score_state":"SCORED"}"#
    static let sleep = #"{"end":"2026-01-05T05:30:00Z","id":"a1b2c3d4-0000-4000-8000-000000000001","nap":false}"#

    /// A WHOOP row as the server (or another device) wrote it.
    func remote(
        kind: String = "recovery",
        whoopID: String = "1001",
        deleted: Bool = false,
        wallMs: Int64 = 1_767_600_000_000,
        device: String = "server",
        _ changes: [String: JSONValue] = [:]
    ) -> Change {
        var row: [String: JSONValue] = [
            "kind": .string(kind), "whoop_id": .string(whoopID), "recorded_at": .string("2026-01-05T06:00:00.000Z"),
            "record": .string(deleted ? "{}" : Self.recovery),
        ]
        row.merge(changes) { $1 }
        return Change(
            table: .whoopRecords,
            id: WhoopRow.id(kind: kind, whoopID: whoopID),
            hlc: HLC(wallMs: wallMs, counter: 0, deviceID: device),
            deleted: deleted,
            row: .object(row)
        )
    }

    @Test("v15 keeps the WHOOP records of a v8 store and queues each for upload within the contract")
    func migrationKeepsAndQueues() throws {
        // Given a store as v14 left it, with a recovery and a sleep fetched from WHOOP
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue, upTo: "v14_synced_calendars")
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO whoop_records (kind, id, recorded_at, json) VALUES (?, ?, ?, ?), (?, ?, ?, ?)",
                arguments: [
                    "recovery", "1001", "2026-01-05T06:00:00.000Z", Self.recovery,
                    "sleep", "a1b2c3d4-0000-4000-8000-000000000001", "2026-01-05T05:30:00.000Z", Self.sleep,
                ]
            )
        }
        // When the store opens with this version
        let store = try AppDatabase(queue, clock: clock, deviceID: "laptop")
        // Then both records are still there and read as before
        #expect(try store.whoopRecordCount() == 2)
        #expect(try store.latestWhoopRecord(.recovery, notAfter: clock.now()) == Self.recovery)
        #expect(try store.latestWhoopRecord(.sleep, notAfter: clock.now()) == Self.sleep)
        // And each waits in the outbox under its natural key, keeping the row contract
        let changes = try store.pendingChanges(limit: 100).filter { $0.table == .whoopRecords }
        #expect(
            Set(changes.map(\.id)) == [
                WhoopRow.id(kind: "recovery", whoopID: "1001"),
                WhoopRow.id(kind: "sleep", whoopID: "a1b2c3d4-0000-4000-8000-000000000001"),
            ]
        )
        // (a migration has no clock of the store: it stamps with the system's time)
        for change in changes { #expect(RowContract.violation(in: change, now: Date()) == nil) }
        let device = try store.syncStatus().deviceID
        #expect(changes.allSatisfy { $0.hlc.deviceID == device })
    }

    @Test("fetched records go through the outbox once; the same text again queues nothing")
    func saveQueuesOnce() throws {
        let store = try AppDatabase.inMemory(clock: clock, deviceID: "laptop")
        let recovery = WhoopRecordInput(kind: .recovery, whoopID: "1001", recordedAt: clock.now().addingTimeInterval(-7200), json: Self.recovery)
        #expect(try store.saveWhoopRecords([recovery]) == 1)
        #expect(try store.pendingChanges(limit: 100).filter { $0.table == .whoopRecords }.count == 1)
        let pushed = try store.pendingChanges(limit: 100)
        try store.acknowledge(pushed: pushed, results: pushed.map { PushResult(id: $0.id, table: $0.table, status: .applied) })
        #expect(try store.saveWhoopRecords([recovery]) == 0)
        #expect(try store.pendingChanges(limit: 100).isEmpty)
    }

    @Test("a pulled WHOOP record is stored and read; hostile ones are set aside; a tombstone removes it")
    func mergePulled() throws {
        let store = try AppDatabase.inMemory(clock: clock, deviceID: "phone")
        // Given a page with one good record and three that break the contract or cannot be read
        let page = PullResponse(
            changes: [
                remote(),
                remote(kind: "steps", whoopID: "7"),
                remote(whoopID: "1002", ["record": .string("[1,2]")]),
                remote(whoopID: "1003", ["record": .string(#"{"a":"\u{1B}[2J"}"#), "whoop_id": .string("../etc")]),
            ],
            nextCursor: 4,
            hasMore: false
        )
        // When it is merged
        let outcome = try store.merge(page)
        // Then the good one is read by the briefing's query, the others are set aside
        #expect(outcome == MergeOutcome(applied: 1, ignored: 0, setAside: 3))
        #expect(try store.latestWhoopRecord(.recovery, notAfter: clock.now()) == Self.recovery)
        #expect(try store.whoopSyncedAt() != nil)
        // And a newer tombstone removes it
        _ = try store.merge(PullResponse(changes: [remote(deleted: true, wallMs: 1_767_600_001_000)], nextCursor: 5, hasMore: false))
        #expect(try store.whoopRecordCount() == 0)
        #expect(try store.latestWhoopRecord(.recovery, notAfter: clock.now()) == nil)
    }

    @Test("a device-only disconnect tombstones what this device fetched; the account's records stay")
    func clearTombstonesOwnRecords() throws {
        let store = try AppDatabase.inMemory(clock: clock, deviceID: "laptop")
        try store.saveWhoopRecords([
            WhoopRecordInput(
                kind: .sleep,
                whoopID: "a1b2c3d4-0000-4000-8000-000000000001",
                recordedAt: clock.now().addingTimeInterval(-9000),
                json: Self.sleep
            )
        ])
        _ = try store.merge(PullResponse(changes: [remote()], nextCursor: 1, hasMore: false))
        // When this device's own connection ends
        #expect(try store.clearWhoop() == 1)
        // Then its sleep goes out as a tombstone without the record's data, the server's recovery stays
        let tombstone = try #require(try store.pendingChanges(limit: 100).first { $0.table == .whoopRecords })
        guard case let .object(row) = tombstone.row else {
            Issue.record("the tombstone has no row")
            return
        }
        #expect(tombstone.deleted && row["record"] == .string("{}"))
        #expect(RowContract.violation(in: tombstone, now: clock.now()) == nil)
        #expect(try store.latestWhoopRecord(.sleep, notAfter: clock.now()) == nil)
        #expect(try store.latestWhoopRecord(.recovery, notAfter: clock.now()) == Self.recovery)
    }
}
