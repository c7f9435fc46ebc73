import DietCore
import DietStore
import Foundation
import Hummingbird

/// Today's meal history with running totals, and editing or deleting one meal.
extension WebApp {
    func addMeals(to router: Router<WebContext>) {
        router.get("/meals") { [self] _, context in
            guard let settings = context.settings, let snapshot = try store.today(timeZone: timeZone) else { return redirect("/onboarding") }
            let l = localizer(context)
            let report = snapshot.report
            let meals = snapshot.meals.reversed().map { meal -> [String: Any] in
                var values: [String: Any] = ["id": meal.id.uuidString, "name": meal.entry.name, "time": meal.entry.localTime.formatted,
                                             "kcal": l.number(Double(meal.entry.kcal), digits: 0)]
                if meal.entry.hasMacros {
                    values["macros"] = l.macros(protein: meal.entry.proteinG ?? 0, carbs: meal.entry.carbsG ?? 0, fat: meal.entry.fatG ?? 0)
                }
                values["edit"] = l.text("web.meals.edit", ["name": .text(meal.entry.name)])
                // SPEC §4: warnings, never a refusal (outside the window, macros that do not add up); the
                // nudge for missing macros belongs to the moment of saving, not to the list
                values["notes"] = MealNotes.notes(for: meal.entry, window: settings.profile.eatingWindow).compactMap { note -> String? in
                    if case .macrosMissing = note { return nil }
                    return l.render(note.message)
                }
                return values
            }
            let summary = report.macros.map { MacroView($0, l) }
            var values: [String: Any] = [
                "totals": l.text("web.meals.totals", ["eaten": .integer(report.calories.eatenKcal), "target": .integer(report.calories.targetKcal)]),
                "macros": summary.map(\.values),
                "spoken": l.text(meals.count == 1 ? "web.meals.spoken.one" : "web.meals.spoken.other", [
                    "eaten": .integer(report.calories.eatenKcal), "target": .integer(report.calories.targetKcal), "count": .integer(meals.count),
                ]) + " " + summary.map(\.spoken).joined(separator: " "),
            ]
            if !meals.isEmpty { values["list"] = ["items": meals] }
            return renderer.page("meals", values, title: l.text("web.meals.title"), tab: nil, context: context)
        }
        router.get("/meals/:id") { [self] _, context in
            guard context.settings != nil else { return redirect("/onboarding") }
            let meal = try existingMeal(context)
            let e = meal.entry
            let values = [
                "name": e.name, "kcal": "\(e.kcal)", "protein": e.proteinG.map(Self.plain) ?? "", "carbs": e.carbsG.map(Self.plain) ?? "",
                "fat": e.fatG.map(Self.plain) ?? "", "fiber": e.fiberG.map(Self.plain) ?? "", "time": e.localTime.formatted, "date": e.localDate.iso,
            ]
            return editPage(meal, state: FormState(values: values), context: context)
        }
        router.post("/meals/:id") { [self] _, context in
            guard context.settings != nil else { return redirect("/onboarding") }
            let meal = try existingMeal(context)
            let l = localizer(context)
            var state = FormState(values: context.form.typed)
            do {
                let entry = try mealEntry(from: context.form, l)
                try store.editMeal(meal.id, to: entry)
            } catch let error as FieldError {
                state.errors[error.field] = error.message
                return editPage(meal, state: state, context: context, status: .unprocessableContent)
            }
            return redirect("/meals", toast: .mealUpdated)
        }
        router.post("/meals/:id/delete") { [self] _, context in
            let meal = try existingMeal(context)
            try store.deleteMeal(meal.id, timeZone: timeZone)
            return redirect("/meals", toast: .mealDeleted)
        }
        router.post("/meals/:id/again") { [self] _, context in
            let meal = try existingMeal(context)
            let wasLit = try streakLit()
            _ = try store.logAgain(meal.id, timeZone: timeZone)
            return try mealsSaved(count: 1, streakWasLit: wasLit)
        }
    }

    private func existingMeal(_ context: WebContext) throws -> Meal {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)), let meal = try store.meal(id) else {
            throw HTTPError(.notFound, message: localizer(context).text("web.error.mealNotFound"))
        }
        return meal
    }

    private func editPage(_ meal: Meal, state: FormState, context: WebContext, status: HTTPResponse.Status = .ok) -> Response {
        let l = localizer(context)
        var values = state.template
        values["id"] = meal.id.uuidString
        values["deleteLabel"] = l.text("web.meals.delete", ["name": .text(meal.entry.name)])
        return renderer.page("meal-edit", values, title: l.text("web.meals.editTitle"), tab: nil, context: context, status: status)
    }

    /// 12.5 → "12.5", 12 → "12": how a number is shown back in a form field.
    static func plain(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}
