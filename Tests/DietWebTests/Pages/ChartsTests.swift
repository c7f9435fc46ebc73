import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

/// The progress page's charts (issue 16): ranges, a date axis in the user's language, the
/// MATADOR phases as bands, light pages for long spans, and the empty and single states.
@Suite("Progress charts")
struct ChartsTests {
    /// 2025-10-01, a Wednesday: the habit week is Oct 1–7, then diet Oct 8–21, maintenance
    /// Oct 22–Nov 4, … diet Dec 3–16, maintenance Dec 17–30, diet from Dec 31 (docs/rules.md §3).
    static let start = LocalDate(year: 2025, month: 10, day: 1)!

    /// A user who onboarded on `start` (97 days before the harness's 2026-01-05) with a
    /// weigh-in and a meal on every day since.
    static func longUser(_ harness: WebHarness, _ browser: Browser, language: Language = .en, from start: LocalDate = start) async throws {
        let now = harness.clock.now()
        harness.clock.set(start.instant(at: TimeOfDay(hour: 9)!, in: harness.timeZone))
        try await browser.onboard(language: language)
        harness.clock.set(now)
        let store = try harness.store()
        let today = LocalDate(now, in: harness.timeZone)
        for offset in 0...start.days(to: today) {
            let day = start.adding(days: offset)
            try store.logWeight(try WeightEntry(date: day, kg: Double(800 - offset) / 10), timeZone: harness.timeZone)
            try store.logMeal(
                try MealEntry(
                    name: "Day",
                    kcal: 1500 + offset % 5 * 100,
                    at: day.instant(at: TimeOfDay(hour: 13)!, in: harness.timeZone),
                    in: harness.timeZone
                )
            )
        }
    }

