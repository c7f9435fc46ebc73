import Foundation
import ServerTestSupport
import Testing
import WhoopTestSupport

@testable import DietCLI

@Suite("wdiet whoop against a local fake WHOOP", .serialized)
struct WhoopCommandsTests {
    @Test("connect prints the authorize address, completes with the pasted redirect, fetches 30 days; the briefing uses it")
    func connectSyncBriefing() async throws {
        let morning = ISO8601DateFormatter().date(from: "2026-01-05T05:30:00Z")!
        let fake = FakeWhoop(recoveryCount: 5, base: morning)
        try await FakeWhoop.serve(fake) { base in
            let harness = CLIHarness(environment: [
                "WDIET_WHOOP_CLIENT_ID": "client", "WDIET_WHOOP_CLIENT_SECRET": "secret",
                "WDIET_WHOOP_API_URL": base + "/developer", "WDIET_WHOOP_OAUTH_URL": base + "/oauth/oauth2",
            ])
            try await harness.onboardAlice()
            let first = try await harness.run(["whoop", "connect"], now: "2026-01-05T07:00")
            #expect(first.contains("/oauth/oauth2/auth?response_type=code&client_id=client"))
            #expect(first.contains("wdiet whoop connect --redirect"))
            let url = try #require(first.split(separator: "\n").first { $0.hasPrefix("http") })
            let state = try #require(URLComponents(string: String(url))?.queryItems?.first { $0.name == "state" }?.value)

            let wrong =
                await failure {
                    try await harness.run(
                        ["whoop", "connect", "--redirect", "http://127.0.0.1:8765/whoop/callback?code=good-code&state=forged"],
                        now: "2026-01-05T07:00"
                    )
                } ?? ""
            #expect(wrong.contains("state does not match"))
            let connected = try await harness.run(
                ["whoop", "connect", "--redirect", "http://127.0.0.1:8765/whoop/callback?code=good-code&state=\(state)"],
                now: "2026-01-05T07:00"
            )
            #expect(connected.contains("WHOOP connected."))
            #expect(connected.contains("WHOOP: 5 recoveries and 5 sleeps of the last 30 days."))
            #expect(!connected.contains("access-1") && !connected.contains("refresh-1"))
            let tokens = harness.database + ".whoop.json"
            let permissions = try FileManager.default.attributesOfItem(atPath: tokens)[.posixPermissions] as? NSNumber
            #expect(permissions?.intValue == 0o600)

            let briefing = try await harness.run(["briefing"], now: "2026-01-05T07:00")
            #expect(briefing.contains("Recovery 40 % (yellow) · Sleep 5.5 h of 8.1 h needed"))
            #expect(briefing.contains("You slept only 5.5 h"))
            #expect(briefing.contains("WHOOP last updated Mon, Jan 5, 2026, 07:00"))
            #expect(briefing.contains("No calendar added"))

            let disconnected = try await harness.run(["whoop", "disconnect"], now: "2026-01-05T07:05")
            #expect(disconnected.contains("WHOOP disconnected"))
            #expect(await fake.revoked)
            #expect(!FileManager.default.fileExists(atPath: tokens))
            let after = try await harness.run(["briefing"], now: "2026-01-05T07:10")
            #expect(after.contains("Nothing to brief yet") && after.contains("wdiet whoop connect") && !after.contains("No WHOOP connected"))
        }
    }

    @Test("without the app registration the commands say what to set")
    func notConfigured() async throws {
        let harness = CLIHarness()
        try await harness.onboardAlice()
        #expect(await failure { try await harness.run(["whoop", "sync"], now: "2026-01-05T07:00") }?.contains("WDIET_WHOOP_CLIENT_ID") == true)
    }
}
