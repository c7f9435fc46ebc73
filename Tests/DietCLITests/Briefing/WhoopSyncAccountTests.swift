import DietSync
import Foundation
import ServerTestSupport
import SyncProtocol
import Testing
import WhoopAPI
import WhoopTestSupport

@testable import DietCLI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// WHOOP through the account, end to end: the real server (PostgreSQL) registered with the
/// fake WHOOP on loopback, two devices signed in to one account.
@Suite("wdiet whoop through the account against the real server and a fake WHOOP", .serialized)
struct WhoopSyncAccountTests {
    static let password = "correct horse battery"

    /// A device's CLI signed in to `server`.
    static func device(_ server: URL, signUp: Bool) async throws -> CLIHarness {
        let harness = CLIHarness(environment: ["WDIET_PASSWORD": password])
        try await harness.onboardAlice()
        let command = signUp ? "signup" : "login"
        _ = try await harness.run(["account", command, "--server", server.absoluteString, "--email", "anna@example.org"], now: "2026-01-05T07:00")
        return harness
    }

    /// What a browser does with the authorize address: WHOOP's consent page sends it back to
    /// the server's callback with the code and state; that page is fetched from the server.
    static func consent(_ authorizeURL: String, server: URL) async throws -> (Int, String) {
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirect(), delegateQueue: nil)
        let (_, answer) = try await session.data(for: URLRequest(url: try #require(URL(string: authorizeURL))))
        let location = try #require((answer as? HTTPURLResponse)?.value(forHTTPHeaderField: "Location"))
        let query = try #require(URLComponents(string: location)?.percentEncodedQuery)
        #expect(location.contains(WhoopPaths.callback))
        let (body, page) = try await URLSession.shared.data(from: try #require(URL(string: WhoopPaths.callback + "?" + query, relativeTo: server)))
        return ((page as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: body, as: UTF8.self))
    }

    /// The authorize address the waiting `connect` wrote beside its database.
    static func waitingAddress(_ harness: CLIHarness) async throws -> String {
        for _ in 0..<200 {
            if let data = FileManager.default.contents(atPath: harness.database + ".whoop-account.json"),
                let mark = try? JSONDecoder.api.decode([String: JSONValue].self, from: data), let url = mark["authorizeURL"]?.stringValue
            {
                return url
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw HarnessError.unexpectedStatus(.notFound, "connect never started")
    }

    @Test("device 1 connects WHOOP through the account and waits; device 2, which never talked to WHOOP, syncs and briefs with the recovery")
    func twoDevices() async throws {
        let morning = ISO8601DateFormatter().date(from: "2026-01-05T05:30:00Z")!
        let fake = FakeWhoop(recoveryCount: 5, base: morning)
        try await FakeWhoop.serve(fake) { base in
            try await ServerHarness.withLiveServer(configure: { configuration in
                configuration.whoop = WhoopConfiguration(
                    clientID: "client",
                    clientSecret: "secret",
                    redirectURI: "https://wdiet.example/v1/whoop/callback",
                    apiBase: base + "/developer",
                    oauthBase: base + "/oauth/oauth2"
                )
            }) { _, server in
                // Given two devices of one account, neither holding WHOOP tokens
                let laptop = try await Self.device(server, signUp: true)
                let phone = try await Self.device(server, signUp: false)

                // When the laptop connects through the account and the browser allows access
                async let connecting = laptop.run(["whoop", "connect", "--wait", "60"], now: "2026-01-05T07:00")
                let address = try await Self.waitingAddress(laptop)
                #expect(address.hasPrefix(base + "/oauth/oauth2/auth?"))
                let (status, page) = try await Self.consent(address, server: server)
                #expect(status == 200 && page.contains("WHOOP is connected"))
                let connected = try await connecting
                #expect(connected.contains("WHOOP is connected to your account"))
                #expect(!FileManager.default.fileExists(atPath: laptop.database + ".whoop.json"))

                // Then the phone, which never talked to WHOOP, syncs the records and briefs with them
                var records = ""
                for _ in 0..<40 where !records.contains("Recovery 40 %") {
                    _ = try await phone.run(["sync"], now: "2026-01-05T07:00")
                    records = try await phone.run(["briefing"], now: "2026-01-05T07:00")
                    if !records.contains("Recovery 40 %") { try await Task.sleep(for: .milliseconds(250)) }
                }
                #expect(records.contains("Recovery 40 % (yellow) · Sleep 5.5 h of 8.1 h needed"))
                #expect(!records.contains("No WHOOP connected"))

                // And disconnecting on the phone reaches the laptop too
                let gone = try await phone.run(["whoop", "disconnect"], now: "2026-01-05T07:05")
                #expect(gone.contains("WHOOP is disconnected from your account"))
                _ = try await laptop.run(["sync"], now: "2026-01-05T07:06")
                let after = try await laptop.run(["briefing"], now: "2026-01-05T07:06")
                #expect(!after.contains("Recovery 40 %"))
            }
        }
    }

    @Test("a server without a WHOOP registration, a bad --wait, an ended session and a dead server each say what is wrong")
    func failures() async throws {
        let kept = Kept()
        try await ServerHarness.withLiveServer { _, server in
            let laptop = try await Self.device(server, signUp: true)
            kept.harness = laptop
            let unconfigured = await failure { try await laptop.run(["whoop", "connect", "--wait", "0"], now: "2026-01-05T07:00") } ?? ""
            #expect(unconfigured.contains("The server has no WHOOP registration"))
            let badWait = await failure { try await laptop.run(["whoop", "connect", "--wait", "9999"], now: "2026-01-05T07:00") } ?? ""
            #expect(badWait.contains("--wait must be a whole number of seconds from 0 to 3600"))
            let german = await failure { try await laptop.run(["whoop", "connect", "--wait", "0"], now: "2026-01-05T07:00", lang: "de") } ?? ""
            #expect(german.contains("Der Server hat keine WHOOP-Registrierung"))
            // A session the server no longer knows (its tokens revoked or expired)
            let file = AccountFile(databasePath: laptop.database)
            var account = try #require(try file.load())
            (account.accessToken, account.refreshToken) = ("expired", "expired")
            try file.save(account)
            let ended = await failure { try await laptop.run(["whoop", "disconnect"], now: "2026-01-05T07:00") } ?? ""
            #expect(ended.contains("The session has ended"))
        }
        // The server is gone now
        let laptop = try #require(kept.harness)
        let offline = await failure { try await laptop.run(["whoop", "connect", "--wait", "0"], now: "2026-01-05T07:00") } ?? ""
        #expect(offline.contains("cannot be reached"))
    }
}

/// A harness kept past the server's life.
final class Kept: @unchecked Sendable {
    var harness: CLIHarness?
}

/// Keeps a redirect as the answer, as a test of where it points needs.
final class NoRedirect: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
