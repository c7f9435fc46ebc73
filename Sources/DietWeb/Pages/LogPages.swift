import DietCore
import DietStore
import FoodKit
import Foundation
import Hummingbird

/// Log meal (seed 002, journey 2): search as you type, a food's portions, manual entry and
/// meal text; every save goes to today's meal history.
extension WebApp {
    func addLogging(to router: Router<WebContext>) {
        router.get("/log") { [self] request, context in
            guard let settings = context.settings else { return redirect("/onboarding") }
            let query = request.uri.queryParameters.get("q") ?? ""
            return try logPage(settings: settings, query: query, manual: FormState(), text: FormState(), context: context)
        }
        router.get("/foods/search") { [self] request, context in
            let query = request.uri.queryParameters.get("q") ?? ""
            return renderer.fragment("search-results", try searchValues(query, context: context), context: context)
        }
        router.get("/log/food/:id") { [self] _, context in
            guard context.settings != nil else { return redirect("/onboarding") }
            guard let food = try store.food(id: context.parameters.get("id") ?? "", language: context.language) else {
                throw HTTPError(.notFound, message: localizer(context).text("web.error.foodNotFound"))
            }
            return portionPage(food, form: FormState(), context: context)
        }
        router.post("/log/food/:id") { [self] _, context in
            guard context.settings != nil else { return redirect("/onboarding") }
            let l = localizer(context)
            guard let food = try store.food(id: context.parameters.get("id") ?? "", language: context.language) else {
                throw HTTPError(.notFound, message: l.text("web.error.foodNotFound"))
            }
            var state = FormState(values: context.form.typed)
            let grams: Double
            switch portionGrams(context.form, food: food, l) {
            case .success(let value): grams = value
            case .failure(let error):
                state.errors[error.field] = error.message
                return portionPage(food, form: state, context: context, status: .unprocessableContent)
            }
            do {
                let instant = try mealInstant(context.form, l)
                let entry = try food.per100g.scaled(toGrams: grams).mealEntry(named: food.name, at: instant, in: timeZone)
                let wasLit = try streakLit()
                try store.logMeal(entry, source: .search, food: FoodPortion(foodID: food.id, grams: grams))
                return try mealsSaved(count: 1, streakWasLit: wasLit)
            } catch let error as FieldError {
                state.errors[error.field] = error.message
                return portionPage(food, form: state, context: context, status: .unprocessableContent)
            } catch {
                state.errors["grams"] = message(for: error, l)
                return portionPage(food, form: state, context: context, status: .unprocessableContent)
            }
        }
        router.post("/log/manual") { [self] _, context in
            guard let settings = context.settings else { return redirect("/onboarding") }
            let l = localizer(context)
            var state = FormState(values: context.form.typed)
            do {
                let entry = try mealEntry(from: context.form, l)
                let wasLit = try streakLit()
                try store.logMeal(entry, source: .manual)
                return try mealsSaved(count: 1, streakWasLit: wasLit)
            } catch let error as FieldError {
                state.errors[error.field] = error.message
                return try logPage(settings: settings, query: "", manual: state, text: FormState(), context: context,
                                   status: .unprocessableContent)
            }
        }
        router.post("/log/recipe/:id") { [self] _, context in
            guard let settings = context.settings else { return redirect("/onboarding") }
            let l = localizer(context)
            guard let recipe = try store.recipe(context.parameters.get("id") ?? "") else {
                throw HTTPError(.notFound, message: l.text("cli.error.recipe", ["id": .text(context.parameters.get("id") ?? "")]))
            }
            var state = FormState(values: ["recipe": recipe.id, "servings": context.form["servings"] ?? ""])
            do {
                guard let servings = Self.decimal(context.form["servings"] ?? "1") else {
                    throw FieldError(field: "servings", message: l.text("web.error.number", ["value": .text(context.form["servings"] ?? "")]))
                }
                let entry = try store.mealEntry(servings: servings, of: recipe, at: try mealInstant(context.form, l), in: timeZone,
                                                language: context.language)
                let wasLit = try streakLit()
                try store.logMeal(entry, source: .recipe)
                return try mealsSaved(count: 1, streakWasLit: wasLit)
            } catch let error as FieldError {
                state.errors[error.field] = error.message
            } catch let error as DietCore.ValidationError {
                state.errors["servings"] = l.render(error.message)
            }
            return try logPage(settings: settings, query: "", manual: FormState(), text: FormState(), recipe: state, context: context,
                               status: .unprocessableContent)
        }
        router.post("/log/text") { [self] _, context in
            guard let settings = context.settings else { return redirect("/onboarding") }
            return try logText(settings: settings, context: context)
        }
    }

