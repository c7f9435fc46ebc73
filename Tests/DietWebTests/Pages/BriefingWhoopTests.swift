import AsyncHTTPClient
import DietCore
import DietStore
import DietWeb
import Foundation
import HTTPTypes
import ServerTestSupport
import Testing
import WhoopTestSupport

/// Connecting WHOOP from the briefing page: the OAuth authorization-code flow against a local
/// fake WHOOP, every way the redirect back can be wrong, WHOOP's own failures, and
/// disconnecting.
@Suite("The briefing connects WHOOP in the browser", .serialized)
struct BriefingWhoopTests {
    static let callback = "http://127.0.0.1:8080/briefing/whoop/callback"

    static func environment(_ base: String, redirect: String? = callback) -> [String: String] {
        var environment = [
            "WDIET_OFFLINE": "1", "WDIET_WHOOP_CLIENT_ID": "client", "WDIET_WHOOP_CLIENT_SECRET": "secret",
            "WDIET_WHOOP_API_URL": base + "/developer", "WDIET_WHOOP_OAUTH_URL": base + "/oauth/oauth2",
        ]
        environment["WDIET_WHOOP_REDIRECT_URI"] = redirect
        return environment
    }

    /// "Connect WHOOP" as the browser follows it: the app's redirect to WHOOP, then WHOOP's
    /// consent redirect back (the fake answers at once). Returns the callback's path and query.
    static func consent(_ browser: Browser) async throws -> String {
        let connect = try await browser.get("/briefing/whoop/connect")
        #expect(connect.status == .seeOther)
        let authorize = try #require(connect.location)
        // WHOOP's answer is a redirect to this server: read it, do not follow it
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        let location: String?
        do {
            let response = try await http.execute(HTTPClientRequest(url: authorize), timeout: .seconds(10))
            #expect(response.status.code == 302, "\(authorize)")
            location = response.headers.first(name: "Location")
            try await http.shutdown()
        } catch {
            try await http.shutdown()
            throw error
        }
        let back = try #require(location)
        #expect(back.hasPrefix(callback + "?"))
        return String(back.dropFirst("http://127.0.0.1:8080".count))
    }

    static func state(of path: String) -> String? {
        URLComponents(string: path)?.queryItems?.first { $0.name == "state" }?.value
    }

    @Test("connect: WHOOP's consent comes back to this server, the tokens are stored 0600, the recovery shows; the redirect cannot be used twice")
    func connect() async throws {
        let morning = WebHarness.now.addingTimeInterval(-2 * 3600)
        let fake = FakeWhoop(recoveryCount: 5, base: morning)
        try await FakeWhoop.serve(fake) { base in
            let harness = try WebHarness(environment: Self.environment(base))
            defer { harness.remove() }
            try await harness.run { browser in
                try await browser.onboard()
                // Given the briefing offers "Connect WHOOP"
                let before = try await browser.get("/briefing")
                #expect(before.body.contains("href=\"/briefing/whoop/connect\"") && before.shows("Connect WHOOP"))
                // When the browser goes through WHOOP's consent and back
                let back = try await Self.consent(browser)
                let landing = try await browser.get(back)
                // Then the landing page moves on to the briefing by itself
                #expect(landing.status == .ok && landing.body.contains("<html lang=\"en\">"))
                #expect(landing.body.contains("<meta http-equiv=\"refresh\" content=\"0;url=/briefing?whoop=connected\">"))
                #expect(await fake.exchangeRedirects == [Self.callback])
                let tokens = harness.databasePath + ".whoop.json"
                let permissions = try FileManager.default.attributesOfItem(atPath: tokens)[.posixPermissions] as? NSNumber
                #expect(permissions?.intValue == 0o600)
                let page = try await browser.get("/briefing?whoop=connected")
                #expect(page.shows("WHOOP connected: recovery and sleep of the last 30 days are here."))
                #expect(page.shows("Recovery 40 % (yellow)"))
                #expect(page.shows("Disconnect WHOOP") && !page.shows("Connect WHOOP"))
                #expect(page.missingStrings.isEmpty, "\(page.missingStrings)")
                #expect(!page.body.contains("access-1") && !landing.body.contains("access-1"))
                // And the same redirect again is refused, nothing new stored
                let again = try await browser.get(back)
                #expect(again.status == .badRequest)
                #expect(again.shows("This WHOOP answer was already used, or no connection was started here."))
                #expect(await fake.issued == 1)
            }
        }
    }

