import DietCore
import DietStore
import DietSync
import Foundation
import ServerTestSupport
import SyncProtocol
import TestSupport
import Testing

@Suite("The sync client")
struct SynchronizerTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("the account file is written whole and readable by its owner only")
    func accountFilePermissions() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = AccountFile(databasePath: folder.appendingPathComponent("w-diet.sqlite").path)
        let tokens = TokenResponse(userID: UUID(), sessionID: UUID(), accessToken: "a", expiresIn: 900, refreshToken: "r")
        let account = Account(server: URL(string: "https://sync.example.org")!, email: "anna@example.org", tokens: tokens, now: Date())
        try file.save(account)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try file.load() == account)
        try file.delete()
        #expect(try file.load() == nil)
    }

    @Test("backoff grows exponentially up to its cap, and jitter stays under the ceiling")
    func backoff() {
        let policy = RetryPolicy(attempts: 5, base: 0.5, cap: 4)
        #expect((0..<5).map(policy.ceiling(after:)) == [0.5, 1, 2, 4, 4])
        for attempt in 0..<5 { #expect(policy.delay(after: attempt) <= policy.ceiling(after: attempt)) }
        #expect(policy.pause(afterFailures: 1) == 5)
        #expect(policy.pause(afterFailures: 3) == 20)
        #expect(policy.pause(afterFailures: 30) == 900)
    }

    @Test("the quiet sync with the server unreachable throws nothing, keeps every change and pauses before the next try")
    func quietSyncOffline() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("w-diet.sqlite").path
        let store = try AppDatabase.open(path: path)
        try store.completeOnboarding(.alice, timeZone: Zones.berlin)
        let file = AccountFile(databasePath: path)
        // A port nothing listens on.
        let tokens = TokenResponse(userID: UUID(), sessionID: UUID(), accessToken: "a", expiresIn: 900, refreshToken: "r")
        try file.save(Account(server: URL(string: "http://127.0.0.1:9")!, email: "anna@example.org", tokens: tokens, now: Date()))
        let synchronizer = Synchronizer(store: store, file: file)
        let pending = try store.syncStatus().pending

        #expect(await synchronizer.syncIfDue() == nil)
        let afterFirst = try #require(try file.load())
        #expect(afterFirst.failures == 1)
        #expect((afterFirst.nextAttemptAt ?? .distantPast) > Date())
        // Within the pause nothing is tried, so the count does not grow.
        #expect(await synchronizer.syncIfDue() == nil)
        #expect(try file.load()?.failures == 1)
        #expect(try store.syncStatus().pending == pending)
        await #expect(throws: SyncError.offline) { try await synchronizer.sync() }
    }

    @Test("a session revoked from another device stops sync with signedOut; the local data and outbox stay")
    func revokedSession() async throws {
        try await ServerHarness.withLiveServer(configure: { $0.bcryptCost = 4 }) { _, server in
            let folder = try folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("w-diet.sqlite").path
            let store = try AppDatabase.open(path: path)
            try store.completeOnboarding(.alice, timeZone: Zones.berlin)
            let synchronizer = Synchronizer(store: store, file: AccountFile(databasePath: path))
            let laptop = try await synchronizer.signIn(
                server: server,
                credentials: PasswordCredentials(email: "anna@example.org", password: "correct horse battery", deviceName: "laptop"),
                newAccount: true
            )
            #expect(try await synchronizer.sync().pushed == 4)

            let api = ServerAPI(baseURL: server)
            let phone = try await api.login(PasswordCredentials(email: "anna@example.org", password: "correct horse battery", deviceName: "phone"))
            let devices = try await api.devices(accessToken: phone.accessToken)
            #expect(Set(devices.map(\.deviceName)) == ["laptop", "phone"])
            try await api.revokeDevice(laptop.sessionID, accessToken: phone.accessToken)

            try store.logMeal(try MealEntry(name: "Porridge", kcal: 320, at: Date(), in: Zones.berlin))
            await #expect(throws: SyncError.signedOut) { try await synchronizer.sync() }
            #expect(try store.syncStatus().pending == 2)
            #expect(try store.meals(on: LocalDate(Date(), in: Zones.berlin)).count == 1)
        }
    }

    @Test("two processes refreshing the same expired token at once both go on (one refreshes, the other takes its tokens)")
    func concurrentRefresh() async throws {
        try await ServerHarness.withLiveServer(configure: { $0.bcryptCost = 4 }) { _, server in
            let folder = try folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("w-diet.sqlite").path
            let store = try AppDatabase.open(path: path)
            try store.completeOnboarding(.alice, timeZone: Zones.berlin)
            let file = AccountFile(databasePath: path)
            _ = try await Synchronizer(store: store, file: file).signIn(
                server: server,
                credentials: PasswordCredentials(
                    email: "twin-\(UUID().uuidString.prefix(8))@example.org",
                    password: "correct horse battery",
                    deviceName: "laptop"
                ),
                newAccount: true
            )
            for round in 0..<5 {
                // the access token has expired for both "processes" (two Synchronizers on the same files)
                var account = try #require(try file.load())
                account.accessExpiresAt = Date(timeIntervalSinceNow: -10)
                try file.save(account)
                async let first = Synchronizer(store: store, file: file).sync()
                async let second = Synchronizer(store: store, file: AccountFile(databasePath: path)).sync()
                _ = try await (first, second)
                #expect(try file.load()?.refreshToken != account.refreshToken, "round \(round): the token was rotated")
            }
            // the session is still good
            _ = try await Synchronizer(store: store, file: file).sync()
        }
    }
}
