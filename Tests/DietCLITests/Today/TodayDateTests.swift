import DietCore
import Foundation
import Testing

/// docs/rules.md §4: every day is reachable, in the CLI too (issue 30: `today` showed today only).
@Suite("wdiet today --date")
struct TodayDateTests {
    @Test("a past day's dashboard: its meals and totals, its date, no coach and no prompt for today")
    func pastDay() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice(now: "2026-01-05T08:00")
        _ = try await cli.run(["log", "meal", "Linsensuppe", "--kcal", "640", "--date", "2026-01-06", "--at", "19:00"], now: "2026-01-07T09:00")
        let past = try await cli.run(["today", "--date", "2026-01-06"], now: "2026-01-07T09:00", lang: "de")
        #expect(past.hasPrefix(Localizer(.de).date(.ymd(2026, 1, 6))))
        #expect(past.contains("640"))
        let json = try await cli.run(["today", "--date", "2026-01-06", "--json"], now: "2026-01-07T09:00")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["date"] as? String == "2026-01-06")
        #expect((object["totals"] as? [String: Any])?["kcal"] as? Int == 640)
        // today is untouched
        let today = try await cli.run(["today", "--json"], now: "2026-01-07T09:00")
        let todayObject = try #require(try JSONSerialization.jsonObject(with: Data(today.utf8)) as? [String: Any])
        #expect((todayObject["totals"] as? [String: Any])?["kcal"] as? Int == 0)
    }

    @Test("a day ahead is refused in the user's language, naming it")
    func future() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice(now: "2026-01-05T08:00")
        await #expect {
            _ = try await cli.run(["today", "--date", "2026-01-09"], now: "2026-01-07T09:00", lang: "de")
        } throws: { error in
            "\(error)".contains("9. Jan. 2026") && "\(error)".contains("Zukunft")
        }
    }
}
