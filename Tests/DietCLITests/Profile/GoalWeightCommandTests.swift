import DietCore
import Foundation
import Testing

@testable import DietCLI

/// Issue 30, finding 3 in the terminal: the goal weight from onboarding and `wdiet set`, its
/// expected date in `today` (text and JSON), and the weigh-in that reaches it.
@Suite("wdiet goal weight")
struct GoalWeightCommandTests {
    func onboard(_ cli: CLIHarness, goalWeight: String?) async throws {
        _ = try await cli.run(
            [
                "onboard", "--sex", "female", "--age", "34", "--height", "168", "--weight", "72.5", "--activity", "light", "--goal",
                "lose",
            ] + (goalWeight.map { ["--goal-weight", $0] } ?? []),
            now: "2026-01-05T08:00"
        )
    }

    @Test("onboard --goal-weight, then today shows the goal with the plan's date; --json carries it")
    func today() async throws {
        let cli = CLIHarness()
        try await onboard(cli, goalWeight: "68,5")
        let text = try await cli.run(["today"], now: "2026-01-05T09:00", lang: "de")
        #expect(text.contains("Ziel 68,5 kg · noch 4,0 kg · Voraussichtlich am "), "\(text)")
        #expect(text.contains("nach deinem Plan"))
        let json = try await cli.run(["today", "--json"], now: "2026-01-05T09:00")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let goal = try #require(object["goal"] as? [String: Any])
        #expect(goal["goal_kg"] as? Double == 68.5 && goal["trend_kg"] as? Double == 72.5 && goal["remaining_kg"] as? Double == 4)
        #expect(goal["basis"] as? String == "plan" && goal["outlook"] as? String == "expected")
        #expect((goal["expected_date"] as? String)?.hasPrefix("2026-") == true)
    }

    @Test("set --goal-weight on the wrong side is refused naming both weights; none removes it; maintain has none")
    func set() async throws {
        let cli = CLIHarness()
        try await onboard(cli, goalWeight: nil)
        let refused = await failure { try await cli.run(["set", "--goal-weight", "80"], now: "2026-01-05T09:00", lang: "de") }
        #expect(
            refused == "Zielgewicht: erlaubt ist ein Gewicht unter deinem jetzigen von 72,5 kg, denn dein Ziel ist Abnehmen; du hast 80 eingegeben."
        )
        _ = try await cli.run(["set", "--goal-weight", "70,2"], now: "2026-01-05T09:00")
        #expect(try await cli.run(["today"], now: "2026-01-05T09:00").contains("Goal 70.2 kg · 2.3 kg to go"))
        _ = try await cli.run(["set", "--goal-weight", "none"], now: "2026-01-05T09:00")
        #expect(!(try await cli.run(["today"], now: "2026-01-05T09:00").contains("Goal 70.2")))
        let maintain = await failure {
            try await CLIHarness().run(
                [
                    "onboard", "--sex", "female", "--age", "34", "--height", "168", "--weight", "72.5", "--activity", "light", "--goal",
                    "maintain", "--goal-weight", "70",
                ],
                now: "2026-01-05T08:00"
            )
        }
        #expect(maintain == "Goal weight must be set only with the goal lose or gain; you entered 70.")
    }

    @Test("the weigh-in whose trend reaches the goal roars three times and says how to maintain")
    func reached() async throws {
        let cli = CLIHarness()
        try await onboard(cli, goalWeight: "72")
        // trend 72.5 + 0.1 · (67 − 72.5) = 71.95, past 72.0
        let output = try await cli.run(["log", "weight", "67"], now: "2026-01-06T07:00")
        #expect(output.contains("🔥🔥🔥"), "\(output)")
        #expect(output.contains("wdiet set --goal maintain"))
        #expect(try await cli.run(["today"], now: "2026-01-06T08:00").contains("Goal 72.0 kg reached"))
        _ = try await cli.run(["set", "--goal", "maintain"], now: "2026-01-06T08:00")
        #expect(!(try await cli.run(["today"], now: "2026-01-06T08:00").contains("Goal 72.0")))
    }
}