    /// A meal in words: checked against its limits before any lookup, shown for confirmation,
    /// then every item logged at once; any refusal re-shows the form with the reason.
    private func logText(settings: UserSettings, context: WebContext) throws -> Response {
        let l = localizer(context)
        let text = context.form["text"] ?? ""
        func refuse(_ message: String) throws -> Response {
            try logPage(settings: settings, query: "", manual: FormState(), text: FormState(values: ["text": text], errors: ["text": message]),
                        context: context, status: .unprocessableContent)
        }
        guard !text.isEmpty else { return try refuse(l.text("web.error.textEmpty")) }
        do throws(DietCore.ValidationError) {
            _ = try MealTextParser.checkedParse(text)
        } catch {
            return try refuse(l.render(error.message))
        }
        let meal = try store.resolveMealText(text, language: context.language, timeZone: timeZone)
        guard !meal.items.isEmpty else { return try refuse(l.text("web.error.textNothing")) }
        guard context.form["confirm"] == "yes" else {
            return renderer.page("text-confirm", textValues(meal, text: text, l), title: l.text("web.text.confirmTitle"), tab: nil,
                                 context: context)
        }
        let instant = try mealInstant(context.form, l)
        let entries: [(MealEntry, FoodPortion?)]
        do throws(DietCore.ValidationError) {
            entries = try meal.items.map { item throws(DietCore.ValidationError) -> (MealEntry, FoodPortion?) in
                (try item.nutrients.mealEntry(named: item.food.name, at: instant, in: timeZone),
                 FoodPortion(foodID: item.food.id, grams: item.choice.grams))
            }
        } catch {
            return try refuse(l.render(error.message))
        }
        let wasLit = try streakLit()
        try store.logMeals(entries, source: .text)
        return try mealsSaved(count: entries.count, streakWasLit: wasLit)
    }

    /// The log screen; `manual` and `text` keep what was typed after an error.
    func logPage(settings: UserSettings, query: String, manual: FormState, text: FormState, recipe: FormState = FormState(),
                 context: WebContext, status: HTTPResponse.Status = .ok) throws -> Response {
        let l = localizer(context)
        var values = try searchValues(query, context: context)
        values["window"] = WindowBanner(settings.profile.eatingWindow, l).values
        values["manual"] = manual.template
        values["text"] = text.template
        values["now"] = TimeOfDay(clock.now(), in: timeZone).formatted
        let recent = try store.usedFoods(frequent: false, limit: 6, language: context.language)
        if query.isEmpty && !recent.isEmpty {
            values["recent"] = ["items": recent.map { ["id": $0.foodID, "name": $0.name] }]
        }
        let recipes = try store.recipes()
        if !recipes.isEmpty {
            values["recipes"] = ["items": try recipes.map { item -> [String: Any] in
                let serving = try store.serving(of: item, language: context.language)
                let failed = recipe.values["recipe"] == item.id
                return ["id": item.id, "name": item.name,
                        "kcal": l.text("web.recipe.perServing", ["kcal": .integer(Int(serving.nutrients.kcal.rounded()))]),
                        "servings": failed ? recipe.values["servings"] ?? "1" : "1",
                        "error": failed ? recipe.errors["servings"] ?? recipe.errors["time"] ?? "" : "",
                        "label": l.text("web.recipe.servingsOf", ["name": .text(item.name)])]
            }]
            if !recipe.errors.isEmpty { values["openRecipes"] = true }
        }
        if !manual.errors.isEmpty { values["openManual"] = true }
        if !text.errors.isEmpty { values["openText"] = true }
        return renderer.page("log", values, title: l.text("web.log.title"), tab: nil, context: context, status: status)
    }

