import DietCore
import DietStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import DietWeb

/// Wrong setup codes and passphrases lock the address they come from, not the household: a
/// device on the network that keeps guessing cannot keep the others from setting up or signing
/// in (issue 32, finding 8). The server listens on loopback behind `--trust-proxy`, as with
/// the documented nginx, and each browser is another device by the address the proxy forwards.
@Suite("Sign-in locks per address")
struct SignInAddressTests {
    static let phone = "192.168.1.30"
    static let attacker = "192.168.1.66"

    @Test("five wrong setup codes lock their address only: the right code from another address sets the passphrase")
    func setupCodeLockPerAddress() async throws {
        let harness = try SignInTests.harness()
        defer { harness.remove() }
        let code = try #require(harness.app.setupCode)
        try await harness.runLive { client in
            let attacker = Browser(client: client, forwardedFor: Self.attacker)
            try await attacker.get("/setup")
            for attempt in 1...5 {
                let page = try await attacker.post(
                    "/setup",
                    [("code", "0000-000\(attempt)"), ("passphrase", "evil horse"), ("repeat", "evil horse")]
                )
                #expect(page.status == .unauthorized, "attempt \(attempt)")
            }
            // the locked address waits out its lock, even with the right code
            let locked = try await attacker.post("/setup", [("code", code), ("passphrase", "evil horse"), ("repeat", "evil horse")])
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.retryAfter] == "900")
            #expect(try await attacker.get("/setup").body.contains("locked on it until 09:15"))

            let phone = Browser(client: client, forwardedFor: Self.phone)
            let form = try await phone.get("/setup")
            #expect(form.status == .ok)
            #expect(!form.body.contains("locked"), "the phone's form opens without a lock")
            let page = try await phone.post("/setup", [("code", code), ("passphrase", "correct horse"), ("repeat", "correct horse")])
            #expect(page.status == .seeOther)
            #expect(page.location == "/")
            #expect(phone.cookies["wdiet_session"] != nil)
        }
        #expect(harness.app.setupCode == nil)
        #expect(try harness.store().webSignInState().passphraseHash != nil)
    }

    @Test("five wrong passphrases lock their address only: another address signs in, the locked one after the lock")
    func passphraseLockPerAddress() async throws {
        let harness = try SignInTests.harness()
        defer { harness.remove() }
        try await SignInTests.choose("correct horse", harness)
        try await harness.runLive { client in
            let attacker = Browser(client: client, forwardedFor: Self.attacker)
            try await attacker.get("/signin")
            for _ in 1...5 { #expect(try await attacker.post("/signin", [("passphrase", "wrong")]).status == .unauthorized) }
            let refused = try await attacker.post("/signin", [("passphrase", "correct horse")])
            #expect(refused.status == .tooManyRequests)
            #expect(attacker.cookies["wdiet_session"] == nil)

            let phone = Browser(client: client, forwardedFor: Self.phone)
            #expect(!(try await phone.get("/signin").body.contains("locked")))
            let page = try await phone.post("/signin", [("passphrase", "correct horse"), ("next", "/progress")])
            #expect(page.status == .seeOther)
            #expect(page.location == "/progress")
            #expect(phone.cookies["wdiet_session"] != nil)

            harness.clock.advance(by: 15 * 60 + 1)
            #expect(try await attacker.post("/signin", [("passphrase", "correct horse")]).location == "/")
        }
    }

    @Test("the same address reached through the proxy and directly is one address; the proxy's own entries before it are not believed")
    func addressAsTheAppSeesIt() async throws {
        let harness = try SignInTests.harness()
        defer { harness.remove() }
        try await SignInTests.choose("correct horse", harness)
        try await harness.runLive { client in
            // a client that writes its own X-Forwarded-For: the proxy appends the address it saw,
            // and only that last one counts, so changing the first does not escape the lock
            for index in 1...5 {
                let guesser = Browser(client: client, forwardedFor: "10.0.0.\(index), \(Self.attacker)")
                try await guesser.get("/signin")
                #expect(try await guesser.post("/signin", [("passphrase", "wrong")]).status == .unauthorized)
            }
            let again = Browser(client: client, forwardedFor: "10.9.9.9, \(Self.attacker)")
            try await again.get("/signin")
            #expect(try await again.post("/signin", [("passphrase", "correct horse")]).status == .tooManyRequests)
            let phone = Browser(client: client, forwardedFor: "10.9.9.9, \(Self.phone)")
            try await phone.get("/signin")
            #expect(try await phone.post("/signin", [("passphrase", "correct horse")]).location == "/")
        }
    }
}

extension WebHarness {
    /// The app listening on 127.0.0.1 at a free port: every request comes from a real loopback
    /// peer, so with `--trust-proxy` its `X-Forwarded-For` is believed (`Browser.forwardedFor`).
    @discardableResult
    func runLive<T: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        let application = Application(router: app.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await application.test(.live) { client in try await body(client) }
    }
}
