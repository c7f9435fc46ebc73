import DietCore
import Foundation
import GRDB
import SyncProtocol
import TestSupport
import Testing

@testable import DietStore

@Suite("Local store")
struct AppDatabaseTests {
    @Test("a new database is migrated to the latest version and has a device id")
    func migrated() throws {
        let (store, _) = try makeStore(onboard: nil)
        #expect(
            try store.appliedMigrations() == [
                "v1_core", "v2_activity_days", "v3_custom_foods", "v4_recipes", "v5_meals_by_food", "v6_sync_client", "v7_calendars",
                "v8_whoop_cache", "v9_sync_set_aside", "v10_meal_moments", "v11_web_access", "v12_recovery_mode", "v13_badges",
                "v14_synced_calendars", "v15_synced_whoop", "v16_local_calendar_files", "v17_goal_weight", "v18_meal_recipes",
            ]
        )
        let device = try store.reader.read { db in try SyncState.value(.deviceID, in: db) }
        #expect(device == "device0")
    }

    @Test("a database file is created with its folder, in WAL mode, and reopens with its data")
    func onDisk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-\(UUID().uuidString)/nested")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let path = folder.appendingPathComponent("w-diet.sqlite").path
        let clock = FixedClock.at(.ymd(2026, 1, 5), 8, in: Zones.berlin)
        do {
            let store = try AppDatabase.open(path: path, clock: clock)
            try store.completeOnboarding(.alice, timeZone: Zones.berlin)
            let mode = try store.reader.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
            #expect(mode == "wal")
        }
        let reopened = try AppDatabase.open(path: path, clock: clock)
        #expect(try reopened.settings()?.startDate == .ymd(2026, 1, 5))
    }

    /// The permission bits of `path`.
    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o777
    }

    @Test("under umask 022 a new database is owner-only: its folder 0700, the file and its -wal and -shm 0600")
    func ownerOnly() throws {
        // Given a fresh folder and the usual umask
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("data/w-diet.sqlite").path
        let previous = umask(0o022)
        defer { umask(previous) }
        // When a store is opened there and written to
        let store = try AppDatabase.open(path: path, clock: FixedClock.at(.ymd(2026, 1, 5), 8, in: Zones.berlin))
        try store.completeOnboarding(.alice, timeZone: Zones.berlin)
        // Then only the owner can read any of it
        #expect(try Self.mode(root.appendingPathComponent("data").path) == 0o700)
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(try Self.mode(file) == 0o600, "\(file)")
        }
    }

    @Test("a database left readable by others by an older version is narrowed to 0600 on open")
    func narrowsOldFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("w-diet.sqlite").path
        let clock = FixedClock.at(.ymd(2026, 1, 5), 8, in: Zones.berlin)
        do {
            let store = try AppDatabase.open(path: path, clock: clock)
            try store.completeOnboarding(.alice, timeZone: Zones.berlin)
        }
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        }
        let reopened = try AppDatabase.open(path: path, clock: clock)
        #expect(try reopened.settings()?.profile == .alice)
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(try Self.mode(file) == 0o600, "\(file)")
        }
    }

    @Test("onboarding stores the profile, starts the cycle today, keeps the weight typed as the first weigh-in and queues all for sync")
    func onboarding() throws {
        let (store, _) = try makeStore()
        let settings = try #require(try store.settings())
        #expect(settings.profile == .alice)
        #expect(settings.startDate == .ymd(2026, 1, 5) && settings.timeZoneIdentifier == "Europe/Berlin")
        #expect(try store.eventNames() == ["onboarding_completed"])
        // the weight typed in onboarding is today's weigh-in (it read "-- kg · Tippe, um dein Gewicht einzutragen")
        #expect(
            try store.weights(from: .ymd(2026, 1, 1), through: .ymd(2026, 1, 31)) == [
                try WeightEntry(date: .ymd(2026, 1, 5), kg: Profile.alice.weightKg)
            ]
        )
        // profile, cycle state, the weigh-in and the event are queued
        #expect(try store.count("sync_outbox") == 4)
    }

    @Test("a second onboarding is refused and changes nothing")
    func secondOnboarding() throws {
        let (store, _) = try makeStore()
        #expect(throws: StoreError.alreadyOnboarded) { try store.completeOnboarding(.bob, timeZone: Zones.newYork) }
        #expect(try store.settings()?.profile == .alice)
        #expect(try store.count("sync_outbox") == 4)
    }

    @Test("logging a meal stores it on its local date and queues it with its event")
    func logMeal() throws {
        let (store, clock) = try makeStore()
        let logged = try store.logMeal(try meal(at: clock))
        let meals = try store.meals(on: .ymd(2026, 1, 5))
        #expect(meals == [logged])
        #expect(meals.first?.entry.localTime == .hm(8))
        #expect(try store.count("sync_outbox") == 6)
        let queued = try store.reader.read { db in
            try String.fetchOne(db, sql: "SELECT row FROM sync_outbox WHERE table_name = 'meal_logs'")
        }
        #expect(queued?.contains("\"name\":\"Porridge\"") == true)
        #expect(queued?.contains("updated_hlc") == false)
    }

    @Test("a meal before onboarding is refused and nothing is written")
    func mealBeforeOnboarding() throws {
        let (store, clock) = try makeStore(onboard: nil)
        #expect(throws: StoreError.notOnboarded) { try store.logMeal(try meal(at: clock)) }
        #expect(try store.count("meal_logs") == 0)
        #expect(try store.count("sync_outbox") == 0)
    }

    @Test("editing replaces the values and keeps one pending change for the row")
    func editMeal() throws {
        let (store, clock) = try makeStore()
        let logged = try store.logMeal(try meal(at: clock))
        clock.advance(by: 60)
        try store.editMeal(logged.id, to: try meal("Porridge with berries", kcal: 480, at: clock))
        #expect(try store.meal(logged.id)?.entry.kcal == 480)
        let pending = try store.reader.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_outbox WHERE row_id = ?", arguments: [logged.id.uuidString])
        }
        #expect(pending == 1)
    }

    @Test("deleting leaves a tombstone that syncs, and the meal disappears from the day")
    func deleteMeal() throws {
        let (store, clock) = try makeStore()
        let logged = try store.logMeal(try meal(at: clock))
        try store.deleteMeal(logged.id, timeZone: Zones.berlin)
        #expect(try store.meals(on: .ymd(2026, 1, 5)).isEmpty)
        #expect(try store.count("meal_logs") == 1)
        let deleted = try store.reader.read { db in
            try Bool.fetchOne(db, sql: "SELECT deleted FROM sync_outbox WHERE row_id = ?", arguments: [logged.id.uuidString])
        }
        #expect(deleted == true)
        #expect(throws: StoreError.notFound(table: "meal_logs", id: logged.id.uuidString)) {
            try store.deleteMeal(logged.id, timeZone: Zones.berlin)
        }
    }

    @Test("logging a weight again the same day replaces that day's entry")
    func weightReplaces() throws {
        let (store, _) = try makeStore()
        try store.logWeight(try WeightEntry(date: .ymd(2026, 1, 5), kg: 72.4), timeZone: Zones.berlin)
        try store.logWeight(try WeightEntry(date: .ymd(2026, 1, 5), kg: 72.1), timeZone: Zones.berlin)
        try store.logWeight(try WeightEntry(date: .ymd(2026, 1, 6), kg: 71.9), timeZone: Zones.berlin)
        let weights = try store.weights(from: .ymd(2026, 1, 1), through: .ymd(2026, 1, 31))
        #expect(weights.map(\.kg) == [72.1, 71.9])
        #expect(try store.count("weight_entries") == 2)
    }

    @Test("every stamp of the device is newer than the one before, even with the clock set back")
    func stampsIncrease() throws {
        let (store, clock) = try makeStore()
        try store.logMeal(try meal(at: clock))
        clock.advance(by: -7200)
        try store.logMeal(try meal(at: clock))
        let stamps = try store.reader.read { db in
            try String.fetchAll(db, sql: "SELECT hlc FROM sync_outbox ORDER BY seq")
        }
        #expect(stamps == stamps.sorted())
        #expect(Set(stamps).count == stamps.count)
    }

    @Test(
        "the schema refuses values outside the product's ranges",
        arguments: [
            "UPDATE meal_logs SET kcal = 0", "UPDATE meal_logs SET kcal = 10000", "UPDATE meal_logs SET protein_g = -1",
            "UPDATE meal_logs SET local_date = 'yesterday'", "UPDATE profile SET age = 17", "UPDATE profile SET deficit = 0.5",
            "UPDATE profile SET sex = 'robot'", "UPDATE cycle_states SET programme_day = 0",
        ]
    )
    func schemaGuards(sql: String) throws {
        let (store, clock) = try makeStore()
        try store.logMeal(try meal(at: clock))
        #expect(throws: DatabaseError.self) { try store.writer.write { db in try db.execute(sql: sql) } }
    }

    @Test("two active weights on one date are refused by the schema")
    func uniqueWeight() throws {
        let (store, _) = try makeStore()
        try store.logWeight(try WeightEntry(date: .ymd(2026, 1, 5), kg: 72.4), timeZone: Zones.berlin)
        #expect(throws: DatabaseError.self) {
            try store.writer.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO weight_entries (id, local_date, weight_kg, logged_at, time_zone, updated_hlc, deleted)
                        VALUES ('X', '2026-01-05', 70, '2026-01-05T08:00:00.000Z', 'UTC', 'x', 0)
                        """
                )
            }
        }
    }

    @Test("a write that fails midway leaves neither the row nor its outbox entry")
    func atomic() throws {
        let (store, clock) = try makeStore()
        let before = try store.count("sync_outbox")
        #expect(throws: DatabaseError.self) {
            try store.writer.write { db in
                var record = MealRecord(id: UUID(), entry: try meal(at: clock), createdAt: clock.now())
                record = try Outbox.save(record, db, now: clock.now())
                try db.execute(sql: "UPDATE meal_logs SET kcal = 0 WHERE id = ?", arguments: [record.id.uuidString])
            }
        }
        #expect(try store.count("meal_logs") == 0)
        #expect(try store.count("sync_outbox") == before)
    }

    @Test("v2 backfills the active days of a database written by v1")
    func migrationV2() throws {
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue, upTo: "v1_core")
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO meal_logs (id, name, kcal, logged_at, local_date, local_time, time_zone, created_at, updated_hlc, deleted)
                    VALUES ('A', 'Toast', 200, 'x', '2026-01-05', '08:00', 'UTC', 'x', 'h', 0),
                           ('B', 'Gone', 200, 'x', '2026-01-06', '08:00', 'UTC', 'x', 'h', 1);
                    INSERT INTO weight_entries (id, local_date, weight_kg, logged_at, time_zone, updated_hlc, deleted)
                    VALUES ('W', '2026-01-07', 70, 'x', 'UTC', 'h', 0);
                    """
            )
        }
        try Migrations.migrator.migrate(queue)
        let days = try queue.read { db in try Int.fetchAll(db, sql: "SELECT day FROM activity_days ORDER BY 1") }
        #expect(days == [LocalDate.ymd(2026, 1, 5).dayNumber, LocalDate.ymd(2026, 1, 7).dayNumber])
    }

    @Test("active days follow every write: a day stays while a meal or weight is left")
    func activityDays() throws {
        let (store, clock) = try makeStore()
        let first = try store.logMeal(try meal(at: clock))
        let second = try store.logMeal(try meal(at: clock))
        try store.logWeight(try WeightEntry(date: .ymd(2026, 1, 6), kg: 72), timeZone: Zones.berlin)
        func days() throws -> [String] {
            try store.reader.read { db in
                try Int.fetchAll(db, sql: "SELECT day FROM activity_days ORDER BY 1").map { LocalDate(dayNumber: $0).iso }
            }
        }
        #expect(try days() == ["2026-01-05", "2026-01-06"])
        try store.deleteMeal(first.id, timeZone: Zones.berlin)
        #expect(try days() == ["2026-01-05", "2026-01-06"])
        try store.deleteMeal(second.id, timeZone: Zones.berlin)
        try store.deleteWeight(on: .ymd(2026, 1, 6))
        #expect(try days() == ["2026-01-05"], "the onboarding weigh-in keeps its day")
        try store.deleteWeight(on: .ymd(2026, 1, 5))
        #expect(try days().isEmpty)
        // moving a meal to another day moves its activity
        let moved = try store.logMeal(try meal(at: clock))
        clock.advance(by: 3 * 86_400)
        try store.editMeal(moved.id, to: try meal(at: clock))
        #expect(try days() == ["2026-01-08"])
    }
}
