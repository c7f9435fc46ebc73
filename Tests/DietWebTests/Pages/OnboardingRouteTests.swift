import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

@Suite("Onboarding in the browser")
struct OnboardingRouteTests {
    @Test("all 8 steps in each language end on the dashboard with the profile saved", arguments: Language.allCases)
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
            #expect(first.shows(l.text("onboarding.progress", ["index": .integer(1), "count": .integer(8)])))
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

    @Test("the goal step shows 7 of 7 once maintain is chosen, and 7 of 8 before")
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
            #expect(goalStep.shows("7 of 8"))
            // back from the window step of "lose" lands on the goal with the answer kept
            let window = try await browser.post("/onboarding", base + [("goal", "lose"), ("step", "goal"), ("action", "next")])
            #expect(window.shows("8 of 8") && window.body.contains("name=\"window_start\""))
            let back = try await browser.post("/onboarding", base + [("goal", "lose"), ("step", "eating_window"), ("action", "back")])
            #expect(back.shows("7 of 8"))
            #expect(back.body.contains("value=\"lose\" checked"))
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
