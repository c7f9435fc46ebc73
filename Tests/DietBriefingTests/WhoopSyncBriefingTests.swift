import DietBriefing
import DietCore
import DietStore
import Foundation
import ReadyDay
import SyncProtocol
import Testing

/// The briefing of a device that never talked to WHOOP: it reads the recovery and sleep that
/// sync brought (the account's server or another device fetched them).
@Suite("The briefing reads synced WHOOP records")
struct WhoopSyncBriefingTests {
    static let now = Date(timeIntervalSince1970: 1_767_600_000)  // 2026-01-05 08:00 UTC
    static let recovery =
        #"{"created_at":"2026-01-05T06:00:00.000Z","cycle_id":1001,"score":{"hrv_rmssd_milli":48.25,"recovery_score":71,"resting_heart_rate":55.5,"user_calibrating":false},"score_state":"SCORED","sleep_id":"ecfc6a15-4661-442f-a9a4-f160dd7afae1","updated_at":"2026-01-05T06:00:00.000Z","user_id":10129}"#

    static func sleep(id: String, start: String, end: String, nap: Bool) -> String {
        #"{"created_at":"\#(end)","cycle_id":1001,"end":"\#(end)","id":"\#(id)","nap":\#(nap),"score":{"respiratory_rate":15.5,"sleep_consistency_percentage":80,"sleep_efficiency_percentage":92,"sleep_needed":{"baseline_milli":28800000,"need_from_recent_nap_milli":0,"need_from_recent_strain_milli":0,"need_from_sleep_debt_milli":0},"sleep_performance_percentage":80,"stage_summary":{"disturbance_count":9,"sleep_cycle_count":4,"total_awake_time_milli":1800000,"total_in_bed_time_milli":25200000,"total_light_sleep_time_milli":12600000,"total_no_data_time_milli":0,"total_rem_sleep_time_milli":5400000,"total_slow_wave_sleep_time_milli":5400000}},"score_state":"SCORED","start":"\#(start)","timezone_offset":"+01:00","updated_at":"\#(end)","user_id":10129}"#
    }

    static func change(kind: String, whoopID: String, recordedAt: String, record: String) -> Change {
        Change(
            table: .whoopRecords,
            id: WhoopRow.id(kind: kind, whoopID: whoopID),
            hlc: HLC(wallMs: 1_767_590_000_000, counter: 0, deviceID: "server"),
            deleted: false,
            row: .object([
                "kind": .string(kind), "whoop_id": .string(whoopID), "recorded_at": .string(recordedAt),
                "record": .string(record),
            ])
        )
    }

