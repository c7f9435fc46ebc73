import DietCore
import DietStore
import Foundation
import Hummingbird

/// Onboarding in the browser: DietCore's `Onboarding` state machine, replayed from the answers
/// the form carries, so the server keeps no state between steps; Back keeps every answer.
struct OnboardingController: Controller {
    let app: WebApp

    func register(on router: Router<WebContext>) {
        router.get("/onboarding", use: start)
        router.post("/onboarding", use: step)
    }

    func start(_ request: Request, context: WebContext) async throws -> Response {
        guard context.settings == nil else { return redirect("/") }
        var context = context
        var chosen: Language?
        if let code = request.uri.queryParameters.get("lang"), let language = Language(rawValue: code) {
            context.language = language
            chosen = language
        }
        var response = onboardingPage(Onboarding(language: context.language), form: FormData(), error: nil, context: context)
        if let chosen {
            response.setCookie(
                Cookie(
                    name: SessionMiddleware.languageCookie,
                    value: chosen.rawValue,
                    path: "/",
                    httpOnly: true,
                    sameSite: .strict
                )
            )
        }
        return response
    }

    /// One step's answer; the form carries every earlier answer, the steps before are replayed.
    /// The form stays `FormData`: which fields it holds depends on the step.
    func step(_ request: Request, context: WebContext) async throws -> Response {
        guard context.settings == nil else { return redirect("/") }
        var context = context
        let form = context.form
        if let code = form["language"], let language = Language(rawValue: code) { context.language = language }
        let l = localizer(context)
        let current = OnboardingStep(rawValue: form["step"] ?? "") ?? .welcome
        var onboarding = Onboarding(language: context.language)
        // replay the answers of the steps before this one
        while onboarding.step != current && !onboarding.isComplete {
            if case .failure(let error) = answer(onboarding.step, form: form, onboarding: &onboarding, l) {
                return onboardingPage(onboarding, form: form, error: error, context: context)
            }
        }
        if form["action"] == "back" {
            onboarding.back()
            return onboardingPage(onboarding, form: form, error: nil, context: context)
        }
        if case .failure(let error) = answer(current, form: form, onboarding: &onboarding, l) {
            return onboardingPage(onboarding, form: form, error: error, context: context, status: .unprocessableContent)
        }
        guard onboarding.isComplete else { return onboardingPage(onboarding, form: form, error: nil, context: context) }
        do {
            let result = try onboarding.result(clock: clock, timeZone: timeZone)
            try store.completeOnboarding(result.profile, timeZone: timeZone)
        } catch let error as StoreError where error == .alreadyOnboarded {
            return redirect("/")
        } catch {
            return onboardingPage(
                onboarding,
                form: form,
                error: FieldError(field: "step", message: message(for: error, l)),
                context: context,
                status: .unprocessableContent
            )
        }
        return redirect("/", toast: .welcome)
    }

    /// Feeds one step's answer from the form into `onboarding`.
    private func answer(_ step: OnboardingStep, form: FormData, onboarding: inout Onboarding, _ l: Localizer) -> Result<Void, FieldError> {
        let answer: OnboardingAnswer
        switch step {
        case .welcome: answer = .start
        case .sex:
            guard let sex = form["sex"].flatMap(Sex.init(rawValue:)) else { return .failure(choose("sex", l)) }
            answer = .sex(sex)
        case .age, .height, .weight:
            do throws(ValidationError) {
                answer = try Self.numberAnswer(step, form: form)
            } catch {
                return .failure(FieldError(field: step.rawValue, message: l.render(error.message)))
            }
        case .activity:
            guard let level = form["activity"].flatMap(ActivityLevel.init(rawValue:)) else { return .failure(choose("activity", l)) }
            answer = .activity(level)
        case .goal:
            guard let goal = form["goal"].flatMap(Goal.init(rawValue:)) else { return .failure(choose("goal", l)) }
            answer = .goal(goal)
        case .goalWeight:
            // optional: empty is no goal weight
            let typed = form["goal_weight"]?.trimmingCharacters(in: .whitespaces) ?? ""
            do throws(ValidationError) {
                answer = .goalWeightKg(
                    typed.isEmpty ? nil : try NumberInput.value(typed, field: .goalWeight, range: Profile.weightRange, digits: 1, unit: "kg")
                )
            } catch {
                return .failure(FieldError(field: "goal_weight", message: l.render(error.message)))
            }
        case .eatingWindow:
            switch WindowForm.parse(form, l) {
            case .success(let window): answer = .eatingWindow(window)
            case .failure(let error): return .failure(error)
            }
        }
        do {
            try onboarding.answer(answer)
            return .success(())
        } catch {
            let field =
                switch step {
                case .eatingWindow: "window_end"
                case .goalWeight: "goal_weight"
                default: step.rawValue
                }
            return .failure(FieldError(field: field, message: l.render(error.message)))
        }
    }

