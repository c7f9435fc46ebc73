import DietCore
import DietStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import DietWeb

/// Every redirect the web app builds from a request goes to one of its own pages (issue 32,
/// finding 3: `/signin?next=%2F%09%2Fevil.example%2F` answered `Location: /\t/evil.example/`,
/// which a browser reads as `//evil.example/`).
@Suite("Redirects stay on the app")
struct RedirectTests {
    /// Targets a browser could be sent elsewhere with, or that are not a path of ours.
    static let hostile: [String] = [
        "/\t/evil.example/", "/\n/evil.example/", "/\r/evil.example/", "/x\r\nLocation: //evil.example", "//evil.example/",
        "/\\evil.example/", "\\/evil.example/", "\\\\evil.example", "/%09/evil.example/", "/%0a/evil.example", "/%0D/evil.example",
        "/%2F/evil.example", "/%2f%2fevil.example", "/%5Cevil.example", "/%252F%252Fevil.example", "/%25252F%25252Fevil.example",
        "https://evil.example/", "HTTP://evil.example", "//evil.example:443/x", "javascript:alert(1)", "JaVaScRiPt:alert(1)",
        "data:text/html,<script>alert(1)</script>", "/ /evil.example", "/%20/evil.example", "\t/progress", " /progress", "/progress ",
        "/\0/evil.example", "/x%00", "/\u{2028}/evil.example", "/\u{2029}x", "/\u{85}x", "/\u{A0}/evil.example", "/\u{3000}x",
        "/\u{200B}/evil.example", "/\u{202E}x", "/\u{FEFF}x", "/%E2%80%A8/evil.example", "/%C2%A0x", "/x%FF", "/100%", "/%",
        "/" + String(repeating: "a", count: 10 * 1024), "", "evil.example", "progress", "?next=/x", "#/x",
    ]

    /// Paths of the app, with how they come back (non-ASCII percent-encoded).
    static let own: [(String, String)] = [
        ("/", "/"), ("/progress?range=30d", "/progress?range=30d"), ("/log/food/5062", "/log/food/5062"),
        ("/meals?date=2026-01-05#today", "/meals?date=2026-01-05#today"), ("/foods?q=K%C3%A4se", "/foods?q=K%C3%A4se"),
        ("/foods?q=Käse", "/foods?q=K%C3%A4se"), ("/log/food/9b2f0c8e-1d6a-4c56-8a52-0f3f4a7f9d21", "/log/food/9b2f0c8e-1d6a-4c56-8a52-0f3f4a7f9d21"),
    ]

    @Test("one function decides: hostile targets fall back to /, the app's own paths pass")
    func ownPathTable() {
        for target in Self.hostile {
            #expect(OwnPath.safe(target) == "/", "\(target.debugDescription.prefix(80))")
        }
        #expect(OwnPath.safe(nil) == "/")
        for (target, expected) in Self.own {
            #expect(OwnPath.safe(target) == expected, "\(target)")
        }
    }

    @Test("the last check of every response: a Location is an own path or an absolute http(s) address, else /")
    func locationCheck() {
        for target in Self.hostile where !target.lowercased().hasPrefix("http") {
            #expect(!SecurityHeadersMiddleware.isSafeLocation(target), "\(target.debugDescription.prefix(80))")
        }
        for target in ["https://api.prod.whoop.com/oauth/oauth2/auth?client_id=x&state=y", "/briefing?whoop=synced"] {
            #expect(SecurityHeadersMiddleware.isSafeLocation(target), "\(target)")
        }
        for target in ["https:///evil.example", "https://\tevil.example", "http://evil.example/\n", "https:\\\\evil.example"] {
            #expect(!SecurityHeadersMiddleware.isSafeLocation(target), "\(target.debugDescription)")
        }
    }

    @Test("through the real web app, signing in with any next lands on an own path: hostile ones on /")
    func signInNext() async throws {
        // a sign-in per target: more than one address may make in a minute otherwise
        let harness = try SignInTests.harness { $0.signIn.attemptsPerMinute = 1_000 }
        defer { harness.remove() }
        try await SignInTests.choose("correct horse", harness)
        try await harness.run { browser in
            // signed out, the form carries only a safe next
            for target in Self.hostile {
                let page = try await browser.get("/signin?next=" + Browser.encode(target))
                #expect(page.status == .ok)
                #expect(page.first(#"name="next" value="([^"]*)""#) == "/", "\(target.debugDescription.prefix(80))")
            }
            // signing in with a hostile next: to / (or refused before anything is read)
            for target in Self.hostile.prefix(12) {
                let page = try await browser.post("/signin", [("passphrase", "correct horse"), ("next", target)])
                if page.status == .seeOther {
                    #expect(page.location == "/", "\(target.debugDescription.prefix(80))")
                    #expect(try await browser.post("/signout").location == "/signin")
                } else {
                    #expect(page.status == .unprocessableContent, "a control character: the form is refused, \(page.status)")
                    #expect(page.location == nil)
                }
            }
            try await browser.get("/signin")
            #expect(
                try await browser.post("/signin", [("passphrase", "correct horse"), ("next", "/progress?range=30d")]).location
                    == "/progress?range=30d"
            )
            // signed in, /signin forwards to next at once: the issue's exploit, and every other
            for target in Self.hostile {
                let page = try await browser.get("/signin?next=" + Browser.encode(target))
                #expect(page.status == .seeOther)
                #expect(page.location == "/", "\(target.debugDescription.prefix(80)) → \(page.location?.debugDescription ?? "nil")")
            }
            #expect(try await browser.get("/signin?next=%2F%09%2Fevil.example%2F").location == "/")
            for (target, expected) in Self.own {
                #expect(try await browser.get("/signin?next=" + Browser.encode(target)).location == expected, "\(target)")
            }
        }
    }

    @Test("a page asked for without a session comes back after sign-in only when its path is the app's own")
    func returnAfterSignIn() async throws {
        let harness = try SignInTests.harness()
        defer { harness.remove() }
        try await SignInTests.choose("correct horse", harness)
        try await harness.run { browser in
            let navigate = SignInTests.navigate
            #expect(try await browser.send(.get, "/meals", body: nil, contentType: nil, extraHeaders: navigate).location == "/signin?next=%2Fmeals")
            for path in ["/%09/evil.example/", "/%2F/evil.example", "/%5Cevil.example", "/%E2%80%A8x"] {
                let page = try await browser.send(.get, path, body: nil, contentType: nil, extraHeaders: navigate)
                #expect(page.status == .seeOther)
                #expect(page.location == "/signin", "\(path) → \(page.location ?? "nil")")
            }
        }
    }
}
