import DietCore
import DietStore
import Foundation
import TestSupport
import Testing

@testable import DietCLI

@Suite("wdiet insights")
struct InsightsCommandTests {
    /// Alice onboarded on Monday 2026-01-05; meals of 1,234 kcal on the weekdays of two weeks
    /// (not on Wednesdays), weigh-ins of 87.6 kg on Monday 5 (in place of onboarding's), Wednesday 7 and
    /// Tuesday 13: Wednesday 14 is the one day without anything. Values chosen not to collide with dates.
    func seeded() async throws -> CLIHarness {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        for offset in 0..<11 where offset % 7 != 2 {
            let date = LocalDate.ymd(2026, 1, 5).adding(days: offset).iso
            _ = try await cli.run(["log", "meal", "Linsensuppe", "--kcal", "1234", "--date", date, "--at", "12:30"], now: "2026-01-15T20:00")
        }
        for date in ["2026-01-05", "2026-01-07", "2026-01-13"] {
            _ = try await cli.run(["log", "weight", "87.6", "--date", date], now: "2026-01-15T20:00")
        }
        return cli
    }

    @Test("before onboarding insights says to onboard first, like every command")
    func notOnboarded() async {
        #expect(await failure { try await CLIHarness().run(["insights"], now: "2026-01-05T08:00") } == "No profile yet. Run `wdiet onboard` first.")
    }

