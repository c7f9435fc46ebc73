import DietCore
import DietStore
import DietWeb
import FoodKit
import Foundation
import Testing

/// Issue 14: logging a meal is correct every time, three taps for a repeat food, in the
/// user's language.
@Suite("Logging a meal in the browser")
struct LoggingRouteTests {
    static func today(_ harness: WebHarness) -> LocalDate { LocalDate(WebHarness.now, in: harness.timeZone) }

    @Test("a deleted meal comes back with the toast's Undo", arguments: Language.allCases)
    func undoDelete(language: Language) async throws {
        // Given a logged meal
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(language)
        try await harness.run { browser in
            try await browser.onboard(language: language)
            try await browser.post("/log/manual", [("name", "Soup"), ("kcal", "300")])
            let id = try #require(try harness.store().meals(on: Self.today(harness)).first?.id.uuidString)
            // When it is deleted
            let deleted = try await browser.post("/meals/\(id)/delete")
            #expect(deleted.status == .seeOther && deleted.location == "/")
            // Then the dashboard's toast says so and offers Undo, which restores it
            let dashboard = try await browser.get("/")
            #expect(dashboard.shows(l.text("web.toast.meal_deleted")) && dashboard.shows(l.text("web.toast.undo")))
            #expect(dashboard.body.contains("action=\"/meals/\(id)/restore\""))
            #expect(try harness.store().meals(on: Self.today(harness)).isEmpty)
            let restored = try await browser.post("/meals/\(id)/restore")
            #expect(restored.status == .seeOther)
            #expect(try await browser.get("/").shows(l.text("web.toast.meal_restored")))
        }
        #expect(try harness.store().meals(on: Self.today(harness)).map(\.entry.name) == ["Soup"])
    }

