import Foundation
import GRDB
import PostgresNIO
import Testing

@Suite("wdiet account and sync commands", .serialized)
struct AccountCommandsTests {
    @Test("devices are listed and revoked; delete-account refuses while the server is down, then deletes both copies")
    func devicesAndDeletion() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: E2E.wdiet), "build the package first")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-account-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await ServerProcess(folder: folder)
        try await server.start()
        defer { server.stop() }
        let laptop = folder.appendingPathComponent("laptop.sqlite").path
        let phone = folder.appendingPathComponent("phone.sqlite").path
        func env(_ database: String) -> [String: String] {
            ["WDIET_DATABASE": database, "LANG": "C", "HOME": folder.path, "NO_COLOR": "1", "WDIET_PASSWORD": "correct horse battery staple"]
        }

        // Without an account, sync says how to get one.
        let lonely = try E2E.run(["sync"], environment: env(laptop))
        #expect(lonely.status != 0)
        #expect(lonely.stderr.contains("wdiet account signup"))
        // A bad server address and a wrong password are named.
        let badURL = try E2E.run(["account", "signup", "--server", "ftp://x", "--email", "anna@example.org"], environment: env(laptop))
        #expect(badURL.stderr.contains("“ftp://x” is not a server address"))
        _ = try E2E.run(["account", "signup", "--server", server.url, "--email", "anna@example.org", "--device", "laptop"], environment: env(laptop))
        var wrong = env(phone)
        wrong["WDIET_PASSWORD"] = "not the password"
        let refused = try E2E.run(["account", "login", "--server", server.url, "--email", "anna@example.org"], environment: wrong)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("The email or password is not correct."))
        #expect(FileManager.default.fileExists(atPath: phone + ".account.json") == false)

        _ = try E2E.run(["account", "login", "--server", server.url, "--email", "anna@example.org", "--device", "phone"], environment: env(phone))
        let listed = try E2E.run(["account", "devices", "--json"], environment: env(laptop))
        let devices = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(devices.compactMap { $0["device_name"] as? String }.sorted() == ["laptop", "phone"])
        let phoneID = try #require(devices.first { $0["device_name"] as? String == "phone" }?["id"] as? String)
        #expect(try E2E.run(["account", "devices", "--revoke", phoneID], environment: env(laptop)).stdout.contains("Signed out that device."))
        let revoked = try E2E.run(["sync"], environment: env(phone))
        #expect(revoked.stderr.contains("The session has ended"))

        // delete-account with the server down: nothing is deleted anywhere.
        _ = try E2E.run(
            [
                "onboard", "--sex", "female", "--age", "34", "--height", "168", "--weight", "72.5", "--activity", "light",
                "--goal", "lose",
            ],
            environment: env(laptop)
        )
        _ = try E2E.run(["sync"], environment: env(laptop))
        server.stop()
        let offline = try E2E.run(["delete-account", "--yes"], environment: env(laptop))
        #expect(offline.status != 0)
        #expect(offline.stderr.contains("Nothing was deleted"))
        let profiles = try await DatabaseQueue(path: laptop).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM profile") }
        #expect(profiles == 1)

        try await server.start()
        let deleted = try E2E.run(["delete-account", "--yes"], environment: env(laptop))
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.contains("everything in it were deleted"))
        #expect(FileManager.default.fileExists(atPath: laptop + ".account.json") == false)
        let rows = try await E2E.withConnection(database: server.database) { connection in
            var total: Int64 = -1
            for try await count in try await connection.query(
                "SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM sync_rows)",
                logger: E2E.logger
            ).decode(Int64.self) { total = count }
            return total
        }
        #expect(rows == 0)
    }
}
