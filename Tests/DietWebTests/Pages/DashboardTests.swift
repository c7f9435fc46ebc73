import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

@Suite("The dashboard")
struct DashboardTests {
    @Test("the ring has docs/rules.md §5's geometry: 160 px, 20 px stroke, segments clockwise from 12 o'clock by kcal / target × 360°")
    func ringGeometry() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try await browser.post("/log/manual", [("name", "Lunch"), ("kcal", "600"), ("protein", "40"), ("carbs", "60"), ("fat", "20")])
            let page = try await browser.get("/")
            let target = try #require(try harness.store().today(timeZone: harness.timeZone)).report.targets.kcal
            #expect(page.body.contains("width=\"160.00\" height=\"160.00\""))
            #expect(page.body.contains("r=\"70.00\"") && page.body.contains("stroke-width=\"20.00\""))
            let circumference = 2 * Double.pi * 70
            var start = 0.0
            for (macro, kcal) in [("protein", 160.0), ("carbs", 240.0), ("fat", 180.0)] {
                let sweep = kcal / Double(target) * 360
                let dash = String(format: "%.2f %.2f", sweep / 360 * circumference, circumference)
                let offset = String(format: "%.2f", -start / 360 * circumference)
                #expect(
                    page.body.contains(
                        "ring-\(macro)\" cx=\"80.00\" cy=\"80.00\" r=\"70.00\" fill=\"none\" stroke-width=\"20.00\" stroke-dasharray=\"\(dash)\" stroke-dashoffset=\"\(offset)\" transform=\"rotate(-90 80.00 80.00)\""
                    ),
                    "\(macro)"
                )
                start += sweep
            }
            // the spoken text of the ring, as the seed's VoiceOver text
            #expect(
                page.body.contains(
                    "Calories: 600 of \(Localizer(.en).number(Double(target), digits: 0)). Protein 160 calories, carbs 240 calories, fat 180 calories."
                )
            )
        }
    }

    @Test("smileys, streak, banner and phase on the first day")
    func firstDay() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let empty = try await browser.get("/")
            #expect(empty.body.contains("Eating window: 12:00–18:00"))
            #expect(empty.body.contains("href=\"/settings/window\""))
            // the weight typed in onboarding is the first weigh-in: the day is active (issue 30)
            #expect(empty.body.contains("streak-badge is-lit\""))
            #expect(empty.body.contains("1 day streak"))
            #expect(empty.body.components(separatedBy: "<span class=\"macro-emoji\">😐</span>").count == 4, "nothing logged: all 😐")
            #expect(empty.shows(Localizer(.en).text("cycle.phase.habit")))
            #expect(empty.body.contains("70.0 kg") && !empty.body.contains("-- kg") && !empty.body.contains("prompt-card"))
            try await browser.post("/log/manual", [("name", "Big meal"), ("kcal", "1500"), ("protein", "140"), ("carbs", "100"), ("fat", "60")])
            let fed = try await browser.get("/")
            #expect(fed.body.contains("streak-badge is-lit"))
            #expect(fed.body.contains("1 day streak"))
            #expect(fed.body.contains("<span class=\"macro-emoji\">😊</span>"))
        }
    }

    @Test("the phase-switch message shows once on day 8 and is gone after 'Got it'")
    func phaseSwitch() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            harness.clock.advance(by: 7 * 86_400)
            let day8 = try await browser.get("/")
            #expect(day8.body.contains("role=\"dialog\" aria-modal=\"true\" aria-labelledby=\"switch-title\""))
            #expect(day8.shows(Localizer(.en).text("cycle.phase.diet")))
            #expect(try await browser.post("/phase-switch/seen").status == .seeOther)
            let after = try await browser.get("/")
            #expect(!after.body.contains("aria-labelledby=\"switch-title\""))
        }
    }

    @Test("the weight card: the 7-entry average, and the green ↓ only when today is below it (coach, not judge)")
    func weightTrend() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let store = try harness.store()
            let today = LocalDate(WebHarness.now, in: harness.timeZone)
            for (offset, kg) in [(-2, 71.0), (-1, 70.6)] {
                try store.logWeight(try WeightEntry(date: today.adding(days: offset), kg: kg), timeZone: harness.timeZone)
            }
            try await browser.post("/weight", [("weight", "70.2")])
            let down = try await browser.get("/")
            // average of 71.0, 70.6, 70.2 = 70.6; today 0.4 below it
            #expect(down.body.contains("<span class=\"card-label\">Avg</span><span>70.6 kg</span>"))
            #expect(down.body.contains("<span class=\"down-arrow\">↓</span> −0.4"))
            try await browser.post("/weight", [("weight", "71,5")])
            let up = try await browser.get("/")
            #expect(up.body.contains("71.5 kg") && !up.body.contains("down-arrow"), "a setback shows no arrow")
        }
    }
}
