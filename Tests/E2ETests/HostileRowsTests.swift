import Foundation
import PostgresNIO
import SyncProtocol
import TestSupport
import Testing

/// Issue 32's first two findings, end to end with the built `wdiet` and `wdiet-server` on a real
/// PostgreSQL: rows that no device can read, and a calendar address that is a local path, pushed
/// by another device of the account (or a stolen token) are refused by the server; a row of that
/// kind already stored by an older server is set aside by the device; and every command of a
/// new device goes on working.
@Suite("Hostile synced rows neither freeze nor blind a device", .serialized)
struct HostileRowsTests {
    @Test("after another device pushed unreadable rows and a calendar at a FIFO, a new device's commands all work", .timeLimit(.minutes(3)))
    func newDeviceKeepsWorking() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: E2E.wdiet), "build the package first")
        try #require(FileManager.default.isExecutableFile(atPath: E2E.server), "build the package first")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await ServerProcess(folder: folder)
        try await server.start()
        defer { server.stop() }
        let serverURL = try #require(URL(string: server.url))
        func env(_ name: String) -> [String: String] {
            [
                "WDIET_DATABASE": folder.appendingPathComponent("\(name).sqlite").path, "LANG": "C", "HOME": folder.path, "NO_COLOR": "1",
                "WDIET_PASSWORD": "correct horse battery", "WDIET_NO_AUTO_SYNC": "1",
            ]
        }

        // Given an account whose laptop onboarded and synced
        let stolen = try await HTTP.signup(server: serverURL, email: "anna@example.org", device: "stolen")
        let onboard = try E2E.run(
            ["onboard", "--sex", "female", "--age", "34", "--height", "168", "--weight", "72.5", "--activity", "light", "--goal", "lose"],
            environment: env("laptop")
        )
        #expect(onboard.status == 0, "\(onboard.stderr)")
        let login = try E2E.run(
            ["account", "login", "--server", server.url, "--email", "anna@example.org", "--device", "laptop"],
            environment: env("laptop")
        )
        #expect(login.status == 0, "\(login.stderr)")

        // When a stolen token pushes every row a device cannot read or would be harmed by
        let results = try await HTTP.push(
            PushRequest(deviceID: "stolen", changes: UnreadableRows.cases.map(\.change)),
            server: serverURL,
            accessToken: stolen.accessToken
        )
        // Then the server refuses each one
        #expect(results.count == UnreadableRows.cases.count && results.allSatisfy { $0.status == .rejected }, "\(results)")

        // And given a calendar row that an older server accepted: an "address" that is a FIFO
        let fifo = folder.appendingPathComponent("calendar.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let trap = UnreadableRows.change(.calendarSources, ["name": .string("Trap"), "location": .string(fifo)])
        let row = String(decoding: try JSONEncoder().encode(trap.row), as: UTF8.self)
        _ = try await E2E.withConnection(database: server.database) { connection in
            try await connection.query(
                """
                INSERT INTO sync_rows (user_id, table_name, id, hlc, deleted, row, seq)
                VALUES (\(stolen.userID), 'calendar_sources', \(trap.id), \(trap.hlc.description), false, \(row)::jsonb, nextval('sync_seq'))
                """,
                logger: E2E.logger
            )
        }

        // When a new phone of the account signs in and uses every command
        let phoneLogin = try E2E.run(
            ["account", "login", "--server", server.url, "--email", "anna@example.org", "--device", "phone"],
            environment: env("phone")
        )
        #expect(phoneLogin.status == 0, "\(phoneLogin.stderr)")
        // Then it has the laptop's profile (no "No profile yet"), sets the old row aside with its reason…
        let status = try E2E.run(["sync", "--status"], environment: env("phone"))
        #expect(status.stdout.contains("calendar_sources.location: must be an http, https or webcal address"), "\(status.stdout)")
        for arguments in [
            ["today"], ["meals"], ["log", "meal", "Apfel", "--kcal", "80"], ["export", folder.appendingPathComponent("export").path], ["briefing"],
            ["calendar", "list"],
        ] {
            let output = try E2E.run(arguments, environment: env("phone"))
            #expect(output.status == 0, "\(arguments): \(output.stderr)")
            #expect(!output.stderr.contains("No profile yet") && !output.stdout.contains("No profile yet"), "\(arguments)")
        }
        // …and never lists the trap as a calendar
        #expect(!(try E2E.run(["calendar", "list"], environment: env("phone"))).stdout.contains("Trap"))
    }
}