    /// Results for `query`: name, kcal per 100 g and the macros, or the manual-entry hint.
    func searchValues(_ query: String, context: WebContext) throws -> [String: Any] {
        let l = localizer(context)
        let trimmed = String(query.trimmingCharacters(in: .whitespacesAndNewlines).prefix(80))
        var values: [String: Any] = ["query": trimmed]
        guard !trimmed.isEmpty else { return values }
        let hits = try store.searchFoods(trimmed, language: context.language, timeZone: timeZone, limit: 10)
        values["searched"] = true
        let results = hits.map { hit -> [String: Any] in
            let n = hit.food.per100g
            return ["id": hit.food.id, "name": hit.food.name,
                    "kcal": l.text("web.food.per100", ["kcal": .integer(Int(n.kcal.rounded()))]),
                    "macros": l.macros(protein: n.proteinG, carbs: n.carbsG, fat: n.fatG)]
        }
        if !results.isEmpty { values["resultList"] = ["items": results] }
        values["count"] = l.text(hits.count == 1 ? "web.search.count.one" : "web.search.count.other", ["count": .integer(hits.count)])
        if hits.isEmpty { values["empty"] = true }
        return values
    }

    /// A food's page: per 100 g, its portions and a grams field.
    func portionPage(_ food: Food, form: FormState, context: WebContext, status: HTTPResponse.Status = .ok) -> Response {
        let l = localizer(context)
        let n = food.per100g
        let chosen = form.values["portion"] ?? (food.portions.isEmpty ? "grams" : "0")
        var values = form.template
        values["food"] = [
            "id": food.id, "name": food.name,
            "per100": l.text("web.food.per100", ["kcal": .integer(Int(n.kcal.rounded()))]),
            "macros": l.macros(protein: n.proteinG, carbs: n.carbsG, fat: n.fatG, digits: 1),
            "kcalPer100": String(n.kcal), "proteinPer100": String(n.proteinG), "carbsPer100": String(n.carbsG), "fatPer100": String(n.fatG),
        ] as [String: Any]
        values["portions"] = food.portions.enumerated().map { index, portion -> [String: Any] in
            ["index": "\(index)", "label": portion.label, "grams": l.number(portion.gramsPerUnit, digits: 0),
             "gramsValue": String(portion.gramsPerUnit), "checked": chosen == "\(index)"]
        }
        values["gramsChecked"] = chosen == "grams"
        values["count"] = form.values["count"] ?? "1"
        values["grams"] = form.values["grams"] ?? "100"
        values["now"] = form.values["time"] ?? TimeOfDay(clock.now(), in: timeZone).formatted
        return renderer.page("portion", values, title: food.name, tab: nil, context: context, status: status)
    }

    /// Grams from the portion form: a household portion times a count, or grams typed.
    private func portionGrams(_ form: FormData, food: Food, _ l: Localizer) -> Result<Double, FieldError> {
        let choice = form["portion"] ?? "grams"
        if choice == "grams" {
            guard let grams = Self.decimal(form["grams"]), grams > 0, grams <= 5000 else {
                return .failure(FieldError(field: "grams", message: l.render(ValidationError(
                    field: .init("grams"), allowed: .range(min: 1, max: 5000, digits: 0, unit: "g"), received: form["grams"] ?? "").message)))
            }
            return .success(grams)
        }
        guard let index = Int(choice), food.portions.indices.contains(index) else {
            return .failure(FieldError(field: "portion", message: l.text("web.error.choose")))
        }
        guard let count = Self.decimal(form["count"]), count > 0, count <= 50 else {
            return .failure(FieldError(field: "count", message: l.render(ValidationError(
                field: .servings, allowed: .range(min: 0.1, max: 50, digits: 1, unit: nil), received: form["count"] ?? "").message)))
        }
        return .success(count * food.portions[index].gramsPerUnit)
    }

