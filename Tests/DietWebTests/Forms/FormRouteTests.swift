import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

@Suite("Forms: saved when valid, kept and explained when not")
struct FormRouteTests {
    @Test("manual meal: saved and shown in today's history with running totals", arguments: Language.allCases)
    func manualMeal(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(language)
        try await harness.run { browser in
            try await browser.onboard(language: language)
            // onboarding's weigh-in taken back, so the first meal is what lights the day
            try harness.store().deleteWeight(on: LocalDate(WebHarness.now, in: harness.timeZone))
            let saved = try await browser.post(
                "/log/manual",
                [("name", "Porridge"), ("kcal", "420"), ("protein", "15"), ("carbs", "60,5"), ("fat", "9"), ("time", "08:30")]
            )
            #expect(saved.status == .seeOther && saved.location == "/")
            let history = try await browser.get("/meals")
            #expect(history.body.contains("Porridge") && history.body.contains("08:30"))
            // 08:30 is outside the 12:00–18:00 window: a warning, not a refusal (docs/rules.md §4)
            #expect(history.shows(l.text("feedback.note.outsideWindow", ["start": .text("12:00"), "end": .text("18:00")])))
            // the first meal of the day lights the flame, and every saved meal roars (docs/rules.md §5)
            #expect(history.shows(l.text("web.toast.meal_streak") + " " + l.text("cli.roar.1")), "\(history.body.prefix(1200))")
            #expect(history.shows(l.text("web.meals.addAnother")))
            try await browser.post("/log/manual", [("name", "Apfel"), ("kcal", "80")])
            #expect(try await browser.get("/meals").shows(l.text("web.toast.meal_saved") + " " + l.text("cli.roar.1")))
            // the toast shows once
            #expect(!(try await browser.get("/meals").shows(l.text("web.toast.meal_saved"))))
        }
        let meals = try harness.store().meals(on: LocalDate(WebHarness.now, in: harness.timeZone))
        #expect(meals.count == 2)
        #expect(meals.first?.entry.carbsG == 60.5 && meals.first?.entry.kcal == 420)
    }

