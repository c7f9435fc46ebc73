import DietCore
import DietStore
import Foundation
import Hummingbird

/// Weight entry with the whole + decimal picker; the default is the last weight, else the
/// one for the user's sex (SPEC §4).
extension WebApp {
    func addWeight(to router: Router<WebContext>) {
        router.get("/weight") { [self] _, context in
            guard let settings = context.settings else { return redirect("/onboarding") }
            let recent = try store.weights(from: today.adding(days: -3650), through: today)
            let kg = WeightTrend.pickerDefault(entries: recent, sex: settings.profile.sex)
            return weightPage(kg: kg, state: FormState(), context: context)
        }
        router.post("/weight") { [self] _, context in
            guard context.settings != nil else { return redirect("/onboarding") }
            let l = localizer(context)
            let form = context.form
            var state = FormState(values: form.typed)
            guard let kg = form.pickedWeightKg else {
                state.errors["weight_whole"] = l.text("web.error.number", ["value": .text(form["weight_whole"] ?? "")])
                return weightPage(kg: 80, state: state, context: context, status: .unprocessableContent)
            }
            let wasLit = try streakLit()
            do {
                try store.logWeight(try WeightEntry(date: today, kg: kg), timeZone: timeZone)
            } catch {
                state.errors["weight_whole"] = message(for: error, l)
                return weightPage(kg: min(200, max(30, kg)), state: state, context: context, status: .unprocessableContent)
            }
            return redirect("/", toast: wasLit ? .weightSaved : .streakLit)
        }
    }

    private func weightPage(kg: Double, state: FormState, context: WebContext, status: HTTPResponse.Status = .ok) -> Response {
        let l = localizer(context)
        var values = state.template
        values["picker"] = Options.weight(kg)
        return renderer.page("weight", values, title: l.text("web.weight.title"), tab: nil, context: context, status: status)
    }
}
