import AsyncHTTPClient
import DietCore
import DietStore
import DietWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@Suite("Security of a local server")
struct SecurityTests {
    @Test("a POST without the CSRF token, with a wrong one or from another origin is refused and saves nothing")
    func csrf() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let fields = [("name", "Cake"), ("kcal", "400")]
            #expect(try await browser.post("/log/manual", fields, token: "").status == .forbidden)
            #expect(try await browser.post("/log/manual", fields, token: String(repeating: "0", count: 64)).status == .forbidden)
            let crossSite = try await browser.post("/log/manual", fields, extraHeaders: [.origin: "http://evil.example"])
            #expect(crossSite.status == .forbidden)
            let fetchSite = try await browser.post("/log/manual", fields, extraHeaders: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"])
            #expect(fetchSite.status == .forbidden)
            #expect(crossSite.body.contains(Localizer(.en).text("web.error.csrf")))
            // the same form with the token and our origin goes through
            #expect(try await browser.post("/log/manual", fields, extraHeaders: [.origin: "http://localhost"]).status == .seeOther)
        }
        #expect(try harness.store().meals(on: LocalDate(WebHarness.now, in: harness.timeZone)).map(\.entry.name) == ["Cake"])
    }

    @Test("a browser without the token cookie cannot post, even with a token it made up")
    func noCookie() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            let page = try await browser.send(
                .post,
                "/onboarding",
                body: "_csrf=\(String(repeating: "a", count: 64))&step=welcome&action=next",
                contentType: "application/x-www-form-urlencoded"
            )
            #expect(page.status == .forbidden)
        }
    }

    @Test("every response has a strict CSP, no framing, no sniffing, no CORS; cookies are SameSite=Strict and HttpOnly")
    func headers() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let application = Application(router: harness.app.router())
        try await application.test(.router) { client in
            try await client.execute(uri: "/onboarding", method: .get) { response in
                let csp = try #require(response.headers[.contentSecurityPolicy])
                #expect(csp.contains("default-src 'none'") && csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"))
                #expect(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"))
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
                #expect(response.headers[.accessControlAllowOrigin] == nil)
                #expect(response.headers[HTTPField.Name("Server-Timing")!]?.hasPrefix("app;dur=") == true)
                let cookie = try #require(response.headers[values: .setCookie].first { $0.hasPrefix("wdiet_csrf=") })
                #expect(cookie.contains("SameSite=Strict") && cookie.contains("HttpOnly"))
            }
            try await client.execute(uri: "/onboarding", method: .options, headers: [.origin: "http://evil.example"]) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.accessControlAllowOrigin] == nil)
            }
            try await client.execute(uri: "/", method: .put) { response in
                #expect(response.status == .methodNotAllowed)
            }
        }
    }

    @Test("templates escape what the user typed: a meal named with markup stays text")
    func escaping() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try await browser.post("/log/manual", [("name", "<script>alert(1)</script>"), ("kcal", "100")])
            let page = try await browser.get("/meals")
            #expect(!page.body.contains("<script>alert(1)</script>"))
            #expect(page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        }
    }

    @Test("DNS rebinding: a request naming another Host is refused by the running server")
    func hostAllowList() async throws {
        let harness = try WebHarness()
        defer { try? FileManager.default.removeItem(at: harness.folder) }
        let application = Application(router: harness.app.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await application.test(.live) { client in
            let port = try #require(client.port)
            try await withHTTPClient { http in
                for (host, expected) in [
                    ("evil.example", 421), ("evil.example:\(port)", 421), ("127.0.0.1:\(port)", 200), ("localhost:\(port)", 200), ("LOCALHOST", 200),
                ] {
                    var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/")
                    request.headers.replaceOrAdd(name: "Host", value: host)
                    let response = try await http.execute(request, timeout: .seconds(10))
                    #expect(Int(response.status.code) == expected, "Host: \(host)")
                }
            }
        }
    }

    @Test("a body over the limit is refused with 413 and a message; nothing is saved")
    func tooLarge() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let huge = String(repeating: "x", count: 33 << 20)
            let page = try await browser.send(
                .post,
                "/log/manual",
                body: "_csrf=\(browser.csrf)&name=\(huge)&kcal=100",
                contentType: "application/x-www-form-urlencoded"
            )
            #expect(page.status == .contentTooLarge)
            #expect(page.shows(Localizer(.en).text("web.error.tooLarge", ["mb": .integer(32)])))
        }
        #expect(try harness.store().meals(on: LocalDate(WebHarness.now, in: harness.timeZone)).isEmpty)
    }
}