    @Test("pulled recovery and sleep (a later nap skipped) brief a device without WHOOP tokens, which counts as connected")
    func briefsFromSyncedRecords() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-whoop-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("w-diet.sqlite").path
        let store = try AppDatabase.open(path: path)
        let day = try #require(LocalDate(year: 2026, month: 1, day: 5))
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        // Given a device that never talked to WHOOP
        let before = try StoredBriefing.make(store: store, databasePath: path, day: day, today: day, now: Self.now, timeZone: zone)
        #expect(!before.whoopConnected && before.briefing.recovery == nil)
        // When sync brings a recovery, the night's sleep and a later nap
        let night = Self.sleep(
            id: "a1b2c3d4-0000-4000-8000-000000000001",
            start: "2026-01-04T22:30:00.000Z",
            end: "2026-01-05T05:30:00.000Z",
            nap: false
        )
        let nap = Self.sleep(
            id: "a1b2c3d4-0000-4000-8000-000000000002",
            start: "2026-01-05T06:30:00.000Z",
            end: "2026-01-05T07:00:00.000Z",
            nap: true
        )
        _ = try store.merge(
            PullResponse(
                changes: [
                    Self.change(kind: "recovery", whoopID: "1001", recordedAt: "2026-01-05T06:00:00.000Z", record: Self.recovery),
                    Self.change(
                        kind: "sleep",
                        whoopID: "a1b2c3d4-0000-4000-8000-000000000001",
                        recordedAt: "2026-01-05T05:30:00.000Z",
                        record: night
                    ),
                    Self.change(kind: "sleep", whoopID: "a1b2c3d4-0000-4000-8000-000000000002", recordedAt: "2026-01-05T07:00:00.000Z", record: nap),
                ],
                nextCursor: 3,
                hasMore: false
            )
        )
        // Then its briefing uses them and says WHOOP is connected, though it holds no tokens
        let after = try StoredBriefing.make(store: store, databasePath: path, day: day, today: day, now: Self.now, timeZone: zone)
        #expect(after.briefing.recovery?.score == 71)
        #expect(after.briefing.sleep?.endedAt == ISO8601DateFormatter().date(from: "2026-01-05T05:30:00Z"))
        #expect(after.whoopConnected && !after.hasNoSources && !after.whoopWaiting)
        #expect(!FileManager.default.fileExists(atPath: StoredBriefing.whoopTokensPath(databasePath: path)))
    }

    @Test("a connection started through the account waits for WHOOP until records arrive, and stops waiting when it lapses")
    func waitsForRecords() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-whoop-wait-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("w-diet.sqlite").path
        let store = try AppDatabase.open(path: path)
        let day = try #require(LocalDate(year: 2026, month: 1, day: 5))
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        try WhoopAccountMark(startedAt: Self.now, connected: false, authorizeURL: "https://whoop.example/auth").save(databasePath: path)
        #expect(try StoredBriefing.make(store: store, databasePath: path, day: day, today: day, now: Self.now, timeZone: zone).whoopWaiting)
        let lapsed = Self.now.addingTimeInterval(WhoopConnection.attemptLifetime + 1)
        #expect(try !StoredBriefing.make(store: store, databasePath: path, day: day, today: day, now: lapsed, timeZone: zone).whoopWaiting)
        _ = try store.merge(
            PullResponse(
                changes: [
                    Self.change(kind: "recovery", whoopID: "1001", recordedAt: "2026-01-05T06:00:00.000Z", record: Self.recovery)
                ],
                nextCursor: 1,
                hasMore: false
            )
        )
        #expect(try !StoredBriefing.make(store: store, databasePath: path, day: day, today: day, now: Self.now, timeZone: zone).whoopWaiting)
    }
    @Test("the account's word that WHOOP is connected ends when a disconnect's tombstones arrive from another device")
    func disconnectElsewhere() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-whoop-gone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("w-diet.sqlite").path
        let store = try AppDatabase.open(path: path)
        let day = try #require(LocalDate(year: 2026, month: 1, day: 5))
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        // Given the account said connected, and a record came
        let started = Self.now.addingTimeInterval(-3600)
        try WhoopAccountMark(startedAt: started, connected: true).save(databasePath: path)
        let live = Self.change(kind: "recovery", whoopID: "1001", recordedAt: "2026-01-05T06:00:00.000Z", record: Self.recovery)
        _ = try store.merge(PullResponse(changes: [live], nextCursor: 1, hasMore: false))
        #expect(try StoredBriefing.make(store: store, databasePath: path, day: day, today: day, now: Self.now, timeZone: zone).whoopConnected)
        // When another device disconnected the account: the server's tombstone arrives
        let wall = Int64(Self.now.timeIntervalSince1970 * 1000)
        let tombstone = Change(
            table: .whoopRecords,
            id: live.id,
            hlc: HLC(wallMs: wall, counter: 0, deviceID: "server"),
            deleted: true,
            row: .object([
                "kind": .string("recovery"), "whoop_id": .string("1001"),
                "recorded_at": .string("2026-01-05T06:00:00.000Z"), "record": .string("{}"),
            ])
        )
        _ = try store.merge(PullResponse(changes: [tombstone], nextCursor: 2, hasMore: false))
        // Then this device no longer counts WHOOP as connected
        let after = try StoredBriefing.make(store: store, databasePath: path, day: day, today: day, now: Self.now, timeZone: zone)
        #expect(!after.whoopConnected && !after.whoopWaiting && after.briefing.recovery == nil)
    }
}
