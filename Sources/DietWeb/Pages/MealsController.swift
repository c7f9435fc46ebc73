import DietCore
import DietStore
import FoodKit
import Foundation
import Hummingbird

/// Today's meals with running totals, and editing, deleting or logging again one meal.
struct MealsController: Controller {
    let app: WebApp

    func register(on group: RouterGroup<OnboardedContext>) {
        group.get("/meals", use: list)
        group.get("/meals/:id", use: editScreen)
        group.post("/meals/:id", use: edit)
        group.post("/meals/:id/delete", use: delete)
        group.post("/meals/:id/again", use: again)
        group.post("/meals/:id/restore", use: restore)
    }

    /// "Undo" on the toast of a deletion: the meal comes back as it was.
    func restore(_ request: Request, context: OnboardedContext) async throws -> Response {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else {
            throw HTTPError(.notFound, message: app.localizer(context).text("web.error.mealNotFound"))
        }
        do {
            try app.store.restoreMeal(id, timeZone: app.timeZone)
        } catch let error as StoreError {
            throw HTTPError(.notFound, message: error.webMessage(app.localizer(context)))
        }
        return app.redirect("/", toast: .mealRestored)
    }

    func list(_ request: Request, context: OnboardedContext) async throws -> Response {
        let day = ShownDay(request, today: app.today)
        guard let snapshot = try app.store.day(day.date, timeZone: app.timeZone) else { return app.redirect("/onboarding") }
        let l = app.localizer(context)
        if context.settings.recoveryMode {
            // docs/rules.md §8: names, times, moments, hunger and fullness; no calories, no grams, no totals
            let rows = RecoveryMealRow.rows(
                meals: snapshot.meals,
                mindful: snapshot.mindfulMeals,
                window: context.profile.eatingWindow,
                l
            )
            var values: [String: Any] = ["day": day.navigation("/meals", l)]
            if !rows.isEmpty { values["list"] = ["items": rows.reversed().map(\.values)] }
            return app.renderer.page("recovery-meals", values, title: l.text("web.meals.title"), tab: nil, context: context)
        }
        let report = snapshot.report
        let meals = snapshot.meals.reversed().map { MealRow($0, window: context.profile.eatingWindow, l).values }
        let summary = report.macros.map { MacroView($0, l) }
        var values: [String: Any] = [
            "day": day.navigation("/meals", l), "logHref": "/log" + day.query, "backHref": "/" + day.query,
            "totals": l.text("web.meals.totals", ["eaten": .integer(report.calories.eatenKcal), "target": .integer(report.calories.targetKcal)]),
            "macros": summary.map(\.values),
            "spoken": l.text(
                meals.count == 1 ? "web.meals.spoken.one" : "web.meals.spoken.other",
                [
                    "eaten": .integer(report.calories.eatenKcal), "target": .integer(report.calories.targetKcal), "count": .integer(meals.count),
                ]
            ) + " " + summary.map(\.spoken).joined(separator: " "),
        ]
        // meals noted mindfully while recovery mode was on stay in the day's list, without numbers
        let mindful = snapshot.mindfulMeals.reversed().map { MindfulRow($0, l).values }
        if !meals.isEmpty || !mindful.isEmpty { values["list"] = ["items": meals, "mindful": mindful] }
        return app.renderer.page("meals", values, title: l.text("web.meals.title"), tab: nil, context: context)
    }

    func editScreen(_ request: Request, context: OnboardedContext) async throws -> Response {
        let meal = try existingMeal(context)
        let e = meal.entry
        if context.settings.recoveryMode {
            let values = ["name": e.name, "time": e.localTime.formatted, "moment": "\(context.profile.eatingWindow.moment(of: e))"]
            return app.recoveryEditPage(
                action: "/meals/\(meal.id.uuidString)",
                name: e.name,
                mindful: false,
                state: FormState(values: values),
                context: context
            )
        }
        let l = app.localizer(context)
        // a meal from a food is changed by its amount, unless the user asks for the values
        if request.uri.queryParameters["values"] == nil, let (food, grams) = try app.store.mealFood(meal.id, language: context.language) {
            let values = [
                "name": e.name, "amount": l.typed(grams), "unit": FoodUnit.grams.id, "time": e.localTime.formatted,
                "date": e.localDate.iso, "moment": "\(context.profile.eatingWindow.moment(of: e))",
            ]
            return editPage(meal, food: food, state: FormState(values: values), context: context)
        }
        let values = [
            "name": e.name, "kcal": "\(e.kcal)", "protein": e.proteinG.map(l.typed) ?? "", "carbs": e.carbsG.map(l.typed) ?? "",
            "fat": e.fatG.map(l.typed) ?? "", "fiber": e.fiberG.map(l.typed) ?? "", "time": e.localTime.formatted, "date": e.localDate.iso,
            "moment": "\(context.profile.eatingWindow.moment(of: e))",
        ]
        return editPage(meal, state: FormState(values: values), context: context)
    }

    func edit(_ request: Request, context: OnboardedContext) async throws -> Response {
        let meal = try existingMeal(context)
        var state = FormState(values: context.form.typed)
        let recovery = context.settings.recoveryMode
        // the amount form of a meal from a food (its food as it is now)
        let food = try context.form["amount"] == nil || recovery ? nil : app.store.mealFood(meal.id, language: context.language)?.food
        do {
            if let food {
                let form = try context.decode(PortionForm.self)
                let grams = try app.portionGrams(form, food: food, app.localizer(context))
                let entry = try app.editedMeal(meal.entry, food: food, grams: grams, name: context.form["name"], form: form, context: context)
                try app.store.editMeal(meal.id, to: entry, grams: grams)
            } else {
                let entry =
                    try recovery
                    ? recoveryEdit(meal, context: context)
                    : app.editedMeal(from: context.decode(MealForm.self), context: context)
                try app.store.editMeal(meal.id, to: entry)
            }
        } catch let error as FieldError {
            state.errors[error.field] = error.message
            if recovery {
                return app.recoveryEditPage(
                    action: "/meals/\(meal.id.uuidString)",
                    name: meal.entry.name,
                    mindful: false,
                    state: state,
                    context: context,
                    status: .unprocessableContent
                )
            }
            return editPage(meal, food: food, state: state, context: context, status: .unprocessableContent)
        }
        return app.redirect("/", toast: .mealUpdated)
    }