    @Test(
        "each range shows its span of days ending today, back at most to the start, and marks itself as current",
        arguments: [
            ("7d", 7, "2025-12-30"), ("30d", 30, "2025-12-07"), ("90d", 90, "2025-10-08"), ("1y", 97, "2025-10-01"), ("all", 97, "2025-10-01"),
        ]
    )
    func ranges(range: String, days: Int, first: String) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            // Given a user with 97 days of weights and meals
            try await Self.longUser(harness, browser)
            // When the range is chosen
            let page = try await browser.get("/progress?range=\(range)")
            // Then the page spans exactly those days, each day one point, and the link is current
            #expect(page.status == .ok)
            #expect(page.first(#"data-first="([0-9-]+)""#) == first)
            #expect(page.first(#"data-last="([0-9-]+)""#) == "2026-01-05")
            #expect(page.first(#"data-days="(\d+)""#) == String(days))
            #expect(page.all(#"<circle class="dot""#).count == days, "one weigh-in per day, each a dot")
            #expect(page.all(#"class="range-link"[^>]*aria-current"#).count == 1)
            #expect(page.body.contains(#"href="/progress?range=\#(range)" aria-current="page""#))
            #expect(page.missingStrings.isEmpty)
        }
    }

    @Test(
        "the date axis speaks the user's language with weekly ticks over 30 days",
        arguments: [
            (Language.de, ["8. Dez.", "15. Dez.", "22. Dez.", "29. Dez.", "5. Jan."]),
            (.en, ["Dec 8", "Dec 15", "Dec 22", "Dec 29", "Jan 5"]),
            (.es, ["8 dic", "15 dic", "22 dic", "29 dic", "5 ene"]),
        ]
    )
    func dateAxis(language: Language, labels: [String]) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await Self.longUser(harness, browser, language: language)
            // When the 30-day range is shown
            let page = try await browser.get("/progress?range=30d")
            // Then both charts label the Mondays of the range in the user's language
            let ticks = page.all(#"class="tick tick-date"[^>]*>([^<]+)<"#)
            #expect(ticks == labels + labels, "\(ticks)")
            // and a week and a quarter get their own spacing: every other day, and at most 6 labels
            let week = try await browser.get("/progress?range=7d").all(#"class="tick tick-date"[^>]*>([^<]+)<"#)
            #expect(week.count == 8, "7 days: 4 labels per chart, every second day: \(week)")
            let quarter = try await browser.get("/progress?range=90d").all(#"class="tick tick-date"[^>]*>([^<]+)<"#)
            #expect((4...12).contains(quarter.count), "\(quarter)")
        }
    }

    @Test("the phases are bands behind both charts, where the cycle puts them, with a legend")
    func phaseBands() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            // Given a user whose diet block ended on Dec 16 and whose next one began on Dec 31
            try await Self.longUser(harness, browser)
            // When the last 30 days are shown
            let page = try await browser.get("/progress?range=30d")
            // Then both charts carry the same three bands: diet, maintenance, diet
            let bands = page.all(#"data-phase="(\w+)" data-from="([0-9-]+)" data-to="([0-9-]+)""#, groups: 3)
            let expected = [
                ["diet", "2025-12-07", "2025-12-16"], ["maintenance", "2025-12-17", "2025-12-30"], ["diet", "2025-12-31", "2026-01-05"],
            ]
            #expect(bands == expected + expected, "\(bands)")
            let l = Localizer(.en)
            #expect(page.all(#"<span class="key band-diet" aria-hidden="true"></span>"#).count == 2)
            #expect(page.shows(l.render(Phase.maintenance.nameMessage)) && page.shows(l.render(Phase.diet.nameMessage)))
            // and the weight chart's table names each day's phase too, for those who cannot see the colours
            let weightSection = try #require(page.body.components(separatedBy: "intake-chart-title").first)
            #expect(weightSection.contains("<td>\(l.render(Phase.maintenance.nameMessage))</td>"))
            // and everything since the start begins with the habit week
            let all = try await browser.get("/progress?range=all").all(#"data-phase="(\w+)" data-from="([0-9-]+)" data-to="([0-9-]+)""#, groups: 3)
            #expect(all.first == ["habit", "2025-10-01", "2025-10-07"])
            #expect(all.count == 16, "8 bands per chart: habit, then 7 blocks: \(all)")
        }
    }

    @Test("a year of daily weigh-ins and meals stays a light page: weekly means, under 60 KB", arguments: ["1y", "all"])
    func yearIsLight(range: String) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            // Given 366 days of weigh-ins and meals
            try await Self.longUser(harness, browser, from: LocalDate(year: 2025, month: 1, day: 5)!)
            // When a year (or everything) is shown
            let page = try await browser.get("/progress?range=\(range)")
            // Then the points are weeks, not days, and the page is under 60,000 bytes uncompressed
            let dots = page.all(#"<circle class="dot""#).count
            #expect((52...54).contains(dots), "\(dots) points")
            #expect(page.shows(Localizer(.en).text("web.progress.weeklyNote")))
            #expect(page.body.utf8.count < 60_000, "\(page.body.utf8.count) bytes")
            #expect(page.first(#"data-readout="(Week of [^"]+)""#) != nil, "a week's readout names its week")
        }
    }

    @Test("an unknown or empty range falls back to 30 days without an error", arguments: ["bogus", "", "%3Cscript%3E", "7D"])
    func unknownRange(value: String) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await Self.longUser(harness, browser)
            let page = try await browser.get("/progress?range=\(value)")
            #expect(page.status == .ok)
            #expect(page.first(#"data-days="(\d+)""#) == "30")
            #expect(page.body.contains(#"href="/progress?range=30d" aria-current="page""#))
            #expect(!page.body.contains("<script>"))
        }
    }

    @Test("a new user's page reads well: one weigh-in, no meals yet, one day")
    func firstDay() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            // Given a user who onboarded today and logged a weight
            try await browser.onboard()
            try await browser.post("/weight", [("weight", "70,4")])
            // When the progress page opens
            let page = try await browser.get("/progress?range=all")
            // Then it spans one day, shows the one weigh-in and says nothing is logged yet
            let l = Localizer(.en)
            #expect(page.first(#"data-days="(\d+)""#) == "1")
            #expect(page.all(#"<circle class="dot""#).count == 1)
            #expect(page.shows(l.text("web.progress.weightSummary.one", ["count": .integer(1), "latest": .decimal(70.4, digits: 1)])))
            #expect(page.shows(l.text("web.progress.noIntake")))
            #expect(page.all(#"class="tick tick-date"[^>]*>([^<]+)<"#) == ["Jan 5", "Jan 5"])
            #expect(page.missingStrings.isEmpty)
        }
    }

    @Test("every point carries its date and value for the touch readout, and the charts a text summary")
    func readouts() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await Self.longUser(harness, browser, language: .de)
            let page = try await browser.get("/progress?range=7d")
            let readouts = page.all(#"data-readout="([^"]+)""#)
            #expect(readouts.count == 14, "7 weigh-ins and 7 days of intake")
            #expect(readouts.contains("Mo. 5. Jan.: 70,4 kg"), "\(readouts)")
            #expect(readouts.contains { $0.hasPrefix("Mo. 5. Jan.: 1.") && $0.hasSuffix(" kcal") }, "\(readouts)")
            #expect(page.body.contains(#"aria-describedby="weight-chart-summary""#) && page.body.contains("<table>"))
            #expect(page.body.contains(#"<p class="chart-readout" data-chart-readout aria-live="polite"></p>"#))
        }
    }
}

extension Browser.Page {
    /// Every first capture of `pattern` in the body.
    func all(_ pattern: String) -> [String] {
        all(pattern, groups: 1).map { $0.first ?? "" }
    }

    /// Every match of `pattern` in the body: its first `groups` captures (the whole match for 0).
    func all(_ pattern: String, groups: Int) -> [[String]] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: body, range: NSRange(body.startIndex..., in: body)).map { match in
            let count = min(groups, match.numberOfRanges - 1)
            let indices = count < 1 ? [0] : Array(1...count)
            return indices.compactMap { Range(match.range(at: $0), in: body).map { String(body[$0]) } }
        }
    }
}