    @Test("the dashboard lists today's meals under the eating moments with edit, log again and delete", arguments: Language.allCases)
    func mealsByMoment(language: Language) async throws {
        // Given moments at 12:00, 15:00 and 18:00 and a meal logged to the second
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(language)
        try await harness.run { browser in
            try await browser.onboard(language: language)
            try await browser.post("/log/manual", [("name", "Skyr"), ("kcal", "150"), ("moment", "2")])
            let id = try #require(try harness.store().meals(on: Self.today(harness)).first?.id.uuidString)
            // When the dashboard is shown
            let page = try await browser.get("/")
            // Then every moment is a group, the meal under the second, with its three actions
            for moment in EatingWindow.standard.eatingMoments {
                #expect(page.shows(l.render(moment.label)))
            }
            let second = try #require(page.body.components(separatedBy: "id=\"moment-2\"").dropFirst().first)
            #expect(second.prefix(2000).contains("Skyr"))
            #expect(!page.body.components(separatedBy: "id=\"moment-1\"")[1].components(separatedBy: "id=\"moment-2\"")[0].contains("Skyr"))
            #expect(
                page.body.contains("href=\"/meals/\(id)\"") && page.body.contains("action=\"/meals/\(id)/again\"")
                    && page.body.contains("action=\"/meals/\(id)/delete\"")
            )
            #expect(page.shows(l.text("web.dashboard.momentEmpty")))
            #expect(page.missingStrings.isEmpty)
        }
    }

    @Test("a recent food logs again in one tap with its last amount: dashboard, Log meal, Log")
    func repeatFood() async throws {
        // Given 150 g of chicken breast logged earlier
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try await browser.post("/log/food/5062", [("amount", "150"), ("unit", "g")])
            // When the dashboard's "Log meal" (tap 1) opens the log screen
            let dashboard = try await browser.get("/")
            #expect(dashboard.body.contains("href=\"/log\" data-log-meal"))
            let log = try await browser.get("/log")
            // Then the recent food shows its last amount and logs it with one more tap (tap 2)
            #expect(log.body.contains("action=\"/log/food/5062\"") && log.body.contains("name=\"amount\" value=\"150\""))
            #expect(log.body.contains("150 g"))
            let saved = try await browser.post("/log/food/5062", [("amount", "150"), ("unit", "g")])
            #expect(saved.status == .seeOther && saved.location == "/")
        }
        let meals = try harness.store().meals(on: Self.today(harness))
        #expect(meals.count == 2 && meals[0].entry.kcal == meals[1].entry.kcal)
        #expect(try harness.store().usedFoods(frequent: false, language: .en).first?.lastGrams == 150)
    }

    @Test("one amount control: 150 g typed is 150 g saved; 0.5 of the breast portion is 118 g")
    func oneAmount() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let store = try harness.store()
        let chicken = try #require(try store.food(id: "5062", language: .en))
        let breastIndex = try #require(chicken.householdPortions.firstIndex { $0.name.hasPrefix("breast") })
        let breast = chicken.householdPortions[breastIndex]
        try await harness.run { browser in
            try await browser.onboard()
            // Given the portion page: one amount field and a unit select with the breast
            let page = try await browser.get("/log/food/5062")
            #expect(page.body.contains("name=\"amount\"") && !page.body.contains("name=\"grams\"") && !page.body.contains("name=\"count\""))
            #expect(page.body.contains("<option value=\"p\(breastIndex)\" data-grams=\"236.0\">1 \(escaped(breast.name))"))
            // When 150 is typed with the unit g, and 0,5 with the breast
            #expect(try await browser.post("/log/food/5062", [("amount", "150"), ("unit", "g")]).status == .seeOther)
            #expect(try await browser.post("/log/food/5062", [("amount", "0,5"), ("unit", "p\(breastIndex)")]).status == .seeOther)
        }
        // Then 150 g and 118 g are saved
        let kcal = try store.meals(on: Self.today(harness)).map(\.entry.kcal)
        #expect(kcal == [Int((chicken.per100g.kcal * 1.5).rounded()), Int((chicken.per100g.kcal * 1.18).rounded())])
    }

    @Test("oats offer each household measure once: no '0.333 cup' beside '1 cup'")
    func oatsOnce() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let page = try await browser.get("/log/food/8120")
            #expect(page.body.components(separatedBy: ">1 cup").count == 2, "\(page.body)")
            #expect(!page.body.contains("0.333 cup"))
        }
    }

    @Test("quick add: calories alone are enough, named 'Quick add' in the user's language; \"450,5\" kcal is 451", arguments: Language.allCases)
    func quickAdd(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: language)
            let saved = try await browser.post("/log/manual", [("kcal", "450,5")])
            #expect(saved.status == .seeOther)
            try await browser.post("/log/manual", [("kcal", "120.5"), ("protein", "10,5")])
        }
        let meals = try harness.store().meals(on: Self.today(harness))
        #expect(meals.map(\.entry.name) == [MealEntry.quickAddName(language), MealEntry.quickAddName(language)])
        #expect(meals.map(\.entry.kcal) == [451, 121] && meals[1].entry.proteinG == 10.5)
    }

    @Test("a new meal goes to the current or next eating moment, changeable on the form")
    func momentSelect() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            // at 09:00 the next moment is the first (12:00)
            let log = try await browser.get("/log")
            #expect(log.body.contains("<option value=\"1\" selected>"))
            try await browser.post("/log/manual", [("kcal", "300"), ("moment", "3")])
            let bad = try await browser.post("/log/manual", [("kcal", "300"), ("moment", "9")])
            #expect(bad.status == .unprocessableContent)
        }
        #expect(try harness.store().meals(on: Self.today(harness)).map(\.entry.moment) == [3])
    }

    @Test("copy yesterday: yesterday's meals logged again today")
    func copyYesterday() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let empty = try await browser.post("/log/copy-day")
            #expect(empty.location == "/log")
            let store = try harness.store()
            let yesterday = Self.today(harness).adding(days: -1)
            try store.logMeal(
                try MealEntry(
                    name: "Porridge",
                    kcal: 350,
                    at: yesterday.instant(at: TimeOfDay(minutesSinceMidnight: 8 * 60), in: harness.timeZone),
                    in: harness.timeZone
                )
            )
            let copied = try await browser.post("/log/copy-day")
            #expect(copied.status == .seeOther && copied.location == "/")
        }
        #expect(try harness.store().meals(on: Self.today(harness)).map(\.entry.name) == ["Porridge"])
    }

    @Test("copy a day: any earlier day by its date; today, a future or a garbled date is refused, naming the field")
    func copyAnyDay() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            let store = try harness.store()
            let lastWeek = Self.today(harness).adding(days: -7)
            try store.logMeal(
                try MealEntry(
                    name: "Linsensuppe",
                    kcal: 520,
                    at: lastWeek.instant(
                        at: TimeOfDay(minutesSinceMidnight: 13 * 60),
                        in: harness.timeZone
                    ),
                    in: harness.timeZone
                )
            )
            for bad in [Self.today(harness).iso, "2026-02-30", "gestern"] {
                let refused = try await browser.post("/log/copy-day", [("from", bad)])
                #expect(refused.status == .unprocessableContent)
                #expect(refused.body.contains("Datum"), "\(bad)")
            }
            // a 13:00 meal is later than now (09:00): not copied unasked, the meals are offered
            let offered = try await browser.post("/log/copy-day", [("from", lastWeek.iso)])
            #expect(offered.location == "/log/copy?from=\(lastWeek.iso)")
            #expect(try store.meals(on: Self.today(harness)).isEmpty)
            let id = try #require(try store.meals(on: lastWeek).first?.id.uuidString)
            let copied = try await browser.post("/log/copy-day", [("from", lastWeek.iso), ("picking", "yes"), ("meal", id)])
            #expect(copied.location == "/")
        }
        #expect(try harness.store().meals(on: Self.today(harness)).map(\.entry.name) == ["Linsensuppe"])
    }

    @Test("a meal in words is corrected before saving: one amount changed, one item removed, saved together")
    func textCorrected() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let store = try harness.store()
        try await harness.run { browser in
            try await browser.onboard()
            // Given the confirm screen of two foods
            let confirm = try await browser.post("/log/text", [("text", "2 eggs and a slice of toast")])
            #expect(confirm.status == .ok && confirm.body.contains("name=\"items[i1][remove]\""))
            let eggID = try #require(confirm.first(#"name="items\[i0\]\[food\]"[^>]*>\s*<option value="([^"]+)" selected"#), "\(confirm.body)")
            let toastID = try #require(confirm.first(#"name="items\[i1\]\[food\]"[^>]*>\s*<option value="([^"]+)" selected"#))
            // When the egg becomes 150 g and the toast is removed
            let items: [(String, String)] = [
                ("text", "2 eggs and a slice of toast"), ("items[i0][query]", "eggs"), ("items[i0][food]", eggID), ("items[i0][amount]", "150"),
                ("items[i0][unit]", "g"), ("items[i1][query]", "toast"), ("items[i1][food]", toastID), ("items[i1][amount]", "1"),
                ("items[i1][unit]", "g"), ("items[i1][remove]", "yes"),
            ]
            let updated = try await browser.post("/log/text", items + [("confirm", "update")])
            #expect(updated.status == .ok && !updated.body.contains("items[i1][food]"), "\(updated.body)")
            let saved = try await browser.post("/log/text", items + [("confirm", "yes")])
            #expect(saved.status == .seeOther)
            let egg = try #require(try store.food(id: eggID, language: .en))
            // Then one meal of 150 g of egg is saved
            #expect(try store.meals(on: Self.today(harness)).map(\.entry.kcal) == [Int((egg.per100g.kcal * 1.5).rounded())])
        }
    }

    @Test("numbers as Germans write them: weight \"72,4\", height \"170,5\", a deficit of \"25,5\" %")
    func germanDecimals() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: .de, weight: "72,5")
            // the weight field starts at the onboarding weight, in German
            #expect(try await browser.get("/weight").body.contains("value=\"72,5\""))
            #expect(try await browser.post("/weight", [("weight", "72,4")]).status == .seeOther)
            #expect(
                try await browser.post(
                    "/settings/profile",
                    [
                        ("age", "35"), ("height", "170,5"), ("sex", "female"), ("activity", "light"),
                        ("goal", "lose"),
                    ]
                ).status == .seeOther
            )
            #expect(try await browser.post("/settings/plan", [("preset", "open_ended"), ("deficit", "25,5")]).status == .seeOther)
            let bad = try await browser.post("/weight", [("weight", "7,2,4")])
            #expect(bad.status == .unprocessableContent)
            #expect(
                bad.shows(
                    Localizer(.de).render(
                        ValidationError(
                            field: .weight,
                            allowed: .range(min: 30, max: 200, digits: 1, unit: "kg"),
                            received: TextRules.quoted("7,2,4")
                        ).message
                    )
                )
            )
        }
        let store = try harness.store()
        #expect(try store.weights(from: Self.today(harness), through: Self.today(harness)).map(\.kg) == [72.4])
        let profile = try #require(try store.settings()).profile
        #expect(profile.heightCm == 170.5 && abs(profile.deficit - 0.255) < 0.0001)
    }
}
