import DietCore
import Foundation
import Testing

@testable import DietCLI

/// The WHOOP set-up is told in the terminal where `wdiet serve` starts (issue 30): the
/// briefing page says only, in plain words, whether WHOOP can be connected.
@Suite("wdiet serve names WHOOP's redirect address in the terminal")
struct ServeWhoopSetupTests {
    static let registration = ["WDIET_WHOOP_CLIENT_ID": "client", "WDIET_WHOOP_CLIENT_SECRET": "secret"]
    static let url = "http://127.0.0.1:8080/"

    func said(_ environment: [String: String]) -> String? {
        ServeCommand.whoopSetup(environment: environment, databasePath: "/tmp/wdiet-serve-whoop.sqlite", url: Self.url, localizer: Localizer(.en))
    }

    @Test("nothing without the app registration; with it, the redirect address to register at WHOOP")
    func redirectAddress() {
        #expect(said([:]) == nil)
        #expect(said(["WDIET_WHOOP_CLIENT_ID": "client"]) == nil)
        let own = said(Self.registration)
        #expect(own?.contains("redirect URI must be http://127.0.0.1:8080/briefing/whoop/callback (") == true, "\(own ?? "nothing")")
        let configured = said(Self.registration.merging(["WDIET_WHOOP_REDIRECT_URI": "https://wdiet.home.arpa/briefing/whoop/callback"]) { $1 })
        #expect(configured?.contains("must be https://wdiet.home.arpa/briefing/whoop/callback (") == true, "\(configured ?? "nothing")")
    }

    @Test("a configured redirect address that does not lead to the web app is named, with the one that would")
    func redirectElsewhere() {
        let line = said(Self.registration.merging(["WDIET_WHOOP_REDIRECT_URI": "http://127.0.0.1:8765/whoop/callback"]) { $1 })
        let expected =
            "WHOOP cannot connect in the browser: WDIET_WHOOP_REDIRECT_URI is http://127.0.0.1:8765/whoop/callback, which does not lead "
            + "to this app. Register http://127.0.0.1:8080/briefing/whoop/callback as the redirect URI at WHOOP and set "
            + "WDIET_WHOOP_REDIRECT_URI to it (see docs/whoop.md)."
        #expect(line == expected)
    }
}