    @Test(
        "a bad --weeks is refused naming the option, the range and what was typed",
        arguments: [
            ("0", "0"), ("53", "53"), ("abc", "\"abc\""), ("2,5", "\"2,5\""), ("", "nothing"),
        ]
    )
    func badWeeks(typed: String, shown: String) async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let message = await failure { try await cli.run(["insights", "--weeks", typed], now: "2026-01-15T20:00") }
        #expect(message == "--weeks must be a whole number from 1 to 52; you entered \(shown).")
    }

    @Test("the text has a row per week, the phases, adherence with unlogged days apart, sparklines, weight, streaks and a sentence")
    func text() async throws {
        // Given two weeks of meals and weigh-ins
        let cli = try await seeded()
        // When
        let output = try await cli.run(["insights", "--weeks", "2"], now: "2026-01-15T20:00")
        // Then
        let lines = output.components(separatedBy: "\n")
        #expect(lines[0] == "Your last 2 weeks: Mon, Jan 5, 2026 – Thu, Jan 15, 2026")
        #expect(lines.contains { $0.hasPrefix("Week") && $0.contains("On target") })
        #expect(lines.contains { $0.hasPrefix("Jan 5 – Jan 11") && $0.contains("6/7") && $0.contains("1,234") })
        #expect(lines.contains { $0.hasPrefix("Jan 12 – Jan 15") && $0.contains("3/4") })
        #expect(!lines.contains { $0.hasPrefix(" ") && !$0.contains(":") })
        #expect(output.contains("  Habit week: Ø 1,234 kcal eaten"))
        #expect(
            output.contains("On target: 0 of 9 logged days within 90–110 % of the day's target; 2 days not logged (counted apart, never as misses).")
        )
        let spark = try #require(lines.first { $0.hasPrefix("Eaten") })
        #expect(spark.count == "Eaten   ".count + 11 && spark.contains { "▁▂▃▄▅▆▇█".contains($0) })
        #expect(spark.dropFirst("Eaten   ".count).filter { $0 == " " }.count == 2)
        #expect(output.contains("Weight: latest 87.6 kg · 7-entry average 87.6 kg · trend 87.6 kg"))
        #expect(output.contains("Streak: 1 day now · longest 9 days · runs in these weeks: Jan 5 – Jan 13 (9), Jan 15 – Jan 15 (1)"))
        #expect(output.contains("Maintenance: Your formula TDEE stands"))
    }

    @Test("a week across a phase switch has a row per phase under it, each with its own numbers")
    func splitWeek() async throws {
        // Given Alice onboarded on Wednesday with meals on Monday (before her start) and Thursday
        let cli = CLIHarness()
        try await cli.onboardAlice(now: "2026-01-07T08:00")
        for date in ["2026-01-05", "2026-01-08"] {
            _ = try await cli.run(["log", "meal", "Linsensuppe", "--kcal", "1234", "--date", date, "--at", "12:30"], now: "2026-01-09T20:00")
        }
        // When
        let lines = try await cli.run(["insights", "--weeks", "1"], now: "2026-01-09T20:00").components(separatedBy: "\n")
        // Then
        let week = try #require(lines.first { $0.hasPrefix("Jan 5 – Jan 9") })
        // the Tuesday before the start, with nothing logged, is no day of the programme (issue 30)
        #expect(week.contains("Before your start → Habit week") && week.contains("2/4"))
        let rows = lines.filter { $0.hasPrefix(" ") && !$0.contains(":") }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(rows.count == 2)
        #expect(rows.first?.hasPrefix("Before your start") == true && rows.first?.contains("1/1") == true)
        #expect(rows.last?.hasPrefix("Habit week") == true && rows.last?.contains("1/3") == true)
    }

    @Test("one week reads \"This week\"; with nothing logged the summary says so and how to begin")
    func emptyWeek() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let output = try await cli.run(["insights", "--weeks", "1"], now: "2026-01-07T20:00")
        #expect(output.hasPrefix("This week: Mon, Jan 5, 2026 – Wed, Jan 7, 2026"))
        #expect(output.contains("Nothing logged in these weeks yet; days without a log are counted apart, never as misses."))
        #expect(output.hasSuffix("Log your meals for a few days and your weeks take shape here."))
    }

    @Test("over 52 weeks the sparklines have one mark per week, so a year fits a terminal")
    func yearSparklines() async throws {
        let cli = try await seeded()
        let output = try await cli.run(["insights", "--weeks", "52"], now: "2026-01-15T20:00")
        let lines = output.components(separatedBy: "\n")
        let spark = try #require(lines.first { $0.hasPrefix("Target") })
        #expect(spark.count == "Target  ".count + 52)
        let weeks = lines.filter { $0.contains(" – ") && !$0.contains(":") }
        #expect(weeks.count == 52)
        // the weeks before the start count no day: none of them reads "0/7" (issue 30)
        #expect(weeks.filter { $0.contains("Before your start") }.count >= 50)
        #expect(!weeks.contains { $0.contains("0/7") })
    }

    @Test("--json has the documented snake_case keys and the same numbers")
    func json() async throws {
        let cli = try await seeded()
        let output = try await cli.run(["insights", "--weeks", "2", "--json"], now: "2026-01-15T20:00")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(object["recovery_mode"] as? Bool == false && object["weeks_requested"] as? Int == 2)
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["first"] as? String == "2026-01-05" && summary["last"] as? String == "2026-01-15")
        let weeks = try #require(summary["weeks"] as? [[String: Any]])
        #expect(weeks.count == 2)
        let total = try #require(summary["total"] as? [String: Any])
        #expect(total["logged_days"] as? Int == 9 && total["unlogged_days"] as? Int == 2 && total["adherent_days"] as? Int == 0)
        #expect((summary["days"] as? [[String: Any]])?.first?["intake_kcal"] as? Int == 1234)
        #expect(((summary["streak"] as? [String: Any])?["current"]) as? Int == 1)
        #expect((summary["maintenance"] as? [String: Any])?["source"] as? String == "formula")
        #expect((object["meaning"] as? String)?.isEmpty == false)
    }

    @Test("in German the summary speaks German with the decimal comma")
    func german() async throws {
        let cli = try await seeded()
        let output = try await cli.run(["insights", "--weeks", "2"], now: "2026-01-15T20:00", lang: "de")
        #expect(output.hasPrefix("Deine letzten 2 Wochen"))
        #expect(output.contains("87,6 kg"))
    }

    @Test("in recovery mode text and --json show only which days had something noted: no kcal, weight, target or streak count")
    func recoveryMode() async throws {
        // Given the seeded weeks and recovery mode turned on
        let cli = try await seeded()
        let store = try AppDatabase.open(path: cli.database, clock: FixedClock.at(.ymd(2026, 1, 15), 20, in: Zones.berlin))
        let summary = try store.insights(weeks: 2, through: .ymd(2026, 1, 15))
        try store.setRecoveryMode(true, timeZone: Zones.berlin)
        // When
        let text = try await cli.run(["insights", "--weeks", "2"], now: "2026-01-15T20:00")
        let json = try await cli.run(["insights", "--weeks", "2", "--json"], now: "2026-01-15T20:00")
        // Then neither names a hidden quantity
        var hidden = ["1234", "1,234", "1.234", "87.6", "87,6", "kcal", "kg", "target", "streak", "Streak", "adherent"]
        hidden += summary.days.map(\.targetKcal).flatMap { ["\($0)", Localizer(.en).number(Double($0), digits: 0)] }
        for output in [text, json] {
            for word in hidden { #expect(!output.contains(word), "\(word) in \(output)") }
        }
        #expect(text.hasPrefix("Recovery mode is on"))
        #expect(text.contains("Week of Mon, Jan 5, 2026:  Mon ✓  Tue ✓  Wed ✓  Thu ✓"))
        #expect(text.contains("Week of Mon, Jan 12, 2026:  Mon ✓  Tue ✓  Wed ·  Thu ✓"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["recovery_mode"] as? Bool == true)
        let days = try #require((object["weeks"] as? [[String: Any]])?.last?["days"] as? [[String: Any]])
        #expect(days.map { $0["logged"] as? Bool } == [true, true, false, true])
        #expect(days.first?["weekday"] as? String == "mon")
    }
}