    @Test("a redirect without a state, with another state or after ten minutes gets a clear page and stores nothing")
    func badStates() async throws {
        let fake = FakeWhoop(recoveryCount: 2)
        try await FakeWhoop.serve(fake) { base in
            let harness = try WebHarness(environment: Self.environment(base))
            defer { harness.remove() }
            try await harness.run { browser in
                let back = try await Self.consent(browser)
                let state = try #require(Self.state(of: back))
                let missing = try await browser.get("/briefing/whoop/callback?code=good-code")
                #expect(missing.status == .badRequest && missing.shows("This WHOOP answer carries no connection code from w-diet."))
                let forged = try await browser.get("/briefing/whoop/callback?code=good-code&state=forged-state-0123456789")
                #expect(forged.status == .badRequest && forged.shows("This WHOOP answer does not belong to the connection started here."))
                #expect(await fake.issued == 0)
                // the forged answer did not end the real attempt; time did
                harness.clock.advance(by: 11 * 60)
                let late = try await browser.get("/briefing/whoop/callback?code=good-code&state=\(state)")
                #expect(late.status == .badRequest && late.shows("This WHOOP connection took longer than 10 minutes and has expired."))
                #expect(await fake.issued == 0)
                #expect(!FileManager.default.fileExists(atPath: harness.databasePath + ".whoop.json"))
                #expect(!late.shows("Recovery"))
            }
        }
    }

    @Test("a refused consent, a WHOOP error and no network each land on the briefing with what happened, nothing stored")
    func whoopFailures() async throws {
        let fake = FakeWhoop(recoveryCount: 2)
        try await FakeWhoop.serve(fake) { base in
            let harness = try WebHarness(environment: Self.environment(base))
            defer { harness.remove() }
            try await harness.run { browser in
                await fake.refuseConsent(true)
                let denied = try await browser.get(try await Self.consent(browser))
                #expect(denied.body.contains("url=/briefing?whoop=denied"))
                #expect(try await browser.get("/briefing?whoop=denied").shows("WHOOP access was not granted, so nothing was connected."))
                await fake.refuseConsent(false)
                await fake.fail("/oauth/oauth2/token", times: 1)
                let failed = try await browser.get(try await Self.consent(browser))
                #expect(failed.body.contains("url=/briefing?whoop=server"))
                let page = try await browser.get("/briefing?whoop=server")
                #expect(page.shows("WHOOP answered with an error. Nothing was changed; try again later."))
                #expect(page.shows("Connect WHOOP"))
                #expect(!FileManager.default.fileExists(atPath: harness.databasePath + ".whoop.json"))
            }
        }
        // WHOOP out of reach (nothing listens on port 9)
        let harness = try WebHarness(environment: Self.environment("http://127.0.0.1:9"))
        defer { harness.remove() }
        try await harness.run { browser in
            let connect = try await browser.get("/briefing/whoop/connect")
            let location = try #require(connect.location)
            let state = try #require(Self.state(of: location))
            let landing = try await browser.get("/briefing/whoop/callback?code=good-code&state=\(state)")
            #expect(landing.body.contains("url=/briefing?whoop=unreachable"))
            #expect(try await browser.get("/briefing?whoop=unreachable").shows("WHOOP cannot be reached right now (no network?)."))
            #expect(!FileManager.default.fileExists(atPath: harness.databasePath + ".whoop.json"))
        }
    }

    @Test("connected but the first fetch fails: the connection stays and the page says to fetch later; Fetch now then fetches")
    func fetchFails() async throws {
        let fake = FakeWhoop(recoveryCount: 3, base: WebHarness.now.addingTimeInterval(-3600))
        try await FakeWhoop.serve(fake) { base in
            let harness = try WebHarness(environment: Self.environment(base))
            defer { harness.remove() }
            try await harness.run { browser in
                // WHOOP rate-limits the recoveries for an hour
                await fake.throttle("/developer/v2/recovery", times: 1, retryAfter: "3600")
                let landing = try await browser.get(try await Self.consent(browser))
                #expect(landing.body.contains("url=/briefing?whoop=fetch"))
                let page = try await browser.get("/briefing?whoop=fetch")
                #expect(page.shows("WHOOP is connected, but fetching recovery and sleep failed: try “Fetch now” later."))
                #expect(page.shows("Fetch now") && !page.shows("Recovery 40 %"))
                // When "Fetch now" is tapped
                let fetched = try await browser.post("/briefing/whoop/sync")
                #expect(fetched.location == "/briefing?whoop=synced")
                let after = try await browser.get("/briefing?whoop=synced")
                #expect(after.shows("WHOOP: recovery and sleep fetched.") && after.shows("Recovery 40 % (yellow)"))
            }
        }
    }

