import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

@Suite("Onboarding in the browser")
struct OnboardingRouteTests {
    @Test("all 9 steps in each language end on the dashboard with the profile saved", arguments: Language.allCases)
    func completes(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(language)
        try await harness.run { browser in
            browser.acceptLanguage = language.rawValue
            let welcome = try await browser.get("/")
            #expect(welcome.status == .seeOther && welcome.location == "/onboarding")
            let first = try await browser.get("/onboarding")
            #expect(first.status == .ok)
            #expect(first.body.contains("<html lang=\"\(language.rawValue)\">"))
            #expect(first.shows(l.text("onboarding.welcome.title")))
            #expect(first.shows(l.text("onboarding.progress", ["index": .integer(1), "count": .integer(9)])))
            #expect(first.missingStrings.isEmpty, "\(first.missingStrings)")
            try await browser.onboard(language: language)
            let dashboard = try await browser.get("/")
            #expect(dashboard.status == .ok)
            #expect(dashboard.body.contains("<html lang=\"\(language.rawValue)\">"))
            #expect(dashboard.shows(l.text("web.toast.welcome")))
            #expect(dashboard.missingStrings.isEmpty, "\(dashboard.missingStrings)")
        }
        let settings = try #require(try harness.store().settings())
        #expect(settings.profile.language == language)
        #expect(settings.profile.sex == .female && settings.profile.age == 35 && settings.profile.heightCm == 168)
        #expect(settings.profile.weightKg == 70 && settings.profile.goal == .lose)
        #expect(settings.profile.eatingWindow.start.formatted == "12:00" && settings.profile.eatingWindow.moments.count == 3)
    }

    @Test("a goal other than lose skips the eating window: 7 steps")
    func maintainSkipsWindow() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.get("/onboarding")
            var fields: [(String, String)] = [("language", "en")]
            for (step, answers) in [
                ("welcome", []), ("sex", [("sex", "male")]), ("age", [("age", "40")]), ("height", [("height", "180")]),
                ("weight", [("weight", "90,5")]), ("activity", [("activity", "moderate")]),
            ] as [(String, [(String, String)])] {
                fields += answers
                try await browser.post("/onboarding", fields + [("step", step), ("action", "next")])
            }
            fields.append(("goal", "maintain"))
            let done = try await browser.post("/onboarding", fields + [("step", "goal"), ("action", "next")])
            #expect(done.status == .seeOther)
        }
        let profile = try #require(try harness.store().settings()).profile
        #expect(profile.goal == .maintain && profile.weightKg == 90.5 && profile.eatingWindow == .standard)
    }

    @Test("the goal step shows 7 of 7 once maintain is chosen, and 7 of 9 before; the goal weight step follows lose")
    func progressCounts() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.get("/onboarding")
            let base: [(String, String)] = [
                ("language", "en"), ("sex", "male"), ("age", "40"), ("height", "180"), ("weight", "90"),
                ("activity", "light"),
            ]
            let goalStep = try await browser.post("/onboarding", base + [("step", "activity"), ("action", "next")])
            #expect(goalStep.shows("7 of 9"))
            let goalWeight = try await browser.post("/onboarding", base + [("goal", "lose"), ("step", "goal"), ("action", "next")])
            #expect(goalWeight.shows("8 of 9") && goalWeight.body.contains("name=\"goal_weight\""))
            // a goal weight above the weight typed is refused for "lose", the typed value kept
            let above = try await browser.post(
                "/onboarding",
                base + [("goal", "lose"), ("goal_weight", "95"), ("step", "goal_weight"), ("action", "next")]
            )
            #expect(above.status == .unprocessableContent && above.body.contains("value=\"95\""))
            #expect(above.shows("Goal weight must be a weight below your weight now, 90.0 kg, since your goal is to lose; you entered 95."))
            let window = try await browser.post(
                "/onboarding",
                base + [("goal", "lose"), ("goal_weight", "80,5"), ("step", "goal_weight"), ("action", "next")]
            )
            #expect(window.shows("9 of 9") && window.body.contains("name=\"window_start\""))
            #expect(window.body.contains("name=\"goal_weight\" value=\"80,5\""), "the goal weight rides along as a hidden field")
            // back from the window step lands on the goal weight, back again on the goal with the answer kept
            let back = try await browser.post("/onboarding", base + [("goal", "lose"), ("step", "eating_window"), ("action", "back")])
            #expect(back.shows("8 of 9"))
            let backTwice = try await browser.post("/onboarding", base + [("goal", "lose"), ("step", "goal_weight"), ("action", "back")])
            #expect(backTwice.body.contains("value=\"lose\" checked"))
        }
    }

    @Test("a bad age shows the field's message, keeps the typed value, and saves nothing", arguments: Language.allCases)
    func badAge(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.get("/onboarding")
            let fields: [(String, String)] = [("language", language.rawValue), ("sex", "female"), ("age", "12")]
            let page = try await browser.post("/onboarding", fields + [("step", "age"), ("action", "next")])
            #expect(page.status == .unprocessableContent)
            #expect(page.body.contains("value=\"12\""))
            #expect(page.body.contains("aria-invalid=\"true\""))
            let message = Localizer(language).render(
                ValidationError(field: .age, allowed: .range(min: 18, max: 99, digits: 0, unit: nil), received: "12").message
            )
            #expect(page.shows(message), "\(page.body)")
            let words = try await browser.post(
                "/onboarding",
                [("language", language.rawValue), ("sex", "female"), ("age", "abc"), ("step", "age"), ("action", "next")]
            )
            #expect(words.status == .unprocessableContent && words.body.contains("value=\"abc\""))
        }
        #expect(try harness.store().settings() == nil)
    }

    @Test("a forged answer for an earlier step sends the user back to it")
    func forgedEarlierStep() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.get("/onboarding")
            let page = try await browser.post(
                "/onboarding",
                [("language", "en"), ("sex", "robot"), ("age", "30"), ("step", "height"), ("action", "next")]
            )
            #expect(page.body.contains("name=\"step\" value=\"sex\""))
            #expect(page.shows(Localizer(.en).text("web.error.choose")))
        }
        #expect(try harness.store().settings() == nil)
    }
}
