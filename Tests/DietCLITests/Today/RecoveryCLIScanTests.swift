import DietCore
import Foundation
import Testing

@testable import DietCLI

/// THE SCAN of the CLI (issue 17, docs/rules.md §8): with recovery mode on, no command that shows
/// data prints a digit string of a hidden quantity — in text or in `--json`.
@Suite("Recovery mode: the CLI scan")
struct RecoveryCLIScanTests {
    /// Seeded values no date or time of the scan can spell: 1234 kcal and 43 g of protein per
    /// meal, 87.6 kg. Meals from Sat 2026-01-10 to today, Fri 2026-02-20: a 42-day streak.
    static let today = "2026-02-20"
    static let first = LocalDate.ymd(2026, 1, 10)
    static let streakDays = 42

    /// Onboards with 87.6 kg, logs a meal a day and weights, and returns the harness with what
    /// recovery mode must hide: the seeds, today's targets and goals, the streak and the points.
    static func seeded() async throws -> (CLIHarness, [String]) {
        let cli = CLIHarness()
        _ = try await cli.run(
            [
                "onboard", "--sex", "female", "--age", "34", "--height", "168", "--weight", "87.6",
                "--activity", "light", "--goal", "lose",
            ],
            now: "2026-01-05T08:00"
        )
        for offset in 0..<streakDays {
            let date = first.adding(days: offset)
            _ = try await cli.run(
                ["log", "meal", "Lentil soup", "--kcal", "1234", "--protein", "43", "--carbs", "99", "--fat", "51"],
                now: "\(date.iso)T12:15"
            )
            if offset % 7 == 0 { _ = try await cli.run(["log", "weight", "87.6"], now: "\(date.iso)T07:10") }
        }
        var hidden = ["1234", "1,234", "1.234", "1 234", "43", "87.6", "87,6", "kcal", " kg", "\(streakDays)"]
        let dashboard = try await json(cli.run(["today", "--json"], now: "\(today)T08:00"))
        for key in ["targets", "next_targets"] {
            let targets = try #require(dashboard[key] as? [String: Any])
            for field in ["kcal", "protein_g", "carbs_g", "fat_g"] {
                let value = try #require(targets[field] as? Double)
                hidden += spellings(value)
            }
        }
        let streak = try #require((dashboard["streak"] as? [String: Any])?["count"] as? Int)
        #expect(streak == streakDays)
        let badges = try await json(cli.run(["badges", "--json"], now: "\(today)T08:00"))
        let points = try #require((badges["points"] as? [String: Any])?["total"] as? Int)
        #expect(points > 99)
        hidden += spellings(Double(points))
        return (cli, hidden)
    }

    /// A number as it may be printed: plain, rounded, with grouping in the three languages.
    static func spellings(_ value: Double) -> [String] {
        let whole = Int(value.rounded())
        var forms = ["\(whole)"]
        if whole >= 1000 {
            forms += ["\(whole / 1000),\(String(format: "%03d", whole % 1000))", "\(whole / 1000).\(String(format: "%03d", whole % 1000))"]
        }
        return forms.filter { $0.count >= 3 }
    }

    /// Whether `output` shows `word`: a number only as a whole number (not inside a longer one,
    /// such as a food's database id), after the meals' ids (hex, random) are taken out.
    static func shows(_ word: String, in output: String) throws -> Bool {
        let ids = try NSRegularExpression(pattern: "[0-9A-Fa-f]{8}(-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}|id [0-9a-f]{8}")
        let text = ids.stringByReplacingMatches(in: output, range: NSRange(output.startIndex..., in: output), withTemplate: "ID")
        guard word.first?.isNumber == true else { return text.contains(word) }
        let escaped = NSRegularExpression.escapedPattern(for: word)
        let number = try NSRegularExpression(pattern: "(?<![0-9])\(escaped)(?![0-9]|[.,][0-9])")
        return number.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Every command that shows data, with and without `--json` where it has one.
    static let commands: [[String]] = [
        ["log", "Pasta with friends", "--hunger", "hungry", "--fullness", "satisfied", "--feeling", "calm"],
        ["log", "meal", "Soup", "--kcal", "1234", "--protein", "43", "--hunger", "2", "--fullness", "4"],
        ["log", "weight", "87.6"], ["set", "recovery-mode", "on"],
        ["today"], ["today", "--json"], ["meals"], ["meals", "--json"], ["meals", "--date", "2026-02-19"],
        ["meals", "--date", "2026-02-19", "--json"], ["history"], ["history", "--json"], ["history", "--days", "60"],
        ["cycle"], ["cycle", "--json"], ["profile"], ["profile", "--json"], ["insights"], ["insights", "--json"],
        ["badges"], ["badges", "--json"], ["briefing"], ["briefing", "--json"], ["food", "search", "lentil"],
        ["food", "search", "lentil", "--json"], ["food", "recent"], ["food", "recent", "--json"], ["recipe", "list"],
    ]

    @Test("with recovery mode on, no command prints a hidden quantity, in text or --json")
    func scan() async throws {
        // Given the seeded weeks, and recovery mode turned on today
        let (cli, hidden) = try await Self.seeded()
        _ = try await cli.run(["set", "recovery-mode", "on"], now: "\(Self.today)T08:30")
        // When every command that shows data runs
        var outputs: [(command: String, output: String)] = []
        for arguments in Self.commands {
            let output: String
            do {
                output = try await cli.run(arguments, now: "\(Self.today)T19:00")
            } catch {
                output = "\(error)"  // a refusal is printed too: it must hide the numbers as well
            }
            outputs.append((arguments.joined(separator: " "), output))
        }
        // Then none holds a hidden number (the seeds, targets, goals, streak, points) or a unit of one
        for (command, output) in outputs {
            #expect(!output.isEmpty, "\(command) printed nothing")
            for word in hidden {
                #expect(try !Self.shows(word, in: output), "\(command) shows \(word):\n\(output)")
            }
        }
        // And the mindful meal and the regular meals' names are there
        let meals = outputs.first { $0.command == "meals" }?.output ?? ""
        #expect(meals.contains("Lentil soup") && meals.contains("Pasta with friends"))
    }

    @Test("the scan sees the numbers when recovery mode is off (it can fail)")
    func control() async throws {
        let (cli, hidden) = try await Self.seeded()
        let today = try await cli.run(["today"], now: "\(Self.today)T19:00")
        let meals = try await cli.run(["meals", "--json"], now: "\(Self.today)T19:00")
        #expect(try hidden.contains { try Self.shows($0, in: today) })
        #expect(try Self.shows("1234", in: meals) && Self.shows("43", in: meals) && Self.shows("\(Self.streakDays)", in: today))
    }
}
