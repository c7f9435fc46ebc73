import DietCore
import DietStore
import Foundation
import TestSupport
import Testing

/// `wdiet badges` and the badge lines after `wdiet log` (issue 17, docs/rules.md §5).
@Suite("wdiet badges")
struct BadgesCommandTests {
    /// Onboards Alice on Mon 2026-01-05 and logs a meal at noon on each of `days` days from
    /// then; returns each day's output.
    static func logDays(_ cli: CLIHarness, _ days: ClosedRange<Int>) async throws -> [String] {
        try await cli.onboardAlice()
        var outputs: [String] = []
        for offset in days {
            let date = LocalDate.ymd(2026, 1, 5).adding(days: offset)
            outputs.append(try await cli.run(["log", "meal", "Soup", "--kcal", "300"], now: "\(date.iso)T12:00"))
        }
        return outputs
    }

    @Test("the seventh day in a row prints the triple roar and the new badge, once")
    func announced() async throws {
        let cli = CLIHarness()
        let outputs = try await Self.logDays(cli, 0...7)
        #expect(outputs[6].contains("🔥🔥🔥 Triple roar! What an achievement!"))
        #expect(outputs[6].contains("New badge: Bronze: 7-day streak"))
        for output in outputs.prefix(6) + outputs.suffix(1) {
            #expect(!output.contains("New badge") && !output.contains("🔥🔥🔥"))
        }
    }

    @Test("a weight that earns a badge prints the triple roar and the badge")
    func weight() async throws {
        let cli = CLIHarness()
        _ = try await Self.logDays(cli, 0...5)
        let output = try await cli.run(["log", "weight", "72.0"], now: "2026-01-11T08:00")
        #expect(output.contains("🔥🔥🔥 Triple roar!"))
        #expect(output.contains("New badge: Bronze: 7-day streak"))
    }

    @Test(
        "log again, copy-day and a meal in words that earn a badge print the triple roar and the badge too",
        arguments: [
            ["log", "again"], ["log", "copy-day", "--from", "2026-01-10"], ["log", "text", "2 eggs", "--yes"],
        ]
    )
    func otherLoggingPaths(command: [String]) async throws {
        // Given meals on six days in a row
        let cli = CLIHarness()
        _ = try await Self.logDays(cli, 0...5)
        // When the seventh day's first meal is logged another way
        var arguments = command
        if command == ["log", "again"] {
            let meals = try await cli.run(["meals", "--date", "2026-01-10", "--json"], now: "2026-01-11T12:00")
            let id = try #require(meals.split(separator: "\"").first { $0.count == 36 && $0.filter { $0 == "-" }.count == 4 })
            arguments.append(String(id))
        }
        let output = try await cli.run(arguments, now: "2026-01-11T12:00")
        // Then it roars three times and names the badge
        #expect(output.contains("🔥🔥🔥 Triple roar!"), "\(output)")
        #expect(output.contains("New badge: Bronze: 7-day streak"))
        #expect(!output.contains("1 meals"))
    }

    @Test("badges lists the earned badge with its date, the next ones with progress, the points and the decay rule")
    func text() async throws {
        let cli = CLIHarness()
        _ = try await Self.logDays(cli, 0...6)
        let output = try await cli.run(["badges"], now: "2026-01-11T20:00")
        #expect(output.contains("🏅 Bronze: 7-day streak · Streaks · Earned Sun, Jan 11, 2026"))
        #expect(output.contains("Silver: 30-day streak · 7 of 30 days"))
        #expect(output.contains("Bronze: 50 meals logged · 7 of 50 meals"))
        #expect(output.contains("Bronze: 1 cycle on target · 0 of 1 cycle"))
        // seven days of a meal (10) and the app used (2), and onboarding's weigh-in (5)
        #expect(output.contains("Points: 89"))
        #expect(output.contains("by 1 % on each day without a meal or weight, and by 5 % a day for the 7 days after a streak breaks"))
        #expect(output.contains("Meals logged +10, Checked in today +2"))
    }

    @Test("two days away decay the points, 5 % a day after the streak broke")
    func decay() async throws {
        let cli = CLIHarness()
        _ = try await Self.logDays(cli, 0...6)
        // 89 − 5 % = 84.55 on Jan 12; on Jan 13 this run opens the app (it records the switch
        // to the diet phase, an analytics event): + 2 = 86.55, − 5 % = 82.2225 → 82
        let output = try await cli.run(["badges", "--json"], now: "2026-01-13T20:00")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let points = try #require(json["points"] as? [String: Any])
        #expect(points["total"] as? Int == 82)
        let history = try #require(points["history"] as? [[String: Any]])
        #expect(history.count == 9)
        #expect(history.last?["decayed"] as? Double == 4.33)
        #expect(history.last?["earned"] as? [String: Double] == ["daily_login": 2])
        #expect(history[history.count - 2]["decayed"] as? Double == 4.45)
        // the weight typed in onboarding is the first weigh-in
        #expect(history.first?["earned"] as? [String: Double] == ["meal_logged": 10, "daily_login": 2, "weight_entry": 5])
        let earned = try #require(json["earned"] as? [[String: Any]])
        #expect(earned.first?["category"] as? String == "streak" && earned.first?["earned_on"] as? String == "2026-01-11")
        #expect(json["recovery_mode"] as? Bool == false)
    }

    @Test("in recovery mode badges rests: no points, counts or thresholds, in text and JSON")
    func recovery() async throws {
        let cli = CLIHarness()
        _ = try await Self.logDays(cli, 0...5)
        let store = try AppDatabase.open(path: cli.database, clock: FixedClock.at(.ymd(2026, 1, 11), 8, in: Zones.berlin))
        try store.setRecoveryMode(true, timeZone: Zones.berlin)
        // a mindful meal completes the seven days: recorded, not announced
        let logged = try await cli.run(["log", "meal", "Soup", "--hunger", "2", "--fullness", "4"], now: "2026-01-11T12:00")
        #expect(!logged.contains("New badge") && !logged.contains("🔥🔥🔥"))
        #expect(try store.rewards(timeZone: Zones.berlin).earned.map(\.badge) == [Badge(.streak, .bronze)])
        for arguments in [["badges"], ["badges", "--json"]] {
            let output = try await cli.run(arguments, now: "2026-01-11T20:00")
            #expect(output.contains("Badges and points rest while recovery mode is on."))
            #expect(output.rangeOfCharacter(from: .decimalDigits) == nil, "\(output)")
        }
    }
}
