import DietCore
import DietStore
import Foundation
import TestSupport
import Testing

@testable import DietWeb

@Suite("insights page")
struct InsightsRouteTests {
    /// Meals of 1,234 kcal on Saturday and Sunday before the start and on Monday (today), a weigh-in of
    /// 87.6 kg on Sunday: values that cannot collide with dates.
    func seed(_ harness: WebHarness) throws {
        let store = try harness.store()
        for date in [LocalDate.ymd(2026, 1, 3), .ymd(2026, 1, 4), .ymd(2026, 1, 5)] {
            try store.logMeal(
                MealEntry(
                    name: "Linsensuppe",
                    kcal: 1234,
                    proteinG: 43,
                    carbsG: nil,
                    fatG: nil,
                    at: date.instant(at: .hm(8), in: harness.timeZone),
                    in: harness.timeZone
                )
            )
        }
        for date in [LocalDate.ymd(2026, 1, 4), .ymd(2026, 1, 5)] {
            _ = try store.logWeight(WeightEntry(date: date, kg: 87.6), timeZone: harness.timeZone)
        }
    }

    @Test("before onboarding /insights leads to onboarding")
    func notOnboarded() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            let page = try await browser.get("/insights")
            #expect(page.status == .seeOther && page.location == "/onboarding")
        }
    }

    @Test("the page: the Progress tab's weekly section, the sentence, both charts with their tables, a card per week")
    func page() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            // Given Alice onboarded with meals and a weigh-in
            try await browser.onboard()
            try seed(harness)
            // When
            let page = try await browser.get("/insights")
            // Then
            #expect(page.status == .ok)
            #expect(page.missingStrings.isEmpty, "\(page.missingStrings)")
            #expect(page.body.contains("<h1 class=\"page-title\">Weekly insights</h1>\n<nav class=\"section-nav\""))
            #expect(page.body.contains("href=\"/insights\" aria-current=\"page\""))
            #expect(page.body.components(separatedBy: "class=\"card insights-week\"").count - 1 == 4)
            #expect(page.body.contains("role=\"img\" aria-labelledby=\"insights-intake-title insights-intake-summary\""))
            #expect(page.body.contains("role=\"img\" aria-labelledby=\"insights-weight-title insights-weight-summary\""))
            #expect(page.body.components(separatedBy: "<details class=\"data-table\">").count - 1 == 2)
            #expect(page.body.contains("class=\"line-target\"") && page.body.contains("class=\"line-trend\""))
            // the days before the start with nothing logged are no days of the programme (issue 30)
            #expect(page.shows("3 of 3 days logged; 0 of them within 90–110 % of the day's target; 0 not logged."))
            #expect(page.shows("Before your start: this week does not count."))
            #expect(page.body.contains("<td>1,234</td>"))
            // Monday starts a week and the habit week alike: no week is split
            #expect(!page.body.contains("insights-week-split"))
            #expect(page.shows("Latest 87.6 kg, 7-entry average 87.6 kg, trend 87.6 kg."))
            #expect(page.body.contains("aria-current=\"page\">4 weeks</a>"))
            #expect(page.body.contains("<p class=\"insights-sentence\">Each day near the day&#39;s target (90–110 %) moves your trend"))
        }
    }

    @Test("a week across the start shows the days before it and the habit week apart, each with its own numbers")
    func splitWeek() async throws {
        // Given Alice onboarding on Wednesday 2026-01-07 with a meal on Monday (and the two days before)
        let harness = try WebHarness(now: Date(timeIntervalSince1970: 1_767_772_800))  // 2026-01-07 08:00 UTC
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try seed(harness)
            // When
            let page = try await browser.get("/insights?weeks=1")
            // Then
            #expect(page.body.components(separatedBy: "class=\"insights-phases insights-week-split\"").count - 1 == 1)
            #expect(page.body.contains("<strong>Before your start</strong>: 1,234 of "))
            #expect(page.body.contains("<strong>Habit week</strong>: nothing logged yet · target "))
        }
    }

    @Test("?weeks= picks the span: 8 shows eight week cards, a value outside 1–52 the standard four")
    func weeks() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let cards = { (page: Browser.Page) in page.body.components(separatedBy: "class=\"card insights-week\"").count - 1 }
            #expect(cards(try await browser.get("/insights?weeks=8")) == 8)
            #expect(cards(try await browser.get("/insights?weeks=1")) == 1)
            #expect(cards(try await browser.get("/insights?weeks=53")) == 4)
            #expect(cards(try await browser.get("/insights?weeks=abc")) == 4)
            // nothing logged yet: the chart says how the bars come, no "0 of 22"
            let empty = try await browser.get("/insights")
            #expect(empty.shows("Nothing logged in this time range yet: the bars appear as you log meals."))
            #expect(empty.shows("Log your meals for a few days and your weeks take shape here."))
        }
    }

    @Test("in German the page speaks German")
    func german() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            try seed(harness)
            let page = try await browser.get("/insights")
            #expect(page.shows("Wochenbericht") && page.body.contains("87,6"))
            #expect(page.missingStrings.isEmpty)
        }
    }

    @Test("in recovery mode the page shows which days had something noted and a calm line, and no hidden number")
    func recoveryMode() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            // Given the seeded days and recovery mode on
            try await browser.onboard()
            try seed(harness)
            let store = try harness.store()
            let summary = try store.insights(weeks: 4, through: .ymd(2026, 1, 5))
            try store.setRecoveryMode(true, timeZone: harness.timeZone)
            // When
            let page = try await browser.get("/insights")
            // Then
            #expect(page.status == .ok && page.missingStrings.isEmpty)
            var hidden = ["1234", "1,234", "1.234", "87.6", "87,6", "43 g", "kcal", " kg", "<svg class=\"chart\""]
            hidden += summary.days.map(\.targetKcal).flatMap { ["\($0)", Localizer(.en).number(Double($0), digits: 0)] }
            for word in hidden { #expect(!page.body.contains(word), "\(word)") }
            #expect(page.shows("Recovery mode is on: here you see only the days you noted something."))
            #expect(page.body.components(separatedBy: "insights-tick is-noted").count - 1 == 3)
            #expect(page.body.contains("<span class=\"insights-tick-day\">Sat</span>"))
        }
    }
}
