import DietCore
import DietStore
import Foundation
import Hummingbird

/// Weight entry with the whole + decimal picker; it starts at the last weight, else the
/// onboarding weight (SPEC §4).
struct WeightController: Controller {
    let app: WebApp

    func register(on group: RouterGroup<OnboardedContext>) {
        group.get("/weight", use: screen)
        group.post("/weight", use: save)
    }

    func screen(_ request: Request, context: OnboardedContext) async throws -> Response {
        let recent = try app.store.weights(from: app.today.adding(days: -3650), through: app.today)
        let kg = WeightTrend.pickerDefault(entries: recent, sex: context.profile.sex)
        return page(kg: kg, state: FormState(), context: context)
    }

    func save(_ request: Request, context: OnboardedContext) async throws -> Response {
        let l = app.localizer(context)
        let form = try context.decode(WeightForm.self)
        var state = FormState(values: context.form.typed)
        guard let kg = form.kg else {
            state.errors["weight_whole"] = l.text("web.error.number", ["value": .text(form.whole ?? "")])
            return page(kg: 80, state: state, context: context, status: .unprocessableContent)
        }
        let wasLit = try app.streakLit()
        do {
            try app.store.logWeight(try WeightEntry(date: app.today, kg: kg), timeZone: app.timeZone)
        } catch {
            state.errors["weight_whole"] = app.message(for: error, l)
            return page(kg: min(200, max(30, kg)), state: state, context: context, status: .unprocessableContent)
        }
        return app.redirect("/", toast: wasLit ? .weightSaved : .streakLit)
    }

    private func page(kg: Double, state: FormState, context: OnboardedContext, status: HTTPResponse.Status = .ok) -> Response {
        var values = state.template
        values["picker"] = Options.weight(kg)
        return app.renderer.page("weight", values, title: app.localizer(context).text("web.weight.title"), tab: nil, context: context,
                                 status: status)
    }
}
