import AsyncHTTPClient
import DietCore
import DietStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import DietWeb

/// `wdiet serve` beyond loopback: every page behind sign-in, the passphrase chosen once with
/// the setup code, wrong attempts locking, sessions that expire and end everywhere.
@Suite("Sign-in on the home network")
struct SignInTests {
    /// A server that answers the network (through a proxy on loopback, so tests need no other
    /// address), with bcrypt's lowest cost.
    static func harness(_ configure: (inout WebConfiguration) -> Void = { _ in }) throws -> WebHarness {
        try WebHarness { configuration in
            configuration.trustProxy = true
            configuration.signIn.cost = 4
            configure(&configuration)
        }
    }

    static let navigate: HTTPFields = [HTTPField.Name("Sec-Fetch-Mode")!: "navigate"]

    @Test("beyond loopback a page sends to sign-in, a script gets 401, the assets stay open; on loopback nothing changes")
    func everyPageAsks() async throws {
        let harness = try Self.harness()
        defer { harness.remove() }
        try await harness.run { browser in
            let page = try await browser.send(.get, "/meals", body: nil, contentType: nil, extraHeaders: Self.navigate)
            #expect(page.status == .seeOther)
            #expect(page.location == "/signin?next=%2Fmeals")
            // no passphrase yet: sign-in sends to the setup page
            #expect(try await browser.get("/signin").location == "/setup")
            #expect(try await browser.get("/").status == .unauthorized)
            #expect(try await browser.get("/events").status == .unauthorized)
            #expect(try await browser.post("/log/quick", [("kcal", "500")]).status == .unauthorized)
            #expect(try await browser.get("/assets/app.css").status == .ok)
            #expect(try await browser.get("/setup").status == .ok)
            // WHOOP's return carries no session cookie (it comes from WHOOP's site): an unknown
            // state gets the callback's own refusal, never the sign-in page
            let callback = try await browser.send(
                .get,
                "/briefing/whoop/callback?code=c&state=forged",
                body: nil,
                contentType: nil,
                extraHeaders: Self.navigate
            )
            #expect(
                callback.status != .unauthorized && callback.location?.hasPrefix("/signin") != true,
                "\(callback.status) \(callback.location ?? "")"
            )
        }
        let loopback = try WebHarness()
        defer { loopback.remove() }
        try await loopback.run { browser in
            let pages = [try await browser.get("/"), try await browser.get("/signin"), try await browser.get("/setup")]
            #expect(pages.map(\.location) == ["/onboarding", "/", "/"])
        }
        #expect(loopback.app.setupCode == nil)
    }

    @Test("the setup code chooses the passphrase once; a wrong code, a short or mismatched passphrase save nothing")
    func setupCodeWorksOnce() async throws {
        let harness = try Self.harness()
        defer { harness.remove() }
        let code = try #require(harness.app.setupCode)
        #expect(code.wholeMatch(of: /[0-9]{4}-[0-9]{4}/) != nil)
        try await harness.run { browser in
            try await browser.get("/setup")
            var page = try await browser.post("/setup", [("code", "0000-0000"), ("passphrase", "correct horse"), ("repeat", "correct horse")])
            #expect(page.status == .unauthorized)
            #expect(page.body.contains("That setup code is not right"))
            #expect(page.body.contains("After 4 more wrong attempts"))
            page = try await browser.post("/setup", [("code", code), ("passphrase", "short"), ("repeat", "short")])
            #expect(page.status == .unprocessableContent)
            #expect(page.body.contains("at least 8 characters; this one has 5"))
            page = try await browser.post("/setup", [("code", code), ("passphrase", "correct horse"), ("repeat", "correct hose")])
            #expect(page.status == .unprocessableContent)
            #expect(page.body.contains("The two passphrases differ"))
            #expect(try harness.store().webSignInState().passphraseHash == nil)
            // spaces and a missing dash are forgiven: what a person types from a terminal
            page = try await browser.post(
                "/setup",
                [
                    ("code", code.replacingOccurrences(of: "-", with: " ")), ("passphrase", "correct horse"),
                    ("repeat", "correct horse"),
                ]
            )
            #expect(page.status == .seeOther)
            #expect(page.location == "/")
            let cookie = try #require(page.headers[values: .setCookie].first { $0.hasPrefix("wdiet_session=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Max-Age=1209600"))
            #expect(!cookie.contains("Secure"), "plain HTTP: a Secure cookie would never come back")
            #expect(try await browser.get("/").location == "/onboarding")
        }
        #expect(harness.app.setupCode == nil)
        let hash = try #require(try harness.store().webSignInState().passphraseHash)
        #expect(hash.hasPrefix("$2b$04$") && !hash.contains("correct"))
        try await harness.run { other in
            // the code is spent: a second browser is sent to sign in, and the code does nothing
            #expect(try await other.get("/setup").location == "/signin")
            try await other.get("/signin")
            let page = try await other.post("/setup", [("code", code), ("passphrase", "another one"), ("repeat", "another one")])
            #expect(page.location == "/signin")
            #expect(try await other.post("/signin", [("passphrase", "correct horse")]).location == "/")
        }
    }

    @Test("five wrong passphrases lock sign-in from that address, even for the right one, until the lock ends")
    func fiveWrongLock() async throws {
        let harness = try Self.harness()
        defer { harness.remove() }
        try await Self.choose("correct horse", harness)
        try await harness.run { browser in
            try await browser.get("/signin")
            for left in ["4 more wrong attempts", "3 more wrong attempts", "2 more wrong attempts", "one more wrong attempt,"] {
                let page = try await browser.post("/signin", [("passphrase", "wrong")])
                #expect(page.status == .unauthorized)
                #expect(page.body.contains("After \(left)"), "\(left)")
            }
            var page = try await browser.post("/signin", [("passphrase", "wrong 5")])
            #expect(page.body.contains("sign-in is locked on it until 09:15"), "08:00 Berlin plus 15 minutes")
            page = try await browser.post("/signin", [("passphrase", "correct horse")])
            #expect(page.status == .tooManyRequests)
            #expect(page.headers[.retryAfter] == "900")
            #expect(browser.cookies["wdiet_session"] == nil)
            // the form says so as it opens, before another attempt is typed
            #expect(try await browser.get("/signin").body.contains("sign-in is locked on it until 09:15"))
            harness.clock.advance(by: 15 * 60 - 1)
            #expect(try await browser.post("/signin", [("passphrase", "correct horse")]).status == .tooManyRequests)
            harness.clock.advance(by: 2)
            page = try await browser.post("/signin", [("passphrase", "correct horse"), ("next", "/progress")])
            #expect(page.location == "/progress")
        }
        #expect(try harness.store().webSignInState().failures == 0)
    }

    @Test("a browser unused for the idle timeout signs in again; one in use stays signed in")
    func idleTimeout() async throws {
        let harness = try Self.harness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await Self.choose("correct horse", harness, browser: browser)
            harness.clock.advance(by: 13 * 24 * 3600)
            #expect(try await browser.get("/").location == "/onboarding", "13 days idle: still signed in")
            harness.clock.advance(by: 13 * 24 * 3600)
            #expect(try await browser.get("/").location == "/onboarding", "the idle time counts from the last use")
            harness.clock.advance(by: 14 * 24 * 3600 + 1)
            #expect(try await browser.get("/").status == .unauthorized)
            #expect(try harness.store().webSessionCount() == 0)
        }
    }

    @Test("sign out ends this browser's session; sign out everywhere ends every browser's")
    func signOutEverywhere() async throws {
        let harness = try Self.harness()
        defer { harness.remove() }
        try await harness.run { phone in
            try await Self.choose("correct horse", harness, browser: phone)
            try await phone.onboard()
            try await harness.run { laptop in
                try await laptop.get("/signin")
                #expect(try await laptop.post("/signin", [("passphrase", "correct horse")]).location == "/")
                try await harness.run { tablet in
                    try await tablet.get("/signin")
                    #expect(try await tablet.post("/signin", [("passphrase", "correct horse")]).location == "/")
                    let settings = try await tablet.get("/settings")
                    #expect(settings.body.contains("Devices signed in to this w-diet: 3."))
                    #expect(try await tablet.post("/signout").location == "/signin")
                    #expect(try await tablet.get("/").status == .unauthorized)
                    #expect(try await phone.get("/").status == .ok, "one browser signed out, the others stay")
                }
                #expect(try await laptop.post("/signout/everywhere").location == "/signin")
                #expect(try await laptop.get("/").status == .unauthorized)
                #expect(try await phone.get("/").status == .unauthorized)
                #expect(try harness.store().webSessionCount() == 0)
            }
        }
    }

    @Test("a forgotten passphrase: --reset-passphrase offers a new code, and the new passphrase signs every browser out")
    func resetPassphrase() async throws {
        let harness = try Self.harness()
        defer { harness.remove() }
        try await Self.choose("correct horse", harness)
        var configuration = harness.app.configuration
        #expect(try WebApp(configuration: configuration).setupCode == nil, "a passphrase is set: no code")
        configuration.resetPassphrase = true
        let reset = try WebApp(configuration: configuration)
        let code = try #require(reset.setupCode)
        try await Application(router: reset.router()).test(.router) { client in
            let browser = Browser(client: client)
            #expect(try await browser.get("/signin").location == "/setup")
            try await browser.get("/setup")
            let page = try await browser.post("/setup", [("code", code), ("passphrase", "battery staple"), ("repeat", "battery staple")])
            #expect(page.location == "/")
            #expect(try await browser.post("/signout").location == "/signin")
            #expect(try await browser.post("/signin", [("passphrase", "correct horse")]).status == .unauthorized)
            #expect(try await browser.post("/signin", [("passphrase", "battery staple")]).location == "/")
        }
        #expect(try harness.store().webSessionCount() == 1, "the browsers of the old passphrase are signed out")
    }

    @Test("one address trying too often is slowed down, whatever the lock")
    func attemptsPerAddress() async throws {
        let harness = try Self.harness { $0.signIn.failuresToLock = 100 }
        defer { harness.remove() }
        try await Self.choose("correct horse", harness)
        try await harness.run { browser in
            try await browser.get("/signin")
            // choosing the passphrase was this address's first attempt of the minute
            for _ in 0..<9 { #expect(try await browser.post("/signin", [("passphrase", "nope nope")]).status == .unauthorized) }
            let page = try await browser.post("/signin", [("passphrase", "correct horse")])
            #expect(page.status == .tooManyRequests)
            #expect(page.body.contains("Too many attempts from this device"))
        }
    }

    @Test("two browsers racing with the right setup code: one sets the passphrase, the other is sent to sign in")
    func setupRace() async throws {
        let harness = try Self.harness()
        defer { harness.remove() }
        let code = try #require(harness.app.setupCode)
        let locations = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<4 {
                group.addTask {
                    try await harness.run { browser in
                        try await browser.get("/setup")
                        let passphrase = "passphrase number \(index)"
                        return try await browser.post("/setup", [("code", code), ("passphrase", passphrase), ("repeat", passphrase)]).location
                    }
                }
            }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(locations.filter { $0 == "/" }.count == 1, "\(locations)")
        #expect(locations.filter { $0 == "/signin" }.count == 3, "\(locations)")
        #expect(try harness.store().webSessionCount() == 1)
    }

    @Test("a browser that has not signed in cannot send a large body: 1 MB at most, refused before it is read")
    func smallBodiesBeforeSignIn() async throws {
        let harness = try Self.harness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.get("/setup")
            let page = try await browser.post("/setup", [("code", String(repeating: "1", count: 2 << 20))])
            #expect(page.status == .contentTooLarge)
            #expect(page.body.contains("1 MB"))
        }
    }

    @Test("a passphrase with umlauts signs in however the keyboard composed them; one with a control character is refused without being shown")
    func passphraseText() async throws {
        let harness = try Self.harness()
        defer { harness.remove() }
        let code = try #require(harness.app.setupCode)
        try await harness.run { browser in
            try await browser.get("/setup")
            let control = try await browser.post("/setup", [("code", code), ("passphrase", "geheim\u{1B}[2Jwort"), ("repeat", "x")])
            #expect(control.status == .unprocessableContent)
            #expect(!control.body.contains("geheim"), "the passphrase is never echoed")
            // decomposed: a, then the combining diaeresis (as some keyboards send it)
            let decomposed = "Ka\u{308}sebrot mit Gu\u{308}rkchen"
            #expect(try await browser.post("/setup", [("code", code), ("passphrase", decomposed), ("repeat", decomposed)]).location == "/")
            #expect(try await browser.post("/signout").location == "/signin")
            try await browser.get("/signin")
            #expect(try await browser.post("/signin", [("passphrase", "Käsebrot mit Gürkchen")]).location == "/")
        }
    }

    @Test("every header name of the web app is the one it spells")
    func headerNames() {
        #expect(
            HTTPField.Name.webAppNames.map(\.rawName) == [
                "Sec-Fetch-Mode", "Sec-Fetch-Site", "X-CSRF-Token", "X-Forwarded-For", "X-Forwarded-Proto", "X-Frame-Options",
                "X-Accel-Buffering", "Referrer-Policy", "Cross-Origin-Opener-Policy", "Cross-Origin-Resource-Policy",
                "Permissions-Policy", "Server-Timing",
            ]
        )
    }

    @Test("behind the trusted proxy on loopback, HTTPS marks every cookie Secure; without --trust-proxy the same headers are ignored")
    func secureBehindProxy() async throws {
        for trusted in [true, false] {
            let harness = try WebHarness { $0.trustProxy = trusted }
            defer { harness.remove() }
            let application = Application(router: harness.app.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            try await application.test(.live) { client in
                let port = try #require(client.port)
                try await withHTTPClient { http in
                    var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/setup")
                    request.headers.add(name: "X-Forwarded-Proto", value: "https")
                    request.headers.add(name: "X-Forwarded-For", value: "203.0.113.9, 192.168.1.30")
                    let cookies = try await http.execute(request, timeout: .seconds(10)).headers["Set-Cookie"]
                    #expect(!cookies.isEmpty)
                    #expect(cookies.allSatisfy { $0.contains("; Secure") } == trusted, "trusted: \(trusted), \(cookies)")
                    request.headers.replaceOrAdd(name: "X-Forwarded-Proto", value: "http")
                    let plain = try await http.execute(request, timeout: .seconds(10)).headers["Set-Cookie"]
                    #expect(plain.allSatisfy { !$0.contains("Secure") })
                }
            }
        }
    }

    /// Chooses the passphrase with the setup code (in `browser`, or a browser of its own).
    static func choose(_ passphrase: String, _ harness: WebHarness, browser: Browser? = nil) async throws {
        let code = try #require(harness.app.setupCode)
        let fields = [("code", code), ("passphrase", passphrase), ("repeat", passphrase)]
        if let browser {
            try await browser.get("/setup")
            #expect(try await browser.post("/setup", fields).location == "/")
        } else {
            try await harness.run { browser in
                try await browser.get("/setup")
                #expect(try await browser.post("/setup", fields).location == "/")
            }
        }
    }
}
