import DietCore
import DietStore
import FoodKit
import Foundation
import Hummingbird

/// The log screen, the search results and the portion page, and reading a meal from its form.
extension WebApp {
    /// The log screen; `manual`, `text` and `recipe` keep what was typed after an error.
    func logPage(
        query: String,
        manual: FormState = FormState(),
        text: FormState = FormState(),
        recipe: FormState = FormState(),
        day: ShownDay? = nil,
        context: OnboardedContext,
        status: HTTPResponse.Status = .ok
    ) throws -> Response {
        let l = localizer(context)
        var values = try searchValues(query, context: context)
        let day = day ?? ShownDay(text: nil, today: today)
        if !day.isToday {
            // every form of the screen logs into the day shown (docs/rules.md §4)
            values["date"] = day.date.iso
            values["dateQuery"] = day.query
            // "Gestern, Di. 6. Jan. 2026": yesterday with its date, another day by its date
            let title = day.date == today.adding(days: -1) ? day.title(l) + ", " + l.date(day.date) : l.date(day.date)
            values["forDay"] = l.text("web.log.forDay", ["day": .text(title)])
        }
        values["backHref"] = "/" + day.query
        values["window"] = WindowBanner(context.profile.eatingWindow, l).values
        values["manual"] = manual.template
        values["text"] = text.template
        // a past day's meal takes its moment's time unless one is typed
        values["now"] = day.isToday ? TimeOfDay(clock.now(), in: timeZone).formatted : ""
        if query.isEmpty { values["usedLists"] = try usedLists(context) }
        values["moments"] = momentOptions(context, selected: manual.values["moment"])
        values["momentId"] = "quick-moment"
        if let recipes = try recipeValues(recipe, context: context) {
            values["recipes"] = recipes
            if !recipe.errors.isEmpty { values["openRecipes"] = true }
        }
        if !manual.errors.isEmpty { values["openManual"] = true }
        if !text.errors.isEmpty { values["openText"] = true }
        return renderer.page("log", values, title: l.text("web.log.title"), tab: nil, context: context, status: status)
    }

    /// Recent and frequent foods, each with the amount last logged and a button that logs it
    /// again in one tap (the three-tap repeat food: "Log meal", then "Log").
    private func usedLists(_ context: OnboardedContext) throws -> [[String: Any]] {
        let l = localizer(context)
        let recent = try store.usedFoods(frequent: false, limit: 5, language: context.language)
        let shown = Set(recent.map(\.foodID))
        let frequent = try store.usedFoods(frequent: true, limit: 10, language: context.language).filter { !shown.contains($0.foodID) }.prefix(5)
        // recipes logged lately come first among the recent (issue 30: one was logged twice, not seen there)
        let recipes = try store.recentRecipes(limit: 3).map { try recipeRow($0.recipe, servings: $0.servings, context) }
        return [("recent", "web.log.recent", Array(recent)), ("frequent", "web.log.frequent", Array(frequent))].compactMap { key, title, foods in
            let rows = (key == "recent" ? recipes : []) + foods.map { usedFood($0, context) }
            guard !rows.isEmpty else { return nil }
            return ["key": key, "title": l.text(title), "items": rows]
        }
    }

    /// A recipe as a one-tap row: its servings (those last logged, or one) and their calories.
    func recipeRow(_ recipe: Recipe, servings: Double, _ context: some PageContext) throws -> [String: Any] {
        let l = localizer(context)
        let kcal = try store.serving(of: recipe, language: context.language).nutrients.kcal * servings
        let amount = l.text("web.recipe.servingsAmount", ["count": .decimal(servings, digits: servings == servings.rounded() ? 0 : 1)])
        return [
            "recipe": true, "id": recipe.id, "name": recipe.name, "amount": amount + " · " + l.number(kcal, digits: 0) + " kcal",
            "servings": WebApp.plain(servings),
            "logLabel": l.text("web.log.logFoodLabel", ["name": .text(recipe.name), "amount": .text(amount)]),
        ]
    }

    private func usedFood(_ used: UsedFood, _ context: OnboardedContext) -> [String: Any] {
        let l = localizer(context)
        let amount = used.food?.amountLabel(grams: used.lastGrams, l) ?? l.number(used.lastGrams, digits: 0) + " g"
        return [
            "id": used.foodID, "name": used.name, "amount": amount, "grams": WebApp.plain(used.lastGrams),
            "otherLabel": l.text("web.log.otherAmount", ["name": .text(used.name)]),
            "logLabel": l.text("web.log.logFoodLabel", ["name": .text(used.name), "amount": .text(amount)]),
        ]
    }