    /// A manual meal from the form: name and calories required, macros optional.
    func mealEntry(from form: FormData, _ l: Localizer) throws -> MealEntry {
        guard let kcalText = form["kcal"] else { throw FieldError(field: "kcal", message: l.text("web.error.kcalRequired")) }
        guard let kcal = Int(kcalText) else {
            throw FieldError(field: "kcal", message: l.render(ValidationError(field: .calories, allowed: .range(min: 1, max: 9999, digits: 0, unit: "kcal"),
                                                                              received: kcalText).message))
        }
        var grams: [String: Double] = [:]
        for field in ["protein", "carbs", "fat", "fiber"] {
            guard let text = form[field] else { continue }
            guard let value = Self.decimal(text) else {
                throw FieldError(field: field, message: l.render(ValidationError(field: .init(field), allowed: .range(min: 0, max: 999, digits: 0, unit: "g"),
                                                                                 received: text).message))
            }
            grams[field] = value
        }
        let instant = try mealInstant(form, l)
        do {
            return try MealEntry(name: form["name"] ?? "", kcal: kcal, proteinG: grams["protein"], carbsG: grams["carbs"],
                                 fatG: grams["fat"], fiberG: grams["fiber"], at: instant, in: timeZone)
        } catch {
            let field = switch error.field {
            case .mealName: "name"
            case .calories: "kcal"
            case .protein: "protein"
            case .carbs: "carbs"
            case .fat: "fat"
            case .fiber: "fiber"
            default: "kcal"
            }
            throw FieldError(field: field, message: l.render(error.message))
        }
    }

    /// When the meal was eaten: `date` (default today, not in the future) at `time` (default now).
    func mealInstant(_ form: FormData, _ l: Localizer) throws -> Date {
        let now = clock.now()
        let day: LocalDate
        if let text = form["date"] {
            guard let date = LocalDate(iso: text) else {
                throw FieldError(field: "date", message: l.render(ValidationError(field: .init("date"), allowed: .format("YYYY-MM-DD"), received: text).message))
            }
            guard date <= today else { throw FieldError(field: "date", message: l.text("cli.error.futureDate", ["date": .date(date)])) }
            day = date
        } else {
            day = today
        }
        guard let text = form["time"] else { return day == today ? now : day.instant(at: TimeOfDay(now, in: timeZone), in: timeZone) }
        guard let time = TimeOfDay(string: text) else {
            throw FieldError(field: "time", message: l.render(ValidationError(field: .time, allowed: .format("HH:MM"), received: text).message))
        }
        return day.instant(at: time, in: timeZone)
    }

    /// "12,5" and "12.5" both mean twelve and a half; nil for anything else.
    static func decimal(_ text: String?) -> Double? {
        guard let text, let value = Double(text.replacingOccurrences(of: ",", with: ".")), value.isFinite else { return nil }
        return value
    }

    private func textValues(_ meal: TextMeal, text: String, _ l: Localizer) -> [String: Any] {
        let t = meal.totals
        return [
            "text": text,
            "items": meal.items.map { item -> [String: Any] in
                let n = item.nutrients
                return ["typed": item.parsed.text, "name": item.food.name, "portion": item.choice.portion?.label ?? "",
                        "grams": l.number(item.choice.grams, digits: 0), "kcal": l.number(n.kcal, digits: 0),
                        "macros": l.macros(protein: n.proteinG, carbs: n.carbsG, fat: n.fatG)]
            },
            "total": l.text("web.text.total", ["kcal": .decimal(t.kcal, digits: 0)]),
            "totalMacros": l.macros(protein: t.proteinG, carbs: t.carbsG, fat: t.fatG),
            "unmatched": meal.unmatched.map { l.text("cli.text.unmatched", ["food": .text($0.food)]) }
                + meal.unparsed.map { l.text("cli.text.unparsed", ["text": .text($0)]) },
            "logLabel": l.text(meal.items.count == 1 ? "web.text.logOne" : "web.text.logMany", ["count": .integer(meal.items.count)]),
        ]
    }
}
