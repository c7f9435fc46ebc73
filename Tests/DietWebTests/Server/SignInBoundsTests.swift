import DietCore
import DietStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import DietWeb

/// What bounds a guesser with many addresses once locks are per address: the addresses
/// remembered are capped (the least recently seen forgotten first), and wrong attempts from
/// several addresses slow every check, across a restart, without refusing the right one.
@Suite("Sign-in bounds across addresses")
struct SignInBoundsTests {
    @Test("a flood of addresses keeps at most the configured number in memory, forgetting the least recently seen")
    func addressesRemembered() async throws {
        let harness = try SignInTests.harness {
            $0.signIn.addressesRemembered = 40
            $0.signIn.failuresToSlow = 1_000
        }
        defer { harness.remove() }
        try await SignInTests.choose("correct horse", harness)
        try await harness.runLive { client in
            let first = Browser(client: client, forwardedFor: "192.168.1.2")
            try await first.get("/signin")
            for _ in 1...5 { try await first.post("/signin", [("passphrase", "wrong")]) }
            #expect(try await first.post("/signin", [("passphrase", "correct horse")]).status == .tooManyRequests)
            var peak = 0
            for index in 0..<200 {
                let guesser = Browser(client: client, forwardedFor: "10.1.\(index / 250).\(index % 250)")
                try await guesser.get("/signin")
                #expect(try await guesser.post("/signin", [("passphrase", "wrong")]).status == .unauthorized)
                peak = max(peak, await harness.app.signIn.rememberedAddresses)
                if index == 10 {
                    // an address seen recently is kept while the flood goes on
                    #expect(await harness.app.signIn.lockedUntil("192.168.1.2", now: harness.clock.now()) != nil)
                }
            }
            #expect(peak <= 40, "at most 40 addresses at any time, \(peak) seen")
            #expect(peak >= 36, "the cap is used, not a far smaller one: \(peak)")
            // the first address was seen least recently: it is forgotten (its lock too)
            #expect(await harness.app.signIn.lockedUntil("192.168.1.2", now: harness.clock.now()) == nil)
        }
    }

    @Test("wrong attempts from several addresses slow every check, across a restart; the right passphrase still signs in")
    func slowedNeverRefused() async throws {
        let harness = try SignInTests.harness {
            $0.signIn.failuresToSlow = 3
            $0.signIn.slowInterval = .milliseconds(400)
        }
        defer { harness.remove() }
        try await SignInTests.choose("correct horse", harness)
        try await harness.runLive { client in
            for index in 1...3 {
                let guesser = Browser(client: client, forwardedFor: "10.2.0.\(index)")
                try await guesser.get("/signin")
                #expect(try await guesser.post("/signin", [("passphrase", "wrong")]).status == .unauthorized)
            }
        }
        let slowedUntil = try #require(try harness.store().webSignInState().lockedUntil)
        #expect(slowedUntil == harness.clock.now().addingTimeInterval(15 * 60))
        // a restarted server is still slowed: the checks take their turns 400 ms apart
        let restarted = try WebApp(configuration: harness.app.configuration)
        let application = Application(router: restarted.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await application.test(.live) { client in
            let browsers = (4...6).map { Browser(client: client, forwardedFor: "10.2.0.\($0)") }
            for browser in browsers { try await browser.get("/signin") }
            let start = ContinuousClock.now
            for browser in browsers { #expect(try await browser.post("/signin", [("passphrase", "wrong")]).status == .unauthorized) }
            let elapsed = ContinuousClock.now - start
            #expect(elapsed >= .milliseconds(790), "three checks, two waits of 400 ms: \(elapsed)")
            // slowed, never refused: the right passphrase from another address signs in
            let phone = Browser(client: client, forwardedFor: "192.168.1.30")
            try await phone.get("/signin")
            #expect(try await phone.post("/signin", [("passphrase", "correct horse")]).location == "/")
        }
        #expect(try harness.store().webSignInState().lockedUntil == nil, "a right passphrase ends the slowdown")
    }
}
