import AsyncHTTPClient
import DietCore
import DietStore
import DietWeb
import Foundation
import HTTPTypes
import ServerTestSupport
import SyncProtocol
import Testing
import WhoopAPI
import WhoopTestSupport

/// "Connect WHOOP" on the briefing of a store signed in to an account: the real server (on
/// PostgreSQL) connects WHOOP (the fake one on loopback) and syncs its records to the device.
@Suite("The briefing connects WHOOP through the account", .serialized)
struct BriefingWhoopAccountTests {
    @Test(
        "signed in, Connect WHOOP goes to the server's authorize address, the page waits for WHOOP, the records arrive with a sync; disconnect removes them"
    )
    func connectThroughAccount() async throws {
        let morning = WebHarness.now.addingTimeInterval(-2 * 3600)
        let fake = FakeWhoop(recoveryCount: 5, base: morning)
        try await FakeWhoop.serve(fake) { base in
            try await ServerHarness.withLiveServer(configure: { configuration in
                configuration.bcryptCost = 4
                configuration.whoop = WhoopConfiguration(
                    clientID: "client",
                    clientSecret: "secret",
                    redirectURI: "https://wdiet.example/v1/whoop/callback",
                    apiBase: base + "/developer",
                    oauthBase: base + "/oauth/oauth2"
                )
            }) { _, server in
                let harness = try WebHarness()
                defer { harness.remove() }
                let l = Localizer(.en)
                try await harness.run { browser in
                    try await browser.onboard()
                    let signedUp = try await browser.post(
                        "/settings/account/signin",
                        [
                            ("server", server.absoluteString), ("email", "whoop-web@example.org"), ("password", "correct horse battery"),
                            ("new", "yes"),
                        ]
                    )
                    #expect(signedUp.status == .seeOther)
                    // Given the briefing offers "Connect WHOOP" without any WHOOP registration on this device
                    #expect(try await browser.get("/briefing").body.contains("href=\"/briefing/whoop/connect\""))
                    // When it is followed
                    let connect = try await browser.get("/briefing/whoop/connect")
                    #expect(connect.status == .seeOther)
                    let authorize = try #require(connect.location)
                    #expect(authorize.hasPrefix(base + "/oauth/oauth2/auth?"))
                    // Then the page waits for WHOOP
                    #expect(try await browser.get("/briefing").shows(l.text("web.briefing.whoop.waiting")))
                    // And once WHOOP's consent came back to the server, a sync brings the records
                    let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
                    let location: String?
                    do {
                        let response = try await http.execute(HTTPClientRequest(url: authorize), timeout: .seconds(10))
                        location = response.headers.first(name: "Location")
                        let query = try #require(location.flatMap { URLComponents(string: $0)?.percentEncodedQuery })
                        let callback = try await http.execute(
                            HTTPClientRequest(url: server.absoluteString + WhoopPaths.callback + "?" + query),
                            timeout: .seconds(30)
                        )
                        #expect(callback.status.code == 200)
                        try await http.shutdown()
                    } catch {
                        try await http.shutdown()
                        throw error
                    }
                    var page = try await browser.get("/briefing")
                    for _ in 0..<40 where !page.shows("Recovery 40 % (yellow)") {
                        #expect(try await browser.post("/briefing/whoop/sync").location == "/briefing?whoop=synced")
                        page = try await browser.get("/briefing")
                        if !page.shows("Recovery 40 % (yellow)") { try await Task.sleep(for: .milliseconds(250)) }
                    }
                    #expect(page.shows("Recovery 40 % (yellow)"))
                    #expect(!page.shows(l.text("web.briefing.whoop.waiting")) && page.shows("Disconnect WHOOP"))
                    #expect(!FileManager.default.fileExists(atPath: harness.databasePath + ".whoop.json"))
                    // And disconnecting goes through the account and takes the records away
                    #expect(try await browser.post("/briefing/whoop/disconnect").location == "/briefing?whoop=disconnected")
                    #expect(try harness.store().whoopRecordCount() == 0)
                }
            }
        }
    }

    @Test("signed in to a server without a WHOOP registration, Connect WHOOP says so")
    func serverWithoutWhoop() async throws {
        try await ServerHarness.withLiveServer(configure: { $0.bcryptCost = 4 }) { _, server in
            let harness = try WebHarness()
            defer { harness.remove() }
            try await harness.run { browser in
                try await browser.onboard()
                _ = try await browser.post(
                    "/settings/account/signin",
                    [
                        ("server", server.absoluteString), ("email", "whoop-none@example.org"), ("password", "correct horse battery"), ("new", "yes"),
                    ]
                )
                let connect = try await browser.get("/briefing/whoop/connect")
                #expect(connect.location == "/briefing?whoop=notConfigured")
                let page = try await browser.get("/briefing?whoop=notConfigured")
                #expect(page.shows(Localizer(.en).text("web.briefing.whoop.error.notConfigured")))
            }
        }
    }
}