    /// Age, height or weight as typed ("72,5" or "72.5"), within the profile's ranges.
    private static func numberAnswer(_ step: OnboardingStep, form: FormData) throws(ValidationError) -> OnboardingAnswer {
        switch step {
        case .age: .age(try NumberInput.whole(form["age"], field: .age, range: Profile.ageRange, unit: nil))
        case .height: .heightCm(try NumberInput.value(form["height"], field: .height, range: Profile.heightRange, digits: 0, unit: "cm"))
        default: .weightKg(try NumberInput.value(form["weight"], field: .weight, range: Profile.weightRange, digits: 1, unit: "kg"))
        }
    }

    private func choose(_ field: String, _ l: Localizer) -> FieldError {
        FieldError(field: field, message: l.text("web.error.choose"))
    }

    /// The page of `onboarding.step`, carrying the other answers as hidden fields.
    func onboardingPage(
        _ onboarding: Onboarding,
        form: FormData,
        error: FieldError?,
        context: WebContext,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let l = localizer(context)
        let step = onboarding.step
        let fields = ["sex", "age", "height", "weight", "activity", "goal", "goal_weight", "window_start", "window_end"]
        let own: Set<String> =
            switch step {
            case .welcome: ["language"]
            case .sex: ["sex"]
            case .age: ["age"]
            case .height: ["height"]
            case .weight: ["weight"]
            case .activity: ["activity"]
            case .goal: ["goal"]
            case .goalWeight: ["goal_weight"]
            case .eatingWindow: ["window_start", "window_end", "moment"]
            }
        var hidden: [[String: String]] = fields.filter { !own.contains($0) }.compactMap { name in
            form[name].map { ["name": name, "value": $0] }
        }
        if !own.contains("moment") { hidden += form.all("moment").map { ["name": "moment", "value": $0] } }
        if step != .welcome { hidden.append(["name": "language", "value": context.language.rawValue]) }
        let progress = onboarding.progress
        var values: [String: Any] = [
            "step": step.rawValue, "title": l.render(step.title), "subtitle": l.render(step.subtitle),
            "progress": l.render(onboarding.progressMessage), "progressValue": progress.index, "progressMax": progress.count,
            "hidden": hidden, "canGoBack": step != .welcome, step.rawValue: true,
        ]
        if let error { values["error"] = ["field": error.field, "message": error.message, error.field: true] as [String: Any] }
        values.merge(stepValues(onboarding, form: form, context: context)) { _, new in new }
        return renderer.page("onboarding", values, title: l.render(step.title), tab: nil, context: context, status: status)
    }

    /// The values of the step's own input: its choices or its current value.
    private func stepValues(_ onboarding: Onboarding, form: FormData, context: WebContext) -> [String: Any] {
        let l = localizer(context)
        let sex = form["sex"] ?? onboarding.sex?.rawValue
        var values: [String: Any] = [:]
        switch onboarding.step {
        case .welcome:
            values["languages"] = Language.allCases.map {
                ["value": $0.rawValue, "label": Localizer($0).text("web.language.name"), "checked": $0 == context.language] as [String: Any]
            }
        case .sex:
            values["choices"] = Sex.allCases.map {
                ["value": $0.rawValue, "label": l.text("web.sex.\($0.rawValue)"), "checked": $0.rawValue == sex] as [String: Any]
            }
        case .age: values["value"] = form["age"] ?? onboarding.age.map(String.init) ?? ""
        case .height: values["value"] = form["height"] ?? onboarding.heightCm.map { l.number($0, digits: 0) } ?? ""
        case .weight:
            values["value"] = form["weight"] ?? l.number(onboarding.proposedWeightKg, digits: 1)
        case .activity:
            values["choices"] = Options.choices(ActivityLevel.allCases, selected: form["activity"] ?? onboarding.activity?.rawValue) {
                l.text("web.activity.\($0.rawValue)")
            }
        case .goal:
            values["choices"] = Options.choices(Goal.allCases, selected: form["goal"] ?? onboarding.goal?.rawValue) {
                l.text("goal.\($0.rawValue)")
            }
        case .goalWeight:
            values["value"] = form["goal_weight"] ?? onboarding.goalWeightKg.map { l.number($0, digits: 1) } ?? ""
            values["goalWeightLabel"] = l.text(onboarding.goal == .gain ? "web.onboarding.goalWeightGain" : "web.onboarding.goalWeightLose")
        case .eatingWindow:
            let window = onboarding.eatingWindow
            let moments = form.all("moment")
            values["window"] = WindowForm.values(
                start: form["window_start"] ?? window.start.formatted,
                end: form["window_end"] ?? window.end.formatted,
                moments: moments.isEmpty ? window.moments.map(\.formatted) : moments
            )
        }
        return values
    }
}
