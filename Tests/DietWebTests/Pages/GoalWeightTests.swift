import DietCore
import DietStore
import Foundation
import Testing

/// Issue 30, finding 3: "no goal weight and no date to reach it, which every peer shows; Progress
/// shows three 'current' weights (80,2 latest, 80,6 average, 81,0 trend)".
@Suite("Goal weight in the web app")
struct GoalWeightTests {
    @Test("onboarding asks for a goal weight; the dashboard and Progress show it with the plan's date, Progress one headline weight")
    func shown() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: .de, weight: "82,4", goalWeight: "75")
            let dashboard = try await browser.get("/")
            #expect(dashboard.shows("Ziel 75,0 kg · noch 7,4 kg"), "\(dashboard.body.prefix(600))")
            // before 14 days of weights the plan gives the date, and says so
            #expect(dashboard.shows("nach deinem Plan"))
            #expect(dashboard.body.contains("Voraussichtlich am "))
            #expect(dashboard.missingStrings.isEmpty, "\(dashboard.missingStrings)")
            let progress = try await browser.get("/progress")
            // one headline weight, the trend; the latest weigh-in and the average only under "how is this calculated?"
            #expect(progress.body.contains("<p class=\"weight-value\">82,4 kg</p>"))
            #expect(progress.shows("Ziel 75,0 kg · noch 7,4 kg"))
            #expect(progress.shows("Deine letzte Wiegung: 82,4 kg am"))
            #expect(!progress.body.contains("line-average"), "no third weight line on the chart")
            #expect(!progress.shows("zuletzt 82,4 kg"), "the chart's summary does not restate a weight")
            #expect(progress.missingStrings.isEmpty, "\(progress.missingStrings)")
        }
        #expect(try harness.store().settings()?.profile.goalWeightKg == 75)
    }

    @Test("settings: a goal weight on the wrong side is refused with both weights named, a good one saved, an empty one removed")
    func settings() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: .de, weight: "82,4")
            let profile: [(String, String)] = [("age", "35"), ("height", "168"), ("sex", "female"), ("activity", "light"), ("goal", "lose")]
            let wrong = try await browser.post("/settings/profile", profile + [("goal_weight", "90")])
            #expect(wrong.status == .unprocessableContent)
            #expect(
                wrong.shows(
                    "Zielgewicht: erlaubt ist ein Gewicht unter deinem jetzigen von 82,4 kg, denn dein Ziel ist Abnehmen; du hast 90 eingegeben."
                )
            )
            #expect(wrong.body.contains("value=\"90\""))
            #expect(try harness.store().settings()?.profile.goalWeightKg == nil, "nothing saved")
            #expect(try await browser.post("/settings/profile", profile + [("goal_weight", "76,5")]).status == .seeOther)
            #expect(try harness.store().settings()?.profile.goalWeightKg == 76.5)
            #expect(
                try await browser.get("/settings").body.contains("name=\"goal_weight\" inputmode=\"decimal\" autocomplete=\"off\" value=\"76,5\"")
            )
            #expect(try await browser.post("/settings/profile", profile + [("goal_weight", "")]).status == .seeOther)
            #expect(try harness.store().settings()?.profile.goalWeightKg == nil)
            #expect(!(try await browser.get("/").body.contains("goal-card")))
        }
    }

    @Test("the weigh-in whose trend reaches the goal roars three times and offers to maintain, which one tap does")
    func reached() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(weight: "70", goalWeight: "69,5")
            // the next morning: trend 70 + 0.1 · (64 − 70) = 69.4, past 69.5
            harness.clock.advance(by: 86_400)
            let saved = try await browser.post("/weight", [("weight", "64")])
            #expect(saved.status == .seeOther)
            let dashboard = try await browser.get("/")
            #expect(dashboard.shows(Localizer(.en).text("web.toast.goal_reached")))
            #expect(dashboard.body.contains("data-roar=\"3\""), "the triple roar")
            #expect(dashboard.shows("Goal 69.5 kg reached 🎉"))
            #expect(dashboard.body.contains("action=\"/settings/goal-maintain\""))
            // a second weigh-in the same day does not roar again
            try await browser.post("/weight", [("weight", "64,2")])
            let again = try await browser.get("/")
            #expect(
                !again.shows(Localizer(.en).text("web.toast.goal_reached")),
                "\(again.body.components(separatedBy: "toast-region").last?.prefix(300) ?? "")"
            )
            #expect(try await browser.post("/settings/goal-maintain", []).status == .seeOther)
            #expect(!(try await browser.get("/").body.contains("goal-card")))
        }
        let profile = try #require(try harness.store().settings()).profile
        #expect(profile.goal == .maintain && profile.goalWeightKg == nil)
    }
}