    @Test("manual meal with bad calories: the field's message, the typed values kept, nothing saved", arguments: Language.allCases)
    func badManualMeal(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(language)
        try await harness.run { browser in
            try await browser.onboard(language: language)
            let page = try await browser.post("/log/manual", [("name", "Pasta"), ("kcal", "12000"), ("protein", "20")])
            #expect(page.status == .unprocessableContent)
            #expect(
                page.shows(
                    l.render(
                        ValidationError(field: .calories, allowed: .range(min: 1, max: 9999, digits: 0, unit: "kcal"), received: "12000").message
                    )
                )
            )
            #expect(page.body.contains("value=\"Pasta\"") && page.body.contains("value=\"12000\"") && page.body.contains("value=\"20\""))
            #expect(page.body.contains("<details class=\"card disclosure\" id=\"manual\" open>"))
            let missing = try await browser.post("/log/manual", [("name", "Pasta")])
            // calories are the one thing a quick add needs (docs/rules.md §4): the rule names the field and its range
            #expect(
                missing.status == .unprocessableContent
                    && missing.shows(
                        l.render(
                            ValidationError(
                                field: .calories,
                                allowed: .range(min: 1, max: 9999, digits: 0, unit: "kcal"),
                                received: ""
                            ).message
                        )
                    )
            )
            let badProtein = try await browser.post("/log/manual", [("name", "Pasta"), ("kcal", "500"), ("protein", "lots")])
            #expect(badProtein.status == .unprocessableContent && badProtein.body.contains("value=\"lots\""))
            let future = try await browser.post("/log/manual", [("name", "Pasta"), ("kcal", "500"), ("time", "25:00")])
            #expect(future.status == .unprocessableContent)
        }
        #expect(try harness.store().meals(on: LocalDate(WebHarness.now, in: harness.timeZone)).isEmpty)
    }

    @Test("a food with a portion: grams and energy from the database")
    func foodPortion() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            let search = try await browser.get("/log?q=h%C3%A4hnchenbrust")
            let id = try #require(search.first(#"href="/log/food/(\d+)""#))
            let portion = try await browser.get("/log/food/\(id)")
            #expect(portion.status == .ok)
            let saved = try await browser.post("/log/food/\(id)", [("amount", "150"), ("unit", "g")])
            #expect(saved.status == .seeOther && saved.location == "/")
            let bad = try await browser.post("/log/food/\(id)", [("amount", "0"), ("unit", "g")])
            #expect(bad.status == .unprocessableContent && bad.body.contains("value=\"0\""))
        }
        let meals = try harness.store().meals(on: LocalDate(WebHarness.now, in: harness.timeZone))
        #expect(meals.count == 1)
        let meal = try #require(meals.first)
        #expect(meal.entry.name.contains("Hähnchen"))
        // chicken breast is about 110–170 kcal and 20–33 g protein per 100 g: 150 g scales it
        #expect((160...260).contains(meal.entry.kcal), "\(meal.entry.kcal)")
        #expect((30...50).contains(meal.entry.proteinG ?? 0), "\(meal.entry.proteinG ?? 0)")
    }

    @Test("the words typed are quoted as the language quotes (issue 30: “…” mixed with „…“ in German)", arguments: Language.allCases)
    func quotedWords(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: language)
            let confirm = try await browser.post("/log/text", [("text", "2 Eier")])
            let quoted = ["de": "„2 Eier“", "en": "“2 Eier”", "es": "«2 Eier»"][language.rawValue] ?? ""
            #expect(confirm.body.contains("<p class=\"muted\">\(quoted)</p>"), "\(language)")
        }
    }

    @Test("meal text: shown for confirmation first, then every item logged at once")
    func mealText() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let confirm = try await browser.post("/log/text", [("text", "2 eggs and a slice of toast")])
            #expect(confirm.status == .ok)
            #expect(confirm.shows(Localizer(.en).text("web.text.log", ["count": .integer(2)])))
            let stores = try harness.store()
            #expect(try stores.meals(on: LocalDate(WebHarness.now, in: harness.timeZone)).isEmpty)
            let saved = try await browser.post("/log/text", [("text", "2 eggs and a slice of toast"), ("confirm", "yes")])
            #expect(saved.status == .seeOther)
            #expect(try stores.meals(on: LocalDate(WebHarness.now, in: harness.timeZone)).count == 2)
            let nothing = try await browser.post("/log/text", [("text", "qwxz plorb")])
            #expect(nothing.status == .unprocessableContent && nothing.body.contains("qwxz plorb"))
        }
    }

    @Test("meal text in German: a range says which middle it counts; butter's portion screen starts at its serving, not a cup")
    func rangeAndServing() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            let confirm = try await browser.post("/log/text", [("text", "1 1/2–2 EL Zucker und Brot mit Butter")])
            #expect(confirm.status == .ok)
            #expect(confirm.body.contains("Spanne von 1,5 bis 2: gezählt wird die Mitte, 1,75."), "\(confirm.body)")
            // butter (USDA 1001): "1 Portion" of 10 g is chosen, the cup of 227 g is only offered
            let butter = try await browser.get("/log/food/1001")
            #expect(butter.body.contains(#"<option value="p4" data-grams="10.0" selected>1 Portion ≈ 10 g"#), "\(butter.body)")
            #expect(butter.body.contains("≈ 10 g · 75 kcal"), "\(butter.body)")
        }
    }

    @Test("edit, log again and delete a meal")
    func editAgainDelete() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try await browser.post("/log/manual", [("name", "Apple"), ("kcal", "80")])
            let id = try #require(try await browser.get("/meals").first(#"href="/meals/([0-9A-F-]{36})""#))
            let bad = try await browser.post("/meals/\(id)", [("name", ""), ("kcal", "90")])
            #expect(bad.status == .unprocessableContent)
            let edited = try await browser.post("/meals/\(id)", [("name", "Big apple"), ("kcal", "120"), ("date", "2026-01-05"), ("time", "07:15")])
            #expect(edited.status == .seeOther)
            let future = try await browser.post("/meals/\(id)", [("name", "Big apple"), ("kcal", "120"), ("date", "2026-01-09")])
            #expect(future.status == .unprocessableContent)
            #expect(try await browser.post("/meals/\(id)/again").status == .seeOther)
            let store = try harness.store()
            let day = LocalDate(WebHarness.now, in: harness.timeZone)
            #expect(try store.meals(on: day).map(\.entry.name) == ["Big apple", "Big apple"])
            #expect(try await browser.post("/meals/\(id)/delete").status == .seeOther)
            #expect(try store.meals(on: day).count == 1)
            #expect(try await browser.post("/meals/\(id)/delete").status == .notFound)
        }
    }

    @Test("weight: onboarding's weight is the first weigh-in; the field starts at the last weight; a new one replaces the day's")
    func weight() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(sex: "male")
            let first = try await browser.get("/weight")
            // the onboarding weight (70.0) is today's weigh-in (issue 30: it read "-- kg")
            #expect(first.body.contains("name=\"weight\" type=\"text\" inputmode=\"decimal\" autocomplete=\"off\" value=\"70.0\""), "\(first.body)")
            let before = try await browser.get("/")
            #expect(before.body.contains("streak-badge is-lit"))
            #expect(!before.body.contains("prompt-card") && before.body.contains("70.0 kg"))
            let saved = try await browser.post("/weight", [("weight", "88,4")])
            #expect(saved.status == .seeOther && saved.location == "/")
            let after = try await browser.get("/")
            #expect(after.body.contains("streak-badge is-lit"))
            #expect(!after.body.contains("prompt-card"))
            #expect(after.body.contains("88.4 kg"))
            #expect(after.shows(Localizer(.en).text("web.toast.weight_saved")))
            let again = try await browser.get("/weight")
            #expect(again.body.contains("value=\"88.4\""))
            let bad = try await browser.post("/weight", [("weight", "250")])
            #expect(bad.status == .unprocessableContent)
        }
        #expect(try harness.store().weights(from: LocalDate(iso: "2026-01-01")!, through: LocalDate(iso: "2026-01-31")!).map(\.kg) == [88.4])
    }

    @Test("settings: profile, language, plan with locked goals and the eating window")
    func settings() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            #expect(
                try await browser.post(
                    "/settings/profile",
                    [("age", "36"), ("height", "170"), ("sex", "female"), ("activity", "moderate"), ("goal", "lose")]
                ).status == .seeOther
            )
            let badHeight = try await browser.post(
                "/settings/profile",
                [("age", "36"), ("height", "300"), ("sex", "female"), ("activity", "moderate"), ("goal", "lose")]
            )
            #expect(badHeight.status == .unprocessableContent && badHeight.body.contains("value=\"300\""))
            #expect(try await browser.post("/settings/plan", [("preset", "open_ended"), ("deficit", "25")]).status == .seeOther)
            let badDeficit = try await browser.post("/settings/plan", [("preset", "open_ended"), ("deficit", "50")])
            #expect(badDeficit.status == .unprocessableContent)
            let halfLock = try await browser.post("/settings/plan", [("preset", "open_ended"), ("deficit", "25"), ("lock_deficit_kcal", "1700")])
            #expect(halfLock.status == .unprocessableContent && halfLock.body.contains("value=\"1700\""))
            #expect(
                try await browser.post(
                    "/settings/plan",
                    [
                        ("preset", "open_ended"), ("deficit", "25"), ("lock_deficit_kcal", "1700"), ("lock_deficit_protein", "140"),
                        ("lock_deficit_carbs", "150"), ("lock_deficit_fat", "60"),
                    ]
                ).status == .seeOther
            )
            let window = try await browser.post(
                "/settings/window",
                [("window_start", "10:00"), ("window_end", "16:00"), ("moment", "10:00"), ("moment", "13:00")]
            )
            #expect(window.status == .seeOther)
            let badWindow = try await browser.post("/settings/window", [("window_start", "10:00"), ("window_end", "16:00"), ("moment", "10:00")])
            #expect(badWindow.status == .unprocessableContent)
            #expect(try await browser.post("/settings/language", [("language", "es")]).status == .seeOther)
            let spanish = try await browser.get("/settings")
            #expect(spanish.body.contains("<html lang=\"es\">"))
        }
        let profile = try #require(try harness.store().settings()).profile
        #expect(profile.age == 36 && profile.heightCm == 170 && profile.activityLevel == .moderate && profile.deficit == 0.25)
        #expect(profile.lockedGoals[.deficit] == LockedGoals(kcal: 1700, proteinG: 140, carbsG: 150, fatG: 60))
        #expect(profile.eatingWindow.start.formatted == "10:00" && profile.eatingWindow.moments.count == 2)
        #expect(profile.language == .es)
    }

    @Test("export downloads JSON; import restores it into an empty app; a bad file changes nothing")
    func exportImport() async throws {
        let source = try WebHarness()
        defer { source.remove() }
        let exported = try await source.run { browser in
            try await browser.onboard()
            try await browser.post("/log/manual", [("name", "Soup"), ("kcal", "300")])
            let download = try await browser.post("/settings/export")
            #expect(download.status == .ok)
            #expect(download.headers[.contentDisposition]?.hasPrefix("attachment; filename=\"w-diet-2026-01-05.json\"") == true)
            return Data(download.body.utf8)
        }
        let target = try WebHarness()
        defer { target.remove() }
        try await target.run { browser in
            try await browser.get("/import")
            let broken = try await browser.upload("/import", file: Data("{\"format\": 1}".utf8), filename: "broken.json")
            #expect(broken.status == .unprocessableContent && broken.body.contains("broken.json"))
            let empty = try await browser.upload("/import", file: Data(), filename: "none.json")
            #expect(empty.status == .unprocessableContent)
            let restored = try await browser.upload("/import", file: exported, filename: "w-diet.json")
            #expect(restored.status == .seeOther && restored.location == "/")
            let again = try await browser.upload("/import", file: exported, filename: "w-diet.json")
            #expect(again.status == .unprocessableContent, "a second import into a full app is refused")
        }
        let store = try target.store()
        #expect(try store.meals(on: LocalDate(WebHarness.now, in: target.timeZone)).map(\.entry.name) == ["Soup"])
    }

    @Test("delete everything: the wrong word keeps all; the right one purges and restarts onboarding")
    func deleteAll() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            try await browser.post("/log/manual", [("name", "Brot"), ("kcal", "200")])
            let wrong = try await browser.post("/settings/delete", [("confirm", "nope")])
            #expect(wrong.status == .unprocessableContent)
            #expect(try harness.store().settings() != nil)
            let word = Localizer(.de).text("cli.deleteAccount.word")
            let done = try await browser.post("/settings/delete", [("confirm", word)])
            #expect(done.status == .seeOther && done.location == "/onboarding")
        }
        let store = try harness.store()
        #expect(try store.settings() == nil)
        #expect(try store.meals(on: LocalDate(WebHarness.now, in: harness.timeZone)).isEmpty)
    }

    @Test("every form's bad input: the field's message in the user's language, typed values kept, nothing saved", arguments: Language.allCases)
    func errorsInEveryLanguage(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(language)
        try await harness.run { browser in
            try await browser.onboard(language: language)
            try await browser.post("/log/manual", [("name", "Brot"), ("kcal", "200")])
            let mealID = try #require(try await browser.get("/meals").first(#"href="/meals/([0-9A-F-]{36})""#))
            let search = try await browser.get("/log?q=" + Browser.encode(language == .de ? "hähn" : language == .es ? "pollo" : "chicken"))
            let foodID = try #require(search.first(#"href="/log/food/(\d+)""#))
            let cases: [(String, [(String, String)], String, String)] = [
                (
                    "/log/manual", [("name", "X"), ("kcal", "0")], "0",
                    l.render(ValidationError(field: .calories, allowed: .range(min: 1, max: 9999, digits: 0, unit: "kcal"), received: "0").message)
                ),
                (
                    "/log/food/\(foodID)", [("amount", "9000"), ("unit", "g")], "9000",
                    l.render(ValidationError(field: .amount, allowed: .range(min: 0.01, max: 5000, digits: 2, unit: "g"), received: "9000").message)
                ),
                ("/log/text", [("text", "")], "", l.text("web.error.textEmpty")),
                (
                    "/meals/\(mealID)", [("name", "Brot"), ("kcal", "abc")], "abc",
                    l.render(
                        ValidationError(
                            field: .calories,
                            allowed: .range(min: 1, max: 9999, digits: 0, unit: "kcal"),
                            received: TextRules.quoted("abc")
                        ).message
                    )
                ),
                (
                    "/weight", [("weight", "20")], "20",
                    l.render(ValidationError(field: .weight, allowed: .range(min: 30, max: 200, digits: 1, unit: "kg"), received: "20").message)
                ),
                (
                    "/settings/profile", [("age", "150"), ("height", "170"), ("sex", "female"), ("activity", "light"), ("goal", "lose")], "150",
                    l.render(ValidationError(field: .age, allowed: .range(min: 18, max: 99, digits: 0, unit: nil), received: "150").message)
                ),
                (
                    "/settings/plan", [("preset", "open_ended"), ("deficit", "zehn")], "zehn",
                    l.render(
                        ValidationError(field: .deficit, allowed: .range(min: 10, max: 35, digits: 0, unit: "%"), received: TextRules.quoted("zehn"))
                            .message
                    )
                ),
                (
                    "/settings/window", [("window_start", "12:00"), ("window_end", "12:30")], "",
                    l.render(
                        ValidationError(field: .eatingWindow, allowed: .range(min: 1, max: 16, digits: 0, unit: "h"), received: "12:00–12:30").message
                    )
                ),
                ("/settings/delete", [("confirm", "nein")], "", l.text("web.delete.mismatch", ["word": .text(l.text("cli.deleteAccount.word"))])),
                (
                    "/settings/account/signin", [("server", "ftp://x"), ("email", "a@b.c"), ("password", "secret")], "ftp://x",
                    l.text("web.account.serverInvalid", ["value": .text("ftp://x")])
                ),
            ]
            for (path, fields, kept, message) in cases {
                let page = try await browser.post(path, fields)
                #expect(page.status == .unprocessableContent, "\(path)")
                #expect(page.shows(message), "\(path) lacks «\(message)»")
                if !kept.isEmpty { #expect(page.body.contains("value=\"\(escaped(kept))\""), "\(path) lost \(kept)") }
                #expect(page.body.contains("<html lang=\"\(language.rawValue)\">"), "\(path)")
                #expect(page.missingStrings.isEmpty, "\(path): \(page.missingStrings)")
            }
        }
        let store = try harness.store()
        #expect(try store.meals(on: LocalDate(WebHarness.now, in: harness.timeZone)).map(\.entry.name) == ["Brot"])
        // only onboarding's weigh-in
        #expect(try store.weights(from: LocalDate(iso: "2026-01-01")!, through: LocalDate(iso: "2026-01-31")!).count == 1)
        let profile = try #require(try store.settings()).profile
        #expect(profile.age == 35 && profile.deficit == Profile.defaultDeficit && profile.eatingWindow.start.formatted == "12:00")
    }

    @Test("the maintenance estimate of docs/rules.md §3a: shown with the formula after 4 weeks of data, accepted, then undone")
    func maintenance() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let early = try await browser.get("/settings")
            #expect(
                early.shows(Localizer(.en).text("adaptive.short.days", ["have": .integer(28), "need": .integer(21)]))
                    || early.body.contains("Your formula TDEE stands")
            )
            // 28 days of 2,000 kcal with a flat weight: maintenance is about 2,000 kcal
            let store = try harness.store()
            let today = LocalDate(WebHarness.now, in: harness.timeZone)
            for offset in 1...28 {
                let day = today.adding(days: -offset)
                try store.logMeal(
                    try MealEntry(
                        name: "Day",
                        kcal: 2000,
                        at: day.instant(at: TimeOfDay(minutesSinceMidnight: 13 * 60), in: harness.timeZone),
                        in: harness.timeZone
                    )
                )
                if offset.isMultiple(of: 2) { try store.logWeight(try WeightEntry(date: day, kg: 70), timeZone: harness.timeZone) }
            }
            let page = try await browser.get("/settings")
            let offer = try #require(
                page.first(#"<button class="button button-secondary" type="submit">(Use [0-9,]+ kcal as my maintenance)</button>"#),
                "\(page.body)"
            )
            #expect(offer.contains("2,000") || offer.contains("1,9") || offer.contains("2,0"), "\(offer)")
            #expect(try await browser.post("/settings/maintenance", [("use", "estimate")]).status == .seeOther)
            let accepted = try #require(try store.settings()?.acceptedMaintenanceKcal)
            #expect((1900...2100).contains(accepted), "\(accepted)")
            #expect(try await browser.get("/settings").shows(Localizer(.en).text("web.maintenance.accepted", ["kcal": .integer(accepted)])))
            #expect(try await browser.post("/settings/maintenance", [("use", "formula")]).status == .seeOther)
            #expect(try store.settings()?.acceptedMaintenanceKcal == nil)
        }
    }

    @Test("a recipe: servings logged as one meal; a bad number of servings is explained and nothing saved")
    func recipe() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let store = try harness.store()
        try await harness.run { browser in
            try await browser.onboard()
            // chicken breast 300 g and 200 g of the first rice the database finds, for 2 servings
            let rice = try #require(try store.searchFoods("rice", language: .en, timeZone: harness.timeZone).first?.food)
            let recipe = try store.addRecipe(
                name: "Chicken rice",
                items: [.init(foodID: "5062", grams: 300), .init(foodID: rice.id, grams: 200)],
                servings: 2
            )
            let page = try await browser.get("/log")
            #expect(page.body.contains("Chicken rice") && page.body.contains("action=\"/log/recipe/\(recipe.id)\""))
            let bad = try await browser.post("/log/recipe/\(recipe.id)", [("servings", "50")])
            #expect(bad.status == .unprocessableContent && bad.body.contains("value=\"50\"") && bad.body.contains("id=\"recipes\" open"))
            #expect(page.body.contains("id=\"recipe-\(recipe.id)-moment\""))
            #expect(try await browser.post("/log/recipe/\(recipe.id)", [("servings", "1,5"), ("moment", "2")]).status == .seeOther)
            #expect(try await browser.post("/log/recipe/ffffffff", [("servings", "1")]).status == .notFound)
        }
        let meals = try store.meals(on: LocalDate(WebHarness.now, in: harness.timeZone))
        #expect(meals.map(\.entry.name) == ["Chicken rice"] && meals.map(\.entry.moment) == [2])
        let perServing = try store.serving(of: try #require(try store.recipes().first), language: .en).nutrients.kcal
        #expect(abs(Double(meals[0].entry.kcal) - 1.5 * perServing) <= 1)
    }
}
