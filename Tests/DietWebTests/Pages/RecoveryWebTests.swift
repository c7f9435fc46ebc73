import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

@Suite("Recovery mode in the web app")
struct RecoveryWebTests {
    @Test("settings turn recovery mode on in one step (a POST with the CSRF token) and explain kindly what changes")
    func turnOnInOneStep() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let settings = try await browser.get("/settings")
            #expect(settings.body.contains("action=\"/settings/recovery/on\""))
            #expect(settings.body.contains(escaped(Localizer(.en).text("web.recovery.settings.offText"))))
            let forged = try await browser.post("/settings/recovery/on", token: "forged")
            #expect(forged.status == .forbidden)
            #expect(try harness.store().settings()?.recoveryMode == false)
            let on = try await browser.post("/settings/recovery/on")
            #expect(on.status == .seeOther && on.location == "/")
            #expect(try harness.store().settings()?.recoveryMode == true)
            let after = try await browser.get("/settings")
            #expect(after.body.contains("href=\"/settings/recovery/off\""))
            #expect(!after.body.contains("name=\"lock_diet_kcal\""), "the plan's numbers rest")
        }
    }

    @Test("turning it off asks once, without JavaScript, and then the numbers are back with nothing of the paused time judged")
    func turnOffAsksOnce() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try await browser.post("/log/manual", [("name", "Stew"), ("kcal", "1234")])
            try await browser.post("/settings/recovery/on")
            #expect(!(try await browser.get("/").body.contains("1,234")))
            let ask = try await browser.get("/settings/recovery/off")
            #expect(ask.status == .ok)
            #expect(ask.body.contains("Numbers come back. Nothing of the paused time is judged."))
            #expect(ask.body.contains("<form method=\"post\" action=\"/settings/recovery/off\">"))
            #expect(try harness.store().settings()?.recoveryMode == true, "asking changes nothing")
            let off = try await browser.post("/settings/recovery/off")
            #expect(off.status == .seeOther && off.location == "/")
            let dashboard = try await browser.get("/")
            #expect(dashboard.body.contains("1,234"), "numbers come back")
            for judging in ["missed", "you skipped", "paused time", "while you were away"] {
                #expect(!dashboard.body.lowercased().contains(judging))
            }
            #expect(try await browser.get("/settings/recovery/off").status == .seeOther, "nothing to ask when it is off")
        }
    }

    @Test("a meal noted mindfully stays in today's diary once recovery mode is off, without a number (issue 30: it vanished)")
    func mindfulStaysAfterOff() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(.en)
        try await harness.run { browser in
            try await browser.onboard()
            try await browser.post("/settings/recovery/on")
            try await browser.post(
                "/log/text",
                [("mindful", "yes"), ("confirm", "yes"), ("name", "Lentil soup"), ("hunger", "2"), ("fullness", "4")]
            )
            try await browser.post("/settings/recovery/off")
            for path in ["/", "/meals"] {
                let page = try await browser.get(path)
                #expect(page.shows("Lentil soup"), "\(path)")
                #expect(page.shows(l.text("meal.mindfulNoted")), "\(path)")
            }
        }
    }

    @Test("a mindful meal: words, hunger before and fullness after; shown under its eating moment and in today's meals")
    func mindfulMeal() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try await browser.post("/settings/recovery/on")
            let form = try await browser.get("/log")
            #expect(form.body.contains("name=\"hunger\"") && form.body.contains("name=\"fullness\"") && form.body.contains("name=\"feeling\""))
            #expect(form.body.contains("very hungry") && form.body.contains("satisfied"))
            #expect(!form.body.contains("name=\"kcal\""), "no amount to type")
            #expect(!form.body.contains("aria-invalid") && !form.body.contains("field-error"), "no error before anything was sent")
            let saved = try await browser.post(
                "/log/text",
                [
                    ("mindful", "yes"), ("confirm", "yes"), ("name", "Vegetable soup"),
                    ("hunger", "2"), ("fullness", "4"), ("feeling", "calm"),
                    ("moment", "2"), ("time", "15:05"),
                ]
            )
            #expect(saved.status == .seeOther && saved.location == "/")
            let meal = try #require(try harness.store().mindfulMeals(on: LocalDate(WebHarness.now, in: harness.timeZone)).first)
            #expect(meal.entry.hunger == .hungry && meal.entry.fullness == .satisfied && meal.entry.feeling == .calm && meal.entry.moment == 2)
            let dashboard = try await browser.get("/")
            let second = try #require(dashboard.body.components(separatedBy: "data-moment=\"2\"").dropFirst().first)
            #expect(second.components(separatedBy: "</section>")[0].contains("Vegetable soup"), "under its eating moment")
            #expect(dashboard.body.contains("Hunger before: hungry · fullness after: satisfied · calm"))
            #expect(dashboard.body.contains("Nothing yet, and that&#39;s okay.") || dashboard.body.contains("Nothing yet, and that's okay."))
            let meals = try await browser.get("/meals")
            #expect(meals.body.contains("Vegetable soup") && meals.body.contains("href=\"/mindful/\(meal.id.uuidString)\""))
        }
    }

    @Test("a mindful meal missing its hunger is refused naming the field; what was typed stays")
    func mindfulRefused() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try await browser.post("/settings/recovery/on")
            let refused = try await browser.post("/log/text", [("mindful", "yes"), ("confirm", "yes"), ("name", "Toast"), ("fullness", "3")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains("id=\"hunger-error\""))
            #expect(refused.body.contains("value=\"Toast\""))
            #expect(try harness.store().mindfulMeals(on: LocalDate(WebHarness.now, in: harness.timeZone)).isEmpty)
        }
    }

    @Test("a mindful meal kept offline is saved once however often it is replayed")
    func mindfulReplay() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try await browser.post("/settings/recovery/on")
            let id = UUID()
            let fields = [
                ("mindful", "yes"), ("confirm", "yes"), ("name", "Apple"), ("hunger", "3"), ("fullness", "4"),
                ("client_id", id.uuidString),
            ]
            #expect(try await browser.post("/log/text", fields).status == .seeOther)
            #expect(try await browser.post("/log/text", fields).status == .seeOther)
            #expect(try harness.store().mindfulMeals(on: LocalDate(WebHarness.now, in: harness.timeZone)).map(\.id) == [id])
        }
    }

    @Test("changing and deleting a mindful meal")
    func mindfulEditDelete() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try await browser.post("/settings/recovery/on")
            try await browser.post("/log/text", [("mindful", "yes"), ("confirm", "yes"), ("name", "Rice"), ("hunger", "1"), ("fullness", "5")])
            let store = try harness.store()
            let today = LocalDate(WebHarness.now, in: harness.timeZone)
            let meal = try #require(try store.mindfulMeals(on: today).first)
            let screen = try await browser.get("/mindful/\(meal.id.uuidString)")
            #expect(screen.body.contains("value=\"Rice\"") && screen.body.contains("value=\"1\" checked"))
            let changed = try await browser.post(
                "/mindful/\(meal.id.uuidString)",
                [
                    ("name", "Rice and beans"), ("hunger", "2"), ("fullness", "4"),
                    ("time", "12:40"), ("moment", "1"),
                ]
            )
            #expect(changed.status == .seeOther)
            #expect(try store.mindfulMeal(meal.id)?.entry.name == "Rice and beans")
            #expect(try store.mindfulMeal(meal.id)?.entry.fullness == .satisfied)
            #expect(try await browser.post("/mindful/\(meal.id.uuidString)/delete").status == .seeOther)
            #expect(try store.mindfulMeals(on: today).isEmpty)
        }
    }

    @Test("numeric logging in recovery mode: saved when it arrives (kept offline), answered without its numbers; its flows lead to the mindful form")
    func numericRoutesHideNumbers() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try await browser.post("/settings/recovery/on")
            let refused = try await browser.post("/log/manual", [("name", "Cake"), ("kcal", "1234"), ("protein", "43"), ("time", "99:99")])
            #expect(refused.status == .unprocessableContent)
            #expect(RecoveryScan.leaks(in: refused.body, forbidden: ["1234", "1,234", "43"], csrf: browser.csrf).isEmpty)
            #expect(refused.body.contains("name=\"hunger\""), "the mindful form instead")
            let saved = try await browser.post("/log/manual", [("name", "Cake"), ("kcal", "1234"), ("protein", "43")])
            #expect(saved.status == .seeOther)
            let dashboard = try await browser.get("/")
            #expect(dashboard.body.contains("Cake"))
            #expect(!dashboard.body.contains("1,234") && !dashboard.body.contains("1234"))
            #expect(!dashboard.body.contains(" · </span>"), "a meal without hunger and fullness words ends at its time")
            let search = try await browser.get("/foods/search?q=apple")
            #expect(search.body.contains("result-name") && !search.body.contains("result-meta"), "search shows names only")
            let text = try await browser.post("/log/text", [("text", "200 g rice")])
            #expect(!text.body.contains(" kcal"), "no confirm screen with its totals")
            #expect(text.body.contains("name=\"hunger\""))
            let meal = try #require(try harness.store().meals(on: LocalDate(WebHarness.now, in: harness.timeZone)).first)
            let edit = try await browser.get("/meals/\(meal.id.uuidString)")
            #expect(!edit.body.contains("1234") && !edit.body.contains("name=\"kcal\""))
            #expect(
                try await browser.post("/meals/\(meal.id.uuidString)", [("name", "Birthday cake"), ("time", "13:00"), ("moment", "1")]).status
                    == .seeOther
            )
            let kept = try #require(try harness.store().meal(meal.id)).entry
            #expect(kept.name == "Birthday cake" && kept.kcal == 1234 && kept.proteinG == 43, "the unseen numbers are kept")
        }
    }

    @Test("every recovery page renders in the profile's language with every string resolved", arguments: Language.allCases)
    func everyLanguage(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: language)
            try await browser.post("/log/manual", [("name", "Toast"), ("kcal", "250")])
            try await browser.post("/settings/recovery/on")
            try await browser.post("/log/text", [("mindful", "yes"), ("confirm", "yes"), ("name", "Soup"), ("hunger", "2"), ("fullness", "4")])
            let store = try harness.store()
            let today = LocalDate(WebHarness.now, in: harness.timeZone)
            let mindful = try #require(try store.mindfulMeals(on: today).first)
            let meal = try #require(try store.meals(on: today).first)
            let refused = try await browser.post("/log/text", [("mindful", "yes"), ("confirm", "yes"), ("name", "Soup")])
            #expect(refused.missingStrings.isEmpty, "refused: \(refused.missingStrings)")
            for path in [
                "/", "/log", "/meals", "/meals/\(meal.id.uuidString)", "/mindful/\(mindful.id.uuidString)", "/weight", "/explain",
                "/foods", "/progress", "/settings", "/settings/recovery/off",
            ] {
                let page = try await browser.get(path)
                #expect(page.status == .ok, "\(path)")
                #expect(page.body.contains("<html lang=\"\(language.rawValue)\">"), "\(path)")
                #expect(page.missingStrings.isEmpty, "\(path): \(page.missingStrings)")
            }
        }
    }

    @Test("weight, explanations and foods rest on a kind page in recovery mode")
    func restingPages() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try await browser.post("/settings/recovery/on")
            let l = Localizer(.en)
            #expect(try await browser.get("/weight").body.contains(l.text("web.recovery.rest.weightTitle")))
            #expect(try await browser.get("/explain").body.contains(l.text("web.recovery.rest.explainTitle")))
            #expect(try await browser.get("/foods").body.contains(l.text("web.recovery.rest.foodsTitle")))
            let progress = try await browser.get("/progress")
            #expect(progress.body.contains(l.text("web.recovery.progress.title")) && !progress.body.contains("weight-chart-title"))
        }
    }
}