    /// The recipes to log by servings; nil when there are none.
    private func recipeValues(_ recipe: FormState, context: OnboardedContext) throws -> [String: Any]? {
        let l = localizer(context)
        let recipes = try store.recipes()
        guard !recipes.isEmpty else { return nil }
        return [
            "items": try recipes.map { item -> [String: Any] in
                let serving = try store.serving(of: item, language: context.language)
                let failed = recipe.values["recipe"] == item.id
                // the row's own "errors" key: a lookup must not reach the quick add's
                return [
                    "id": item.id, "name": item.name, "errors": [String: String](),
                    "kcal": l.text("web.recipe.perServing", ["kcal": .integer(Int(serving.nutrients.kcal.rounded()))]),
                    "servings": failed ? recipe.values["servings"] ?? "1" : "1",
                    "error": failed ? recipe.errors["servings"] ?? recipe.errors["time"] ?? "" : "",
                    "label": l.text("web.recipe.servingsOf", ["name": .text(item.name)]), "momentId": "recipe-\(item.id)-moment",
                    "moments": momentOptions(context, selected: failed ? recipe.values["moment"] : nil),
                ]
            }
        ]
    }

    /// Results for `query`: name, kcal per 100 g and the macros, or the manual-entry hint; only
    /// the names without `amounts` (recovery mode). The digits of a barcode find the user's food
    /// with it, else offer the barcode lookup; a wrong check digit is said.
    func searchValues(_ query: String, amounts: Bool = true, context: some PageContext) throws -> [String: Any] {
        let l = localizer(context)
        let trimmed = String(query.trimmingCharacters(in: .whitespacesAndNewlines).prefix(80))
        var values: [String: Any] = ["query": trimmed]
        guard !trimmed.isEmpty else { return values }
        values["searched"] = true
        func row(_ food: Food) -> [String: Any] {
            let n = food.per100g
            guard amounts else { return ["id": food.id, "name": food.name, "hasAmounts": false] }
            return [
                "id": food.id, "name": food.name, "hasAmounts": true,
                "kcal": l.text("web.food.per100", ["kcal": .integer(Int(n.kcal.rounded()))]),
                "macros": l.macros(protein: n.proteinG, carbs: n.carbsG, fat: n.fatG),
            ]
        }
        if let digits = Self.barcodeDigits(trimmed) {
            let barcode: Barcode
            do throws(Barcode.Problem) {
                barcode = try Barcode(digits)
            } catch {
                guard case .checkDigit(let expected, let got) = error else { throw error }
                values["count"] = l.text("web.search.barcode.checkDigit", ["expected": .integer(expected), "got": .integer(got)])
                return values
            }
            if let food = try store.customFood(barcode: barcode) {
                values["resultList"] = ["items": [row(food)]]
                values["count"] = l.text("web.search.count", ["count": .integer(1)])
                return values
            }
            values["count"] = l.text("web.search.barcode.notYours")
            if amounts {
                values["barcodeLookup"] = [
                    "code": barcode.digits, "label": l.text("web.search.barcode.lookup", ["code": .text(barcode.digits)]),
                    "hint": l.text("web.search.barcode.lookupHint"),
                ]
            } else {
                values["empty"] = true
            }
            return values
        }
        let hits = try store.searchFoods(trimmed, language: context.language, timeZone: timeZone, limit: 10)
        let results = hits.map { row($0.food) }
        if !results.isEmpty { values["resultList"] = ["items": results] }
        // the user's own recipes whose name has every word typed come first (issue 30: not found by search)
        let words = SearchText.words(SearchText.fold(trimmed))
        let recipes = amounts ? try store.recipes().filter { recipe in words.allSatisfy(SearchText.fold(recipe.name).contains) } : []
        if !recipes.isEmpty { values["recipeHits"] = ["items": try recipes.prefix(5).map { try recipeRow($0, servings: 1, context) }] }
        values["count"] = l.text("web.search.count", ["count": .integer(hits.count + min(recipes.count, 5))])
        if hits.isEmpty && recipes.isEmpty { values["empty"] = true }
        return values
    }

    /// The digits of `text` when they can only be a barcode: 8, 12 or 13 digits (EAN-8, UPC-A,
    /// EAN-13), spaces between them ignored; nil for anything else, which is searched by name.
    static func barcodeDigits(_ text: String) -> String? {
        let digits = text.filter { !$0.isWhitespace }
        guard [8, 12, 13].contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return digits
    }

