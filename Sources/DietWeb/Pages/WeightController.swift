import DietCore
import DietStore
import Foundation
import Hummingbird

/// Weight entry with the whole + decimal picker; it starts at the last weight, else the
/// onboarding weight (docs/rules.md §4).
struct WeightController: Controller {
    let app: WebApp

    func register(on group: RouterGroup<OnboardedContext>) {
        group.get("/weight", use: screen)
        group.post("/weight", use: save)
    }

    /// The field starts at the latest weight, else the onboarding weight (docs/rules.md §4).
    func screen(_ request: Request, context: OnboardedContext) async throws -> Response {
        if context.settings.recoveryMode { return app.restPage("weight", context: context) }
        guard let snapshot = try store.today(timeZone: timeZone) else { return redirect("/onboarding") }
        let value = localizer(context).number(snapshot.report.weight.pickerStartKg, digits: 1)
        return page(FormState(values: ["weight": value]), context: context)
    }

    func save(_ request: Request, context: OnboardedContext) async throws -> Response {
        let l = localizer(context)
        let form = try context.decode(WeightForm.self)
        // a weight kept offline: its day is the day it was logged, and the later one of a day wins
        let loggedAt = try app.offlineWrite(context).loggedAt
        var state = FormState(values: context.form.typed)
        let wasLit = try app.streakLit()
        let goalBefore = try store.goalForecast(timeZone: timeZone)
        do {
            let kg = try NumberInput.value(form.weight, field: .weight, range: Profile.weightRange, digits: 1, unit: "kg")
            try store.logWeight(try WeightEntry(date: loggedAt?.day ?? today, kg: kg), timeZone: timeZone, loggedAt: loggedAt?.instant)
        } catch {
            state.errors["weight"] = message(for: error, l)
            return page(state, context: context, status: .unprocessableContent)
        }
        let goalAfter = try store.goalForecast(timeZone: timeZone)
        let reached = goalBefore?.isReached == false && goalAfter?.isReached == true
        return app.weightSaved(streakWasLit: wasLit, goalReached: reached && !context.settings.recoveryMode)
    }

    /// In recovery mode the weight rests (docs/rules.md §8): the kind page, never the typed number.
    private func page(_ state: FormState, context: OnboardedContext, status: HTTPResponse.Status = .ok) -> Response {
        if context.settings.recoveryMode { return app.restPage("weight", context: context) }
        var values = state.template
        values["value"] = state.values["weight"] ?? ""
        return renderer.page("weight", values, title: localizer(context).text("web.weight.title"), tab: nil, context: context, status: status)
    }
}
