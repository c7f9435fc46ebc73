import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import SyncProtocol
import Testing
import WhoopAPI
import WhoopTestSupport

@testable import DietServer

@Suite("WHOOP connected through the account")
struct WhoopConnectTests {
    @Test("connect, WHOOP's consent, callback: tokens sealed, status connected, 14 days of records reach sync as the server's rows")
    func connectFlow() async throws {
        let fake = FakeWhoop(recoveryCount: 3, base: Date().addingTimeInterval(-3600))
        try await WhoopHarness.withServer(fake) { configuration, client in
            // Given a signed-in user who starts connecting
            let account = try await client.signup("anna@example.org")
            let start = try await client.send(.post, WhoopPaths.connect, token: account.accessToken).decoded(WhoopConnectStart.self)
            let items = try #require(URLComponents(string: start.authorizeURL)?.queryItems)
            #expect(items.first { $0.name == "client_id" }?.value == "client")
            #expect(items.first { $0.name == "redirect_uri" }?.value == "https://wdiet.example/v1/whoop/callback")
            #expect(items.first { $0.name == "scope" }?.value?.contains("offline") == true)
            let state = try #require(items.first { $0.name == "state" }?.value)
            #expect(start.expiresAt > Date().addingTimeInterval(9 * 60) && start.expiresAt <= Date().addingTimeInterval(10 * 60 + 1))
            #expect(
                try await WhoopHarness.count(configuration, "SELECT count(*) FROM whoop_states WHERE state_hash = sha256('\(state)'::bytea)") == 1
            )

            // A HEAD of the return address (a link preview, a prefetch) uses nothing up
            let head = try await client.execute(
                uri: WhoopPaths.callback + "?code=good-code&state=\(state)",
                method: .head,
                headers: [:],
                body: nil
            ) { $0 }
            #expect(head.status == .ok)

            // When WHOOP sends the browser back with the code
            let page = try await WhoopHarness.callback(client, query: "code=good-code&state=\(state)")

            // Then the page says so in plain words, and the account is connected with a fetch done
            #expect(page.status == .ok)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(String(buffer: page.body).contains("WHOOP is connected. You can close this tab"))
            let status = try await client.send(.get, WhoopPaths.connection, token: account.accessToken).decoded(WhoopStatus.self)
            #expect(status.connected && status.connectedAt != nil && status.lastFetchAt != nil)
            #expect(try await WhoopHarness.count(configuration, "SELECT whoop_user_id FROM whoop_connections") == 10129)
            // The four kinds of the last 14 days, stamped by the server, valid under the row contract
            let rows = try await WhoopHarness.pull(client, token: account.accessToken)
            #expect(rows.count == 12)
            #expect(Set(rows.compactMap { $0.row["kind"]?.stringValue }) == ["recovery", "sleep", "cycle", "workout"])
            #expect(rows.allSatisfy { $0.hlc.deviceID == "server" && !$0.deleted && RowContract.violation(in: $0, now: Date()) == nil })
            let recovery = try #require(rows.first { $0.id == WhoopRow.id(kind: "recovery", whoopID: "1000") })
            let json = try #require(recovery.row["record"]?.stringValue)
            #expect(try WhoopSyncedRecord.decodeRecovery(json).cycleID == 1000)
            // The tokens are stored sealed: neither token appears in the column's bytes
            let sealed = try await WhoopHarness.sealedTokens(configuration, userID: account.userID)
            #expect(!sealed.isEmpty)
            #expect(!sealed.contains(bytesOf: "access-1") && !sealed.contains(bytesOf: "refresh-1"))
            let opened = try TokenBox(key: configuration.tokenKey).open(Data(sealed), for: account.userID)
            #expect(opened.accessToken == "access-1" && opened.refreshToken == "refresh-1")
        }
    }

    @Test("a missing state gets a 400 page; a forged, expired or reused state, or refused consent, a 403 page naming it; nothing is stored")
    func badStates() async throws {
        let fake = FakeWhoop(recoveryCount: 2, base: Date().addingTimeInterval(-3600))
        try await WhoopHarness.withServer(fake) { configuration, client in
            let account = try await client.signup("anna@example.org")
            func refused(_ query: String, saying words: String, status: HTTPResponse.Status = .forbidden) async throws {
                let page = try await WhoopHarness.callback(client, query: query)
                #expect(page.status == status, "\(query)")
                #expect(String(buffer: page.body).contains(words), "\(query): \(String(buffer: page.body))")
                #expect(try await WhoopHarness.count(configuration, "SELECT count(*) FROM whoop_connections") == 0)
                #expect(try await WhoopHarness.pull(client, token: account.accessToken).isEmpty)
                #expect(await fake.issued == 0, "no code was exchanged")
            }
            // Given no state, a state the server never gave out, and refused consent
            try await refused("code=good-code", saying: "it has no state", status: .badRequest)
            try await refused("code=good-code&state=short", saying: "it has no state", status: .badRequest)
            try await refused("code=good-code&state=\(WhoopOAuth.makeState())", saying: "not made by w-diet")
            let denied = try await WhoopHarness.start(client, token: account.accessToken)
            try await refused("error=access_denied&error_description=The+user+denied&state=\(denied)", saying: "did not allow")
            let codeless = try await WhoopHarness.start(client, token: account.accessToken)
            try await refused("state=\(codeless)", saying: "no authorization code", status: .badRequest)
            // An attempt older than 10 minutes
            let old = try await WhoopHarness.start(client, token: account.accessToken)
            try await WhoopHarness.execute(
                configuration,
                "UPDATE whoop_states SET expires_at = now() - interval '1 second' WHERE state_hash = sha256('\(old)'::bytea)"
            )
            try await refused("code=good-code&state=\(old)", saying: "has expired")
            // The expired one cannot be retried either: it is used up
            try await refused("code=good-code&state=\(old)", saying: "already used")

            // A state used once works once
            let state = try await WhoopHarness.start(client, token: account.accessToken)
            #expect(try await WhoopHarness.callback(client, query: "code=good-code&state=\(state)").status == .ok)
            let again = try await WhoopHarness.callback(client, query: "code=good-code&state=\(state)")
            #expect(again.status == .forbidden)
            #expect(String(buffer: again.body).contains("already used"))
            #expect(await fake.issued == 1)
        }
    }

    @Test("a WHOOP member already connected to one account gets a 409 page on another, which stays unconnected")
    func memberTaken() async throws {
        let fake = FakeWhoop(recoveryCount: 1, base: Date().addingTimeInterval(-3600))
        try await WhoopHarness.withServer(fake) { configuration, client in
            // Given Anna connected with WHOOP member 10129
            _ = try await WhoopHarness.connect(client, email: "anna@example.org")
            // When Ben connects with the same WHOOP member
            let ben = try await client.signup("ben@example.org")
            let state = try await WhoopHarness.start(client, token: ben.accessToken)
            let page = try await WhoopHarness.callback(client, query: "code=good-code&state=\(state)")
            // Then he is told, and only Anna's connection exists
            #expect(page.status == .conflict)
            #expect(String(buffer: page.body).contains("already connected to another w-diet account"))
            #expect(try await WhoopHarness.count(configuration, "SELECT count(*) FROM whoop_connections") == 1)
            let status = try await client.send(.get, WhoopPaths.connection, token: ben.accessToken).decoded(WhoopStatus.self)
            #expect(!status.connected)
            #expect(try await WhoopHarness.pull(client, token: ben.accessToken).isEmpty)
        }
    }

    @Test("a server without a WHOOP registration answers 503 whoop_not_configured on every WHOOP path")
    func unconfigured() async throws {
        try await ServerHarness.withServer { _, client in
            let token = try await client.signup("anna@example.org").accessToken
            let answers = [
                try await client.send(.post, WhoopPaths.connect, token: token),
                try await client.send(.get, WhoopPaths.connection, token: token),
                try await client.send(.delete, WhoopPaths.connection, token: token),
                try await WhoopHarness.callback(client, query: "code=good-code&state=\(WhoopOAuth.makeState())"),
                try await WhoopHarness.webhook(client, type: "sleep.updated", id: UUID().uuidString),
            ]
            for answer in answers {
                #expect(answer.status == .serviceUnavailable)
                #expect(answer.errorBody?.error.code == "whoop_not_configured")
            }
            // Without a token the signed-in paths still say 401 first
            #expect(try await client.send(.post, WhoopPaths.connect).status == .unauthorized)
        }
    }

    @Test("disconnect revokes at WHOOP, forgets the tokens and leaves a tombstone for every WHOOP row")
    func disconnect() async throws {
        let fake = FakeWhoop(recoveryCount: 2, base: Date().addingTimeInterval(-3600))
        try await WhoopHarness.withServer(fake) { configuration, client in
            // Given a connected account with 8 WHOOP rows
            let account = try await WhoopHarness.connect(client)
            let before = try await WhoopHarness.pull(client, token: account.accessToken)
            #expect(before.count == 8)
            // When it disconnects
            #expect(try await client.send(.delete, WhoopPaths.connection, token: account.accessToken).status == .noContent)
            // Then WHOOP was told, no tokens remain, and every row is a newer tombstone without the record
            #expect(await fake.revoked)
            #expect(try await WhoopHarness.count(configuration, "SELECT count(*) FROM whoop_connections") == 0)
            let status = try await client.send(.get, WhoopPaths.connection, token: account.accessToken).decoded(WhoopStatus.self)
            #expect(!status.connected)
            let after = try await WhoopHarness.pull(client, token: account.accessToken)
            #expect(after.count == 8 && after.allSatisfy(\.deleted))
            #expect(after.allSatisfy { $0.row["record"]?.stringValue == "{}" })
            for row in after {
                let old = try #require(before.first { $0.id == row.id })
                #expect(row.hlc > old.hlc)
            }
        }
    }

    @Test("deleting the account leaves no WHOOP connection, state or record behind")
    func accountDeletion() async throws {
        let fake = FakeWhoop(recoveryCount: 2, base: Date().addingTimeInterval(-3600))
        try await WhoopHarness.withServer(fake) { configuration, client in
            let account = try await WhoopHarness.connect(client)
            _ = try await WhoopHarness.start(client, token: account.accessToken)
            #expect(try await WhoopHarness.count(configuration, "SELECT count(*) FROM whoop_states") == 2)
            #expect(try await client.send(.delete, AccountPaths.account, token: account.accessToken).status == .noContent)
            for table in ["whoop_connections", "whoop_states"] {
                #expect(try await WhoopHarness.count(configuration, "SELECT count(*) FROM \(table)") == 0, "\(table)")
            }
            #expect(try await WhoopHarness.count(configuration, "SELECT count(*) FROM sync_rows WHERE table_name = 'whoop_records'") == 0)
        }
    }
}
