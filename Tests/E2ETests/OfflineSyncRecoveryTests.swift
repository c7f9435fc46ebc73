import Foundation
import GRDB
import PostgresNIO
import TestSupport
import Testing

/// The named offline → crash → online test (docs/architecture.md, "Tests"): meals logged offline, the client killed with `kill -9`, restarted with the
/// server up: every meal arrives exactly once on the server and on a second device.
@Suite("Offline → crash → online recovery", .serialized)
struct OfflineSyncRecoveryTests {
    @Test("meals logged while the server is down survive kill -9 and arrive exactly once everywhere")
    func offlineCrashOnline() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: E2E.wdiet), "build the package first")
        try #require(FileManager.default.isExecutableFile(atPath: E2E.server), "build the package first")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-sync-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await ServerProcess(folder: folder)
        try await server.start()
        defer { server.stop() }

        let laptop = folder.appendingPathComponent("laptop.sqlite").path
        let phone = folder.appendingPathComponent("phone.sqlite").path
        func env(_ database: String) -> [String: String] {
            [
                "WDIET_DATABASE": database, "LANG": "C", "HOME": folder.path, "NO_COLOR": "1",
                "WDIET_PASSWORD": "correct horse battery staple", "WDIET_SYNC_BATCH": "25",
            ]
        }

        // Given a laptop signed in and synced.
        let onboard = try E2E.run(
            [
                "onboard", "--sex", "female", "--age", "34", "--height", "168", "--weight", "72.5",
                "--activity", "light", "--goal", "lose",
            ],
            environment: env(laptop)
        )
        #expect(onboard.status == 0, "\(onboard.stderr)")
        let signup = try E2E.run(
            ["account", "signup", "--server", server.url, "--email", "anna@example.org", "--device", "laptop"],
            environment: env(laptop)
        )
        #expect(signup.status == 0, "\(signup.stderr)")
        #expect(signup.stdout.contains("Synced:"))

        // When the server goes down and the laptop logs meals: no error is shown for being offline.
        server.stop()
        for index in 1...5 {
            let logged = try E2E.run(["log", "meal", "Offline meal \(index)", "--kcal", "\(300 + index)"], environment: env(laptop))
            #expect(logged.status == 0)
            #expect(logged.stderr.isEmpty, "\(logged.stderr)")
        }
        // …and a stream of logging is killed with kill -9 mid-way.
        try killMidStream(database: laptop, environment: env(laptop))
        let offlineMeals = try liveMeals(laptop)
        #expect(offlineMeals.count > 30)
        let waiting = try E2E.run(["sync", "--status"], environment: env(laptop))
        #expect(waiting.stdout.contains("Changes waiting for upload: 0") == false)

        // When the server is back, syncs are killed at random moments, then one completes.
        try await server.start()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<6 {
            try killSync(after: Double.random(in: 0.02...0.4, using: &generator), environment: env(laptop))
        }
        let synced = try E2E.run(["sync"], environment: env(laptop))
        #expect(synced.status == 0, "\(synced.stderr)")
        let status = try E2E.run(["sync", "--status"], environment: env(laptop))
        #expect(status.stdout.contains("Changes waiting for upload: 0"), "\(status.stdout)")

        // Then the server holds every meal exactly once…
        let onServer = try await serverMeals(database: server.database)
        #expect(onServer.count == offlineMeals.count)
        #expect(Dictionary(grouping: onServer.values, by: { $0 }).values.allSatisfy { $0.count == 1 }, "a meal name appears twice")
        #expect(onServer == offlineMeals)

        // …and a second device that signs in receives exactly the same meals.
        let login = try E2E.run(
            ["account", "login", "--server", server.url, "--email", "anna@example.org", "--device", "phone"],
            environment: env(phone)
        )
        #expect(login.status == 0, "\(login.stderr)")
        #expect(try liveMeals(phone) == offlineMeals)
        let again = try E2E.run(["sync"], environment: env(phone))
        #expect(again.stdout.contains("Synced: 0 up, 0 down."), "\(again.stdout)")
        #expect(try liveMeals(phone) == offlineMeals)
    }

    /// Live meals of a device: id → name.
    private func liveMeals(_ database: String) throws -> [String: String] {
        let queue = try DatabaseQueue(path: database)
        return try queue.read { db in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            return Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, name FROM meal_logs WHERE deleted = 0")
                    .map { ($0["id"] as String, $0["name"] as String) }
            )
        }
    }

    /// Live meals on the server, read as the superuser: id → name.
    private func serverMeals(database: String) async throws -> [String: String] {
        try await E2E.withConnection(database: database) { connection in
            var meals: [String: String] = [:]
            let rows = try await connection.query(
                """
                SELECT id, row->>'name' FROM sync_rows WHERE table_name = 'meal_logs' AND NOT deleted
                """,
                logger: E2E.logger
            )
            for try await (id, name) in rows.decode((UUID, String).self) { meals[id.uuidString] = name }
            return meals
        }
    }

    /// Logs meals in a shell loop and kills the loop and its running wdiet with SIGKILL.
    private func killMidStream(database: String, environment: [String: String]) throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-loop-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let loop = try ChildProcess.start(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c",
                """
                i=0; while [ $i -lt 400 ]; do i=$((i+1)); "\(E2E.wdiet)" log meal "Streamed meal $i" --kcal 100 >/dev/null && echo "ack $i"; done
                """,
            ],
            environment: environment,
            log: log
        )
        _ = loop.lines(atLeast: 30)
        loop.kill(children: true)
    }

    /// Starts `wdiet sync` and kills it with SIGKILL after `delay` seconds (if still running).
    private func killSync(after delay: Double, environment: [String: String]) throws {
        let sync = try ChildProcess.start(URL(fileURLWithPath: E2E.wdiet), ["sync"], environment: environment)
        Thread.sleep(forTimeInterval: delay)
        sync.kill()
    }
}