    func delete(_ request: Request, context: OnboardedContext) async throws -> Response {
        let meal = try existingMeal(context)
        try app.store.deleteMeal(meal.id, timeZone: app.timeZone)
        return app.redirect("/", toast: .mealDeleted, undo: meal.id)
    }

    /// The meal logged again now, or (kept offline) when the phone logged it, with its client id.
    func again(_ request: Request, context: OnboardedContext) async throws -> Response {
        let offline = try app.offlineWrite(context)
        if let replayed = try app.replayed(offline) { return replayed }
        let meal = try existingMeal(context)
        let wasLit = try app.streakLit()
        let instant = offline.loggedAt?.instant
        if let id = offline.id {
            _ = try app.store.logAgain(meal.id, as: id, at: instant, timeZone: app.timeZone)
        } else {
            _ = try app.store.logAgain(meal.id, at: instant, timeZone: app.timeZone)
        }
        return try app.mealsSaved(count: 1, streakWasLit: wasLit)
    }

    /// A meal changed in recovery mode: its name, time and moment from the form; its calories
    /// and macros as they were (the form never showed them).
    private func recoveryEdit(_ meal: Meal, context: OnboardedContext) throws -> MealEntry {
        let l = app.localizer(context)
        let e = meal.entry
        let instant = try app.mealInstant(WhenForm(date: e.localDate.iso, time: context.form["time"]), l)
        do throws(ValidationError) {
            return try MealEntry(
                name: context.form["name"] ?? "",
                kcal: e.kcal,
                proteinG: e.proteinG,
                carbsG: e.carbsG,
                fatG: e.fatG,
                fiberG: e.fiberG,
                at: instant,
                in: app.timeZone,
                moment: try app.moment(context.form["moment"], context)
            )
        } catch {
            throw FieldError(field: WebApp.mealField(error.field), message: l.render(error.message))
        }
    }

    private func existingMeal(_ context: OnboardedContext) throws -> Meal {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)), let meal = try app.store.meal(id) else {
            throw HTTPError(.notFound, message: app.localizer(context).text("web.error.mealNotFound"))
        }
        return meal
    }

    private func editPage(
        _ meal: Meal,
        food: Food? = nil,
        state: FormState,
        context: OnboardedContext,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let l = app.localizer(context)
        var values = state.template
        if let food {
            let unit = state.values["unit"] ?? FoodUnit.grams.id
            values["food"] = ["kcalPer100": String(food.per100g.kcal)]
            values["units"] = food.webUnits(keeping: unit).map {
                ["value": $0.value, "label": $0.label, "gramsPerUnit": String($0.gramsPerUnit), "selected": $0.value == unit]
            }
            if let typed = state.values["amount"].flatMap(NumberInput.decimal), let unit = FoodUnit(id: unit),
                let grams = food.grams(amount: typed, unit: unit), Food.gramRange.contains(grams)
            {
                values["preview"] = "≈ \(Int(grams.rounded())) g · \(Int((food.per100g.kcal * grams / 100).rounded())) kcal"
            }
        }
        values["id"] = meal.id.uuidString
        values["deleteLabel"] = l.text("web.meals.delete", ["name": .text(meal.entry.name)])
        values["moments"] = app.momentOptions(context, selected: state.values["moment"])
        values["momentId"] = "edit-moment"
        return app.renderer.page("meal-edit", values, title: l.text("web.meals.editTitle"), tab: nil, context: context, status: status)
    }
}

/// One meal of a list: name, energy, time, macros when given, and its notes.
struct MealRow {
    let values: [String: Any]

    init(_ meal: Meal, window: EatingWindow, _ l: Localizer) {
        let e = meal.entry
        var values: [String: Any] = [
            "id": meal.id.uuidString, "name": e.name, "time": e.localTime.formatted,
            "kcal": l.number(Double(e.kcal), digits: 0),
        ]
        // every key is always set: a missing one would be looked up in the enclosing context
        // (Mustache), which once showed the day's macro data in a meal's row
        values["hasMacros"] = e.hasMacros
        values["macros"] = e.hasMacros ? l.macros(protein: e.proteinG ?? 0, carbs: e.carbsG ?? 0, fat: e.fatG ?? 0) : ""
        values["edit"] = l.text("web.meals.edit", ["name": .text(e.name)])
        values["againLabel"] = l.text("web.meals.againLabel", ["name": .text(e.name)])
        values["deleteLabel"] = l.text("web.meals.delete", ["name": .text(e.name)])
        // docs/rules.md §4: warnings, never a refusal (outside the window, macros that do not add up); the
        // nudge for missing macros belongs to the moment of saving, not to the list
        values["notes"] = MealNotes.notes(for: e, window: window).compactMap { note -> String? in
            if case .macrosMissing = note { return nil }
            return l.render(note.message)
        }
        self.values = values
    }
}

extension WebApp {
    /// 12.5 → "12.5", 12 → "12": how a number is shown back in a form field.
    static func plain(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}