    @Test("a HEAD of the callback does not use up the attempt")
    func headKeepsAttempt() async throws {
        let fake = FakeWhoop(recoveryCount: 1)
        try await FakeWhoop.serve(fake) { base in
            let harness = try WebHarness(environment: Self.environment(base))
            defer { harness.remove() }
            try await harness.run { browser in
                let back = try await Self.consent(browser)
                let head = try await browser.send(.head, back, body: nil, contentType: nil)
                #expect(head.status == .ok)
                #expect(await fake.issued == 0)
                let landing = try await browser.get(back)
                #expect(landing.body.contains("url=/briefing?whoop=connected"))
            }
        }
    }

    @Test("disconnect needs the form's token, revokes at WHOOP and removes the tokens and the data")
    func disconnect() async throws {
        let fake = FakeWhoop(recoveryCount: 3, base: WebHarness.now.addingTimeInterval(-3600))
        try await FakeWhoop.serve(fake) { base in
            let harness = try WebHarness(environment: Self.environment(base))
            defer { harness.remove() }
            try await harness.run { browser in
                _ = try await browser.get(try await Self.consent(browser))
                let tokens = harness.databasePath + ".whoop.json"
                #expect(FileManager.default.fileExists(atPath: tokens))
                let forged = try await browser.post("/briefing/whoop/disconnect", token: "0000")
                #expect(forged.status == .forbidden && FileManager.default.fileExists(atPath: tokens))
                #expect(await fake.revoked == false)
                let done = try await browser.post("/briefing/whoop/disconnect")
                #expect(done.status == .seeOther && done.location == "/briefing?whoop=disconnected")
                #expect(await fake.revoked)
                #expect(!FileManager.default.fileExists(atPath: tokens))
                #expect(try harness.store().whoopRecordCount() == 0)
                let page = try await browser.get("/briefing?whoop=disconnected")
                #expect(page.shows("WHOOP disconnected; its data was removed from this device."))
                #expect(page.shows("Connect WHOOP") && !page.shows("Recovery 4"))
            }
        }
    }

    @Test("without the app registration the page says in plain words what connecting needs, with no set-up detail and no connect button")
    func notConfigured() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            let page = try await browser.get("/briefing")
            #expect(page.shows("To connect WHOOP, this server needs a WHOOP developer account. Whoever set up the app finds the steps in its guide."))
            #expect(!page.shows("WDIET_WHOOP_CLIENT_ID") && !page.body.contains("/briefing/whoop/callback"))
            #expect(!page.body.contains("/briefing/whoop/connect"))
            #expect(try await browser.get("/briefing/whoop/connect").location == "/briefing")
        }
    }

    @Test("a configured redirect address that leads elsewhere is said in plain words (the terminal names it), and no connection starts")
    func redirectElsewhere() async throws {
        let harness = try WebHarness(environment: Self.environment("http://127.0.0.1:9", redirect: "http://127.0.0.1:8765/whoop/callback"))
        defer { harness.remove() }
        try await harness.run { browser in
            let page = try await browser.get("/briefing")
            #expect(page.shows("WHOOP is set up on this server for another address, so it cannot be connected from here."))
            let words = PlainWordsTests.developerWords(in: PlainWordsTests.visibleText(page.body))
            #expect(words.isEmpty, "the briefing shows \(words.joined(separator: ", "))")
            #expect(!page.body.contains("8765/whoop/callback") && !page.body.contains("/briefing/whoop/callback"))
            #expect(!page.body.contains("href=\"/briefing/whoop/connect\""))
            #expect(try await browser.get("/briefing/whoop/connect").location == "/briefing")
            #expect(!FileManager.default.fileExists(atPath: harness.databasePath + ".whoop-pending"))
        }
    }

    @Test("another site cannot start a connection")
    func crossSiteStart() async throws {
        let harness = try WebHarness(environment: Self.environment("http://127.0.0.1:9"))
        defer { harness.remove() }
        try await harness.run { browser in
            let page = try await browser.send(
                .get,
                "/briefing/whoop/connect",
                body: nil,
                contentType: nil,
                extraHeaders: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]
            )
            #expect(page.status == .forbidden)
            #expect(!FileManager.default.fileExists(atPath: harness.databasePath + ".whoop-pending"))
        }
    }
}
