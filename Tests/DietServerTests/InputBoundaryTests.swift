import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import SyncProtocol
import TestSupport
import Testing

@testable import DietServer

@Suite("Control characters at the server's boundary")
struct InputBoundaryTests {
    @Test(
        "NUL or an escape in an email, password or device name is refused by sign-up with a 400 naming the field",
        arguments: [
            ("email", PasswordCredentials(email: "anna\u{0}@example.org", password: "correct horse battery", deviceName: "laptop")),
            ("password", PasswordCredentials(email: "anna@example.org", password: "correct\u{0}horse battery", deviceName: "laptop")),
            ("device_name", PasswordCredentials(email: "anna@example.org", password: "correct horse battery", deviceName: "lap\u{1B}[2Jtop")),
            ("device_name", PasswordCredentials(email: "anna@example.org", password: "correct horse battery", deviceName: "lap\u{0}top")),
        ]
    )
    func signupRefusesControlCharacters(field: String, credentials: PasswordCredentials) async throws {
        try await ServerHarness.withServer { _, client in
            // When
            let response = try await client.send(.post, AccountPaths.signup, json: credentials)
            // Then
            #expect(response.status == .badRequest)
            let message = try #require(response.errorBody?.error.message)
            #expect(message.contains(field), "\(message)")
            #expect(message.contains("control character"), "\(message)")
        }
    }

    @Test(
        "sign-in with a control character in any field answers 400, never 500",
        arguments: [
            PasswordCredentials(email: "anna\u{0}@example.org", password: "correct horse battery", deviceName: "phone"),
            PasswordCredentials(email: "anna@example.org", password: "correct\u{0}horse battery", deviceName: "phone"),
            PasswordCredentials(email: "anna@example.org", password: "correct horse battery", deviceName: "ph\u{7}one"),
        ]
    )
    func loginRefusesControlCharacters(credentials: PasswordCredentials) async throws {
        try await ServerHarness.withServer { _, client in
            // Given
            _ = try await client.signup("anna@example.org")
            // When
            let response = try await client.send(.post, AccountPaths.login, json: credentials)
            // Then
            #expect(response.status == .badRequest)
            #expect(response.errorBody?.error.message.contains("control character") == true)
        }
    }

    @Test("a password with NUL is not cut short: its first part does not sign in")
    func passwordIsNotCutAtNUL() async throws {
        try await ServerHarness.withServer { _, client in
            // Given: a sign-up with a NUL inside the password
            let signup = try await client.send(
                .post,
                AccountPaths.signup,
                json: PasswordCredentials(email: "anna@example.org", password: "a\u{0}bcdefghijklmnop", deviceName: "laptop")
            )
            // When: someone signs in with the part before the NUL
            let login = try await client.login("anna@example.org", password: "a")
            // Then
            #expect(signup.status == .badRequest)
            #expect(login.status == .unauthorized)
        }
    }

    @Test("tab and newline stay allowed in a device name and a password")
    func tabAndNewlineAreAllowed() async throws {
        try await ServerHarness.withServer { _, client in
            // When
            let response = try await client.send(
                .post,
                AccountPaths.signup,
                json: PasswordCredentials(email: "anna@example.org", password: "correct\thorse\nbattery", deviceName: "lap\ttop")
            )
            // Then
            #expect(response.status == .created)
            #expect(try await client.login("anna@example.org", password: "correct\thorse\nbattery").status == .ok)
        }
    }

    @Test("a pushed row with NUL in a text or a key is refused with its reason; the rest of the batch applies; never a 500")
    func pushedNULIsRefusedPerChange() async throws {
        try await ServerHarness.withServer { _, client in
            // Given
            let token = try await client.signup("anna@example.org").accessToken
            let stamp = HLC(wallMs: Changes.now, counter: 0, deviceID: "laptop")
            var withKey = Changes.row(name: "Soup", kcal: 90)
            withKey["na\u{0}me"] = .number(1)
            let inText = Change(table: .mealLogs, id: UUID(), hlc: stamp, deleted: false, row: .object(Changes.row(name: "a\u{0}b", kcal: 90)))
            let inKey = Change(table: .mealLogs, id: UUID(), hlc: stamp, deleted: false, row: .object(withKey))
            let fine = Changes.meal(UUID(), name: "Apple", kcal: 52, at: Changes.now)
            // When
            let response = try await client.send(
                .post,
                SyncPaths.push,
                token: token,
                json: PushRequest(deviceID: "laptop", changes: [inText, inKey, fine])
            )
            // Then
            let results = try response.decoded(PushResponse.self).results
            #expect(results.map(\.status) == [.rejected, .rejected, .applied])
            #expect(results[0].message?.contains("U+0000") == true)
            let page = try await client.send(.get, SyncPaths.pull, token: token).decoded(PullResponse.self)
            #expect(page.changes.map(\.id) == [fine.id])
        }
    }