    /// A food's page: per 100 g, one amount field with its unit (grams or a household
    /// portion) and the preview of what will be saved.
    func portionPage(_ food: Food, form: FormState, context: OnboardedContext, status: HTTPResponse.Status = .ok) -> Response {
        let l = localizer(context)
        let n = food.per100g
        let sent = form.values["unit"].flatMap(FoodUnit.init(id:))?.id
        let units = food.webUnits(keeping: sent)
        // first the food's serving ("1 Portion" of butter is 10 g, not a cup), else its first measure
        let serving = food.serving.flatMap { food.unit(named: $0.name) }?.id
        let offered = units.contains { $0.value == serving } ? serving : nil
        let unit = sent ?? offered ?? units.dropFirst().first?.value ?? "g"
        let amount = form.values["amount"] ?? (unit == "g" ? "100" : "1")
        var values = form.template
        values["food"] =
            [
                "id": food.id, "name": food.name,
                "per100": l.text("web.food.per100", ["kcal": .integer(Int(n.kcal.rounded()))]),
                "macros": l.macros(protein: n.proteinG, carbs: n.carbsG, fat: n.fatG, digits: 1), "kcalPer100": String(n.kcal),
            ] as [String: Any]
        values["units"] = units.map { ["value": $0.value, "label": $0.label, "gramsPerUnit": String($0.gramsPerUnit), "selected": $0.value == unit] }
        values["amount"] = amount
        if let typed = NumberInput.decimal(amount), let unit = FoodUnit(id: unit), let grams = food.grams(amount: typed, unit: unit),
            Food.gramRange.contains(grams)
        {
            values["preview"] = "≈ \(Int(grams.rounded())) g · \(Int((n.kcal * grams / 100).rounded())) kcal"
        }
        values["moments"] = momentOptions(context, selected: form.values["moment"])
        values["momentId"] = "portion-moment"
        // the user's own foods have UUIDs; the bundled ones numbers
        values["isCustom"] = UUID(uuidString: food.id) != nil
        let day = ShownDay(text: form.values["date"], today: today)
        values["now"] = form.values["time"] ?? (day.isToday ? TimeOfDay(clock.now(), in: timeZone).formatted : "")
        values.merge(day.formValues(l)) { $1 }
        return renderer.page("portion", values, title: food.name, tab: nil, context: context, status: status)
    }

    /// Grams from the portion form's one amount and its unit, sent by its id (grams or a
    /// household measure of this food; anything else is refused, never guessed): FoodKit's
    /// arithmetic, the same as the preview's and the CLI's.
    func portionGrams(_ form: PortionForm, food: Food, _ l: Localizer) throws -> Double {
        guard let unit = FoodUnit(id: form.unit.given ?? "g"), let perUnit = food.gramsPerUnit(of: unit) else {
            throw FieldError(field: "unit", message: l.text("web.error.choose"))
        }
        let amount: Double
        do throws(ValidationError) {
            amount = try NumberInput.value(form.amount.given, field: .amount, range: 0.01...5000, digits: 2, unit: unit == .grams ? "g" : nil)
        } catch {
            throw FieldError(field: "amount", message: l.render(error.message))
        }
        let grams = amount * perUnit
        do throws(ValidationError) {
            return try Food.checkedGrams(grams)
        } catch {
            throw FieldError(field: "amount", message: l.render(error.message))
        }
    }

    /// A quick add (docs/rules.md §4): calories are enough, the name defaults to "Quick add" in the
    /// user's language; macros optional; decimal comma or point.
    func quickAdd(from form: MealForm, context: OnboardedContext, loggedAt: OfflineWrite.Moment? = nil) throws -> MealEntry {
        let l = localizer(context)
        let instant = try mealInstant(
            form.when,
            l,
            loggedAt: loggedAt,
            moment: form.moment.flatMap { Int($0) },
            window: context.profile.eatingWindow
        )
        do throws(ValidationError) {
            let (kcal, protein, carbs, fat) = try Self.energy(form)
            return try MealEntry.quickAdd(
                kcal: kcal,
                name: form.name.given,
                proteinG: protein,
                carbsG: carbs,
                fatG: fat,
                at: instant,
                in: timeZone,
                moment: try moment(form.moment, context),
                language: context.language
            )
        } catch {
            throw FieldError(field: Self.mealField(error.field), message: l.render(error.message))
        }
    }

    /// An edited meal: the name is required here (it has one already).
    func editedMeal(from form: MealForm, context: OnboardedContext) throws -> MealEntry {
        let l = localizer(context)
        let instant = try mealInstant(form.when, l)
        do throws(ValidationError) {
            let (kcal, protein, carbs, fat) = try Self.energy(form)
            let fiber = try NumberInput.optionalValue(form.fiber, field: .fiber, range: MealEntry.gramRange, digits: 1, unit: "g")
            return try MealEntry(
                name: form.name.given ?? "",
                kcal: kcal,
                proteinG: protein,
                carbsG: carbs,
                fatG: fat,
                fiberG: fiber,
                at: instant,
                in: timeZone,
                moment: try moment(form.moment, context)
            )
        } catch {
            throw FieldError(field: Self.mealField(error.field), message: l.render(error.message))
        }
    }

