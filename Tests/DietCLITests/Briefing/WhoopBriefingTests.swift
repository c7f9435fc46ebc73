import DietStore
import Foundation
import Testing

@testable import DietCLI

/// `wdiet briefing` says why each workout window was chosen (text and --json), and in
/// recovery mode its nutrition emphasis holds no amounts.
@Suite("wdiet briefing: why the windows, and recovery mode")
struct WhoopBriefingTests {
    @Test("each window gets a line saying which gap, the preparation, the preferred hours and the intensity's reason; --json too")
    func windowReasons() async throws {
        // Given Monday's calendar (workshop 09:00–10:30, sync 10:30–12:00) at 07:00
        let harness = CLIHarness()
        try await harness.onboardAlice()
        let file = harness.folder.appendingPathComponent("work.ics")
        try BriefingCommandsTests.workCalendar.write(to: file, atomically: true, encoding: .utf8)
        _ = try await harness.run(["calendar", "add", file.path], now: "2026-01-05T07:00")
        // When the briefing is shown
        let text = try await harness.run(["briefing"], now: "2026-01-05T07:00")
        // Then the windows line stays, with one reason line per window
        #expect(text.contains("Workout windows: 07:00–09:00 (moderate), 12:30–21:00 (moderate)"))
        #expect(
            text.contains(
                "\n  07:00–09:00: the free time before “Design workshop”, from now on, in your preferred hours 06:00–21:00; "
                    + "moderate, as there is no recovery score today"
            )
        )
        #expect(
            text.contains(
                "\n  12:30–21:00: the free time after “Roadmap sync”, the longest of the day, after your 30-minute preparation, "
                    + "in your preferred hours 06:00–21:00; moderate, as there is no recovery score today"
            )
        )
        let json = try await harness.run(["briefing", "--json"], now: "2026-01-05T07:00")
        #expect(json.contains("\"reason\" : \"the free time after “Roadmap sync”, the longest of the day, after your 30-minute preparation"))
        #expect(json.contains("\"gap\" : \"afterLast\""))
        let german = try await harness.run(["briefing"], now: "2026-01-05T07:00", lang: "de")
        #expect(german.contains("12:30–21:00: die freie Zeit nach „Roadmap sync“, die längste des Tages"))
    }

    @Test("recovery mode: the nutrition emphasis is words only, in the text and the JSON")
    func recoveryMode() async throws {
        let harness = CLIHarness()
        try await harness.onboardAlice()
        let counting = try await harness.run(["briefing", "--json"], now: "2026-01-05T07:00")
        #expect(counting.lowercased().contains("target"))
        // When recovery mode is on
        try AppDatabase.open(path: harness.database).setRecoveryMode(true, timeZone: TimeZone(identifier: "Europe/Berlin")!)
        let text = try await harness.run(["briefing"], now: "2026-01-05T07:00")
        let json = try await harness.run(["briefing", "--json"], now: "2026-01-05T07:00")
        // Then
        #expect(json.contains("\"nutrition\" : \"eatRegularly\""))
        for output in [text, json] {
            for hidden in ["deficit", "target", "protein", "calorie", "kcal", "macro"] {
                #expect(!output.lowercased().contains(hidden), "\(hidden) in \(output)")
            }
        }
    }
}
