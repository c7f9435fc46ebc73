import DietCore
import DietServer
import DietStore
import DietSync
import Foundation
import PostgresNIO
import ServerTestSupport
import SyncProtocol
import TestSupport
import Testing

/// No row may ever stop a device: what one client pushes cannot break another's sync.
@Suite("Sync holds against hostile rows")
struct HostileRowsTests {
    private func device(_ name: String) throws -> (AppDatabase, Synchronizer, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-hostile-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("w-diet.sqlite").path
        let store = try AppDatabase.open(path: path)
        return (store, Synchronizer(store: store, file: AccountFile(databasePath: path)), folder)
    }

    private func meal(_ name: String, kcal: JSONValue = .number(300)) -> Change {
        Change(
            table: .mealLogs,
            id: UUID(),
            hlc: HLC(wallMs: Int64(Date().timeIntervalSince1970 * 1000), counter: 0, deviceID: "attacker"),
            deleted: false,
            row: .object([
                "name": .string(name), "kcal": kcal, "logged_at": .string("2026-11-23T07:00:00.000Z"),
                "local_date": .string("2026-11-23"), "local_time": .string("08:00"), "time_zone": .string("Europe/Berlin"),
                "created_at": .string("2026-11-23T07:00:00.000Z"),
            ])
        )
    }

    @Test("garbage pushed by one client is refused row by row, the valid rest applies, and every device keeps syncing")
    func deviceKeepsSyncingAfterGarbage() async throws {
        try await ServerHarness.withLiveServer(configure: { $0.bcryptCost = 4 }) { configuration, server in
            let email = "hostile-\(UUID().uuidString.prefix(8))@example.org"
            let credentials = PasswordCredentials(email: email, password: "correct horse battery", deviceName: "laptop")
            let (laptop, laptopSync, laptopFolder) = try device("laptop")
            defer { try? FileManager.default.removeItem(at: laptopFolder) }
            try laptop.completeOnboarding(.alice, timeZone: Zones.berlin)
            try laptop.logMeal(try MealEntry(name: "Porridge", kcal: 420, at: Date(), in: Zones.berlin))
            _ = try await laptopSync.signIn(server: server, credentials: credentials, newAccount: true)
            _ = try await laptopSync.sync()

            // Given a client that pushes garbage beside one valid meal
            let api = ServerAPI(baseURL: server)
            let attacker = try await api.login(PasswordCredentials(email: email, password: "correct horse battery", deviceName: "script"))
            let batch = [meal("minus", kcal: .number(-5)), meal(String(repeating: "x", count: 60_000)), meal("a\u{0}b"), meal("Birne")]
            let response = try await api.push(PushRequest(deviceID: "attacker", changes: batch), accessToken: attacker.accessToken)

            // Then each bad change is refused with its reason and the valid one applies
            #expect(response.results.map(\.status) == [.rejected, .rejected, .rejected, .applied])
            #expect(response.results[0].message == "meal_logs.kcal: must be a whole number from 1 to 9999; got -5")
            #expect(response.results[2].message == "meal_logs.name: must not contain the control character U+0000")

            // And a bad row already on the server (stored before the contract existed) cannot stop a device either
            _ = try await ServerHarness.withConnection(configuration.migrationDatabaseURL) { connection in
                try await connection.query(
                    """
                    UPDATE sync_rows SET row = jsonb_set(row, '{kcal}', '-5') WHERE row->>'name' = 'Porridge'
                    """,
                    logger: ServerHarness.logger
                )
            }

            // When a second device signs in and syncs
            let (phone, phoneSync, phoneFolder) = try device("phone")
            defer { try? FileManager.default.removeItem(at: phoneFolder) }
            _ = try await phoneSync.signIn(
                server: server,
                credentials: PasswordCredentials(
                    email: email,
                    password: "correct horse battery",
                    deviceName: "phone"
                ),
                newAccount: false
            )
            let first = try await phoneSync.sync()

            // Then it stores what it can, sets the bad row aside with the reason, and moves on
            #expect(first.setAside == 1)
            let today = LocalDate(Date(), in: Zones.berlin)
            #expect(try phone.meals(on: .ymd(2026, 11, 23)).map(\.entry.name) == ["Birne"])
            #expect(try phone.syncStatus().setAside.map(\.reason) == ["meal_logs.kcal: must be a whole number from 1 to 9999; got -5"])

            // And later changes still arrive
            try laptop.logMeal(try MealEntry(name: "Linsensuppe", kcal: 520, at: Date(), in: Zones.berlin))
            _ = try await laptopSync.sync()
            _ = try await phoneSync.sync()
            #expect(try phone.meals(on: today).map(\.entry.name).contains("Linsensuppe"))
        }
    }

    @Test("over the account's storage quota, uploads wait with the server's reason and the other devices' changes still come down")
    func quotaDoesNotStopPulls() async throws {
        try await ServerHarness.withLiveServer(configure: { $0.bcryptCost = 4 }) { configuration, server in
            let email = "quota-\(UUID().uuidString.prefix(8))@example.org"
            let (laptop, laptopSync, laptopFolder) = try device("laptop")
            defer { try? FileManager.default.removeItem(at: laptopFolder) }
            try laptop.completeOnboarding(.alice, timeZone: Zones.berlin)
            _ = try await laptopSync.signIn(
                server: server,
                credentials: PasswordCredentials(
                    email: email,
                    password: "correct horse battery",
                    deviceName: "laptop"
                ),
                newAccount: true
            )
            _ = try await laptopSync.sync()
            let (phone, phoneSync, phoneFolder) = try device("phone")
            defer { try? FileManager.default.removeItem(at: phoneFolder) }
            _ = try await phoneSync.signIn(
                server: server,
                credentials: PasswordCredentials(
                    email: email,
                    password: "correct horse battery",
                    deviceName: "phone"
                ),
                newAccount: false
            )
            _ = try await phoneSync.sync()
            try laptop.logMeal(try MealEntry(name: "Porridge", kcal: 420, at: Date(), in: Zones.berlin))
            _ = try await laptopSync.sync()

            // Given the account has filled its storage quota
            _ = try await ServerHarness.withConnection(configuration.migrationDatabaseURL) { connection in
                try await connection.query(
                    "UPDATE user_usage SET stored_bytes = \(configuration.quota.storedBytes)",
                    logger: ServerHarness.logger
                )
            }

            // When the phone logs a meal and syncs
            let apple = try phone.logMeal(try MealEntry(name: "Apfel", kcal: 80, at: Date(), in: Zones.berlin))
            let report = try await phoneSync.sync()

            // Then its upload waits with the server's reason, and the laptop's meal still came down
            #expect(report.uploadsHeld?.isEmpty == false)
            #expect(try phone.pendingChanges(limit: 100).map(\.id).contains(apple.id))
            #expect(try phone.meals(on: LocalDate(Date(), in: Zones.berlin)).map(\.entry.name).sorted() == ["Apfel", "Porridge"])
        }
    }
}