    /// A meal from a food changed by its amount: its values computed from `grams` of `food`,
    /// with the name, day, time and moment of the form (the name as it was when left empty).
    func editedMeal(_ existing: MealEntry, food: Food, grams: Double, name: String?, form: PortionForm, context: OnboardedContext) throws -> MealEntry
    {
        let l = localizer(context)
        let instant = try mealInstant(
            WhenForm(date: form.date.given ?? existing.localDate.iso, time: form.time.given ?? existing.localTime.formatted),
            l
        )
        do throws(ValidationError) {
            return try food.per100g.scaled(toGrams: grams).mealEntry(
                named: name.given ?? existing.name,
                at: instant,
                in: timeZone,
                moment: try moment(form.moment, context)
            )
        } catch {
            throw FieldError(field: Self.mealField(error.field), message: l.render(error.message))
        }
    }

    /// Calories and the optional macros of a meal form, as the user wrote them ("450,5" too).
    private static func energy(_ form: MealForm) throws(ValidationError) -> (Int, Double?, Double?, Double?) {
        (
            try NumberInput.whole(form.kcal.given, field: .calories, range: MealEntry.kcalRange, unit: "kcal"),
            try NumberInput.optionalValue(form.protein, field: .protein, range: MealEntry.gramRange, digits: 1, unit: "g"),
            try NumberInput.optionalValue(form.carbs, field: .carbs, range: MealEntry.gramRange, digits: 1, unit: "g"),
            try NumberInput.optionalValue(form.fat, field: .fat, range: MealEntry.gramRange, digits: 1, unit: "g")
        )
    }

    /// The eating moment chosen on a log form, within the profile's moments; nil when none was sent.
    func moment(_ text: String?, _ context: OnboardedContext) throws(ValidationError) -> Int? {
        try context.profile.eatingWindow.chosenMoment(text)
    }

    /// The `<option>`s of the moment select: every moment of the profile, `selected` (else the
    /// current or next one) chosen.
    func momentOptions(_ context: OnboardedContext, selected: String? = nil) -> [[String: Any]] {
        let window = context.profile.eatingWindow
        let chosen = selected.flatMap(Int.init) ?? window.moment(at: TimeOfDay(clock.now(), in: timeZone))
        let l = localizer(context)
        return window.eatingMoments.map { ["number": $0.number, "label": l.render($0.label), "selected": $0.number == chosen] }
    }

    /// The form field of a meal's validated field.
    static func mealField(_ field: ValidationError.Field) -> String {
        switch field {
        case .mealName: "name"
        case .calories: "kcal"
        case .protein: "protein"
        case .carbs: "carbs"
        case .fat: "fat"
        case .fiber: "fiber"
        case .eatingMoment: "moment"
        case .time: "time"
        default: "kcal"
        }
    }

    /// When the meal was eaten: `date` (default today, not in the future) at `time` (default
    /// now). A meal kept offline (`loggedAt`) defaults to the day and time it was logged there.
    func mealInstant(
        _ form: WhenForm,
        _ l: Localizer,
        loggedAt: OfflineWrite.Moment? = nil,
        moment: Int? = nil,
        window: EatingWindow? = nil
    ) throws -> Date {
        let now = clock.now()
        let day: LocalDate
        if let text = form.date.given {
            guard let date = LocalDate(iso: text) else {
                throw FieldError(
                    field: "date",
                    message: l.render(ValidationError(field: .init("date"), allowed: .format("YYYY-MM-DD"), received: text).message)
                )
            }
            guard date <= today else { throw FieldError(field: "date", message: l.text("cli.error.futureDate", ["date": .date(date)])) }
            day = date
        } else {
            day = loggedAt?.day ?? today
        }
        guard let text = form.time.given else {
            if let loggedAt, loggedAt.day == day { return loggedAt.instant }
            if day == today { return now }
            // a past day's meal without a time: at its moment's time, else at this time of day
            let momentTime = moment.flatMap { number in window?.eatingMoments.first { $0.number == number }?.time }
            return day.instant(at: momentTime ?? TimeOfDay(now, in: timeZone), in: timeZone)
        }
        guard let time = TimeOfDay(string: text) else {
            throw FieldError(field: "time", message: l.render(ValidationError(field: .time, allowed: .format("HH:MM"), received: text).message))
        }
        return day.instant(at: time, in: timeZone)
    }
}

extension Food {
    /// The units of the amount select, each by its id: grams, then each household measure offered
    /// once ("1 Scheibe ≈ 45 g"), and `keeping` where it is another.
    func webUnits(keeping kept: String? = nil) -> [(value: String, label: String, gramsPerUnit: Double)] {
        [(FoodUnit.grams.id, "g", 1)]
            + offeredPortions(keeping: kept.flatMap(FoodUnit.init(id:))).map { unit, portion in
                (unit.id, "\(portion.label) ≈ \(Int(portion.gramsPerUnit.rounded())) g", portion.gramsPerUnit)
            }
    }
}