    @Test(
        "changes that break the row contract (kcal -5, a 60,000-character name, a table that does not sync) are refused one by one with the reason; the valid rest applies"
    )
    func rowContractOnPush() async throws {
        try await ServerHarness.withServer { _, client in
            // Given
            let token = try await client.signup("anna@example.org").accessToken
            let stamp = HLC(wallMs: Changes.now, counter: 0, deviceID: "laptop")
            let negative = Change(table: .mealLogs, id: UUID(), hlc: stamp, deleted: false, row: .object(Changes.row(name: "Soup", kcal: -5)))
            let long = Change(
                table: .mealLogs,
                id: UUID(),
                hlc: stamp,
                deleted: false,
                row: .object(Changes.row(name: String(repeating: "a", count: 60_000), kcal: 90))
            )
            let calendar = Change(table: .briefingSettings, id: UUID(), hlc: stamp, deleted: false, row: .object(["url": .string("https://x")]))
            let fine = Changes.meal(UUID(), name: "Apple", kcal: 52, at: Changes.now)
            // When
            let response = try await client.send(
                .post,
                SyncPaths.push,
                token: token,
                json: PushRequest(deviceID: "laptop", changes: [negative, long, calendar, fine])
            )
            // Then
            let results = try response.decoded(PushResponse.self).results
            #expect(results.map(\.status) == [.rejected, .rejected, .rejected, .applied])
            #expect(results[0].message == "meal_logs.kcal: must be a whole number from 1 to 9999; got -5")
            #expect(results[1].message?.hasPrefix("meal_logs.name: must be 1–80 characters") == true)
            #expect(results[2].message == "briefing_settings: rows of this table do not sync in this version")
            let page = try await client.send(.get, SyncPaths.pull, token: token).decoded(PullResponse.self)
            #expect(page.changes == [fine])
        }
    }

    @Test(
        "every row a device would set aside or be harmed by (an eating window of 25:99, portions of -1, 5 and null, a calendar address /dev/stdin…) is refused on push with its field; the valid rows apply"
    )
    func unreadableRowsAreRefused() async throws {
        try await ServerHarness.withServer { _, client in
            // Given every case devices know, and one valid row of each table after them
            let token = try await client.signup("anna@example.org").accessToken
            let cases = UnreadableRows.cases
            let valid = UnreadableRows.validRows.keys.sorted { $0.rawValue < $1.rawValue }.map {
                UnreadableRows.change($0, wallMs: UnreadableRows.wallMs + 1000)
            }
            // When they are pushed in one batch
            let response = try await client.send(
                .post,
                SyncPaths.push,
                token: token,
                json: PushRequest(deviceID: "attacker", changes: cases.map(\.change) + valid)
            )
            // Then each case is refused naming its table and field, and the valid rows apply
            let results = try response.decoded(PushResponse.self).results
            try #require(results.count == cases.count + valid.count)
            for (unreadable, result) in zip(cases, results) {
                #expect(result.status == .rejected, "\(unreadable)")
                let prefix = "\(unreadable.change.table.rawValue).\(unreadable.field):"
                #expect(result.message?.hasPrefix(prefix) == true, "\(unreadable): \(result.message ?? "no reason")")
            }
            #expect(results.suffix(valid.count).allSatisfy { $0.status == .applied })
            let page = try await client.send(.get, SyncPaths.pull, token: token).decoded(PullResponse.self)
            #expect(Set(page.changes.map(\.id)) == Set(valid.map(\.id)))
        }
    }
}
