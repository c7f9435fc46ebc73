import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

@Suite("Today's meals on the dashboard and in the list")
struct TodayMealsTests {
    @Test("a meal without all three macros shows its own values, never internal data", arguments: Language.allCases)
    func partialMacros(language: Language) async throws {
        // Given an onboarded app and a meal with calories and protein only
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: language)
            try await browser.post("/log/manual", [("name", "Skyr"), ("kcal", "150"), ("protein", "16,5")])
            // When today's meals are shown on the list and on the dashboard
            for path in ["/meals", "/"] {
                let page = try await browser.get(path)
                // Then the meal is there and no template data leaks into its row
                #expect(page.body.contains("Skyr"), "\(path)")
                #expect(!page.body.contains("&quot;bar&quot;") && !page.body.contains("&quot;spoken&quot;"), "\(path): \(page.body)")
                #expect(!page.body.contains("[&quot;"), "\(path)")
            }
        }
    }
}

@Suite("The over state on the dashboard (docs/rules.md §5)")
struct OverStateRouteTests {
    @Test("over the target: the ring is full with an overshoot mark, 'N kcal over' stands where 'N left' stood", arguments: Language.allCases)
    func overTarget(language: Language) async throws {
        // Given a day's target and a meal of calories alone 17 kcal above it
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(language)
        try await harness.run { browser in
            try await browser.onboard(language: language)
            let target = try #require(try harness.store().today(timeZone: harness.timeZone)).report.targets.kcal
            let under = try await browser.get("/")
            #expect(under.shows(l.render(CalorieProgress(eatenKcal: 0, targetKcal: target).message)))
            try await browser.post("/log/manual", [("kcal", "\(target + 17)")])
            // When the dashboard is shown
            let page = try await browser.get("/")
            // Then the calorie line says how far over, the ring is closed and marked, nothing is red
            #expect(page.shows(l.render(CalorieProgress(eatenKcal: target + 17, targetKcal: target).message)), "\(page.body)")
            #expect(page.body.contains("class=\"ring is-over\"") && page.body.contains("ring-energy") && page.body.contains("ring-overshoot"))
            #expect(!page.body.contains("--error") && !page.body.contains("is-invalid"))
        }
    }

    @Test("carbs far above the goal show 😐 with the grams over, never 😊 'great'", arguments: Language.allCases)
    func carbsAbove(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(language)
        try await harness.run { browser in
            try await browser.onboard(language: language)
            let goal = try #require(try harness.store().today(timeZone: harness.timeZone)?.report.macros.first { $0.macro == .carbs }).goalG
            let carbs = (goal * 2.71).rounded()
            try await browser.post("/log/manual", [("kcal", "\(Int(carbs * 4))"), ("protein", "0"), ("carbs", "\(Int(carbs))"), ("fat", "0")])
            let page = try await browser.get("/")
            let progress = try #require(try harness.store().today(timeZone: harness.timeZone)?.report.macros.first { $0.macro == .carbs })
            #expect(progress.smiley == .above)
            #expect(page.shows(l.render(progress.statusMessage)), "\(page.body)")
            #expect(page.body.contains("<span class=\"macro-emoji\">😐</span>\n<span class=\"macro-label macro-carbs\">"))
        }
    }
}
