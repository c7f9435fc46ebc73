import DietCore
import DietStore
import Foundation
import Hummingbird

/// Recovery mode (docs/rules.md §8): turning it on (one step) and off (asked once), and changing or
/// deleting a mindful meal. Mindful meals are logged through `POST /log/text` with
/// `mindful=yes`: a meal in words, the route the service worker already keeps while offline.
struct RecoveryController: Controller {
    let app: WebApp

    func register(on group: RouterGroup<OnboardedContext>) {
        group.post("/settings/recovery/on", use: turnOn)
        group.get("/settings/recovery/off", use: offScreen)
        group.post("/settings/recovery/off", use: turnOff)
        group.get("/mindful/:id", use: editScreen)
        group.post("/mindful/:id", use: edit)
        group.post("/mindful/:id/delete", use: delete)
    }

    /// One step: the numbers rest from the next page on.
    func turnOn(_ request: Request, context: OnboardedContext) async throws -> Response {
        try store.setRecoveryMode(true, timeZone: timeZone)
        return redirect("/", toast: .settingsSaved)
    }

    /// The one question before the numbers come back; a page, so it works without JavaScript.
    func offScreen(_ request: Request, context: OnboardedContext) async throws -> Response {
        guard context.settings.recoveryMode else { return redirect("/settings") }
        let l = localizer(context)
        return renderer.page(
            "recovery-off",
            ["mascot": Mascot.values(.gentle, size: 96)],
            title: l.text("web.recovery.off.title"),
            tab: .settings,
            context: context
        )
    }

    /// Off: back to the dashboard of today, which says nothing about the time in between.
    func turnOff(_ request: Request, context: OnboardedContext) async throws -> Response {
        try store.setRecoveryMode(false, timeZone: timeZone)
        return redirect("/", toast: .settingsSaved)
    }

    func editScreen(_ request: Request, context: OnboardedContext) async throws -> Response {
        let meal = try mindfulMeal(context)
        let e = meal.entry
        let values = [
            "name": e.name, "hunger": "\(e.hunger.rawValue)", "fullness": "\(e.fullness.rawValue)",
            "feeling": e.feeling?.rawValue ?? "", "time": e.localTime.formatted,
            "moment": "\(context.profile.eatingWindow.moment(of: e))",
        ]
        return app.recoveryEditPage(
            action: "/mindful/\(meal.id.uuidString)",
            name: e.name,
            mindful: true,
            state: FormState(values: values),
            context: context
        )
    }

    func edit(_ request: Request, context: OnboardedContext) async throws -> Response {
        let meal = try mindfulMeal(context)
        do {
            let entry = try app.mindfulEntry(context: context, day: meal.entry.localDate, loggedAt: nil)
            try store.editMindfulMeal(meal.id, to: entry)
        } catch let error as FieldError {
            var state = FormState(values: context.form.typed)
            state.errors[error.field] = error.message
            return app.recoveryEditPage(
                action: "/mindful/\(meal.id.uuidString)",
                name: meal.entry.name,
                mindful: true,
                state: state,
                context: context,
                status: .unprocessableContent
            )
        }
        return redirect("/", toast: .mealUpdated)
    }

    func delete(_ request: Request, context: OnboardedContext) async throws -> Response {
        try store.deleteMindfulMeal(try mindfulMeal(context).id)
        return redirect("/", toast: .mealDeleted)
    }

    private func mindfulMeal(_ context: OnboardedContext) throws -> MindfulMeal {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)), let meal = try store.mindfulMeal(id) else {
            throw HTTPError(.notFound, message: localizer(context).text("web.error.mealNotFound"))
        }
        return meal
    }
}

/// The pages of recovery mode: mindful logging, today's meals by eating moment, and the kind
/// page standing where numbers would be.
extension WebApp {
    /// Mindful logging: what was eaten in words, hunger before and fullness after on five
    /// steps, an optional feeling. `note` says why a numeric flow (a food, a recipe) led here.
    func mindfulLogPage(
        _ state: FormState,
        note: Bool = false,
        context: OnboardedContext,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let l = localizer(context)
        var values = state.template
        values["window"] = WindowBanner(context.profile.eatingWindow, l).values
        values["scales"] = scales(state, l)
        values["feelings"] = feelings(state, l)
        values["hasFeelings"] = true
        values["moments"] = momentOptions(context, selected: state.values["moment"])
        values["momentId"] = "mindful-moment"
        values["time"] = state.values["time"] ?? TimeOfDay(clock.now(), in: timeZone).formatted
        values["note"] = note
        return renderer.page("recovery-log", values, title: l.text("web.recovery.log.title"), tab: nil, context: context, status: status)
    }

    /// Saves the mindful form (kept offline too: its client id and moment), or shows it again
    /// with the field's message.
    func logMindful(_ offline: OfflineWrite, context: OnboardedContext) throws -> Response {
        if let id = offline.id, try store.mindfulMeal(id) != nil { return redirect("/", toast: .mealSaved) }
        do {
            let entry = try mindfulEntry(context: context, day: nil, loggedAt: offline.loggedAt)
            let wasLit = try streakLit()
            try store.logMindfulMeal(entry, id: offline.id ?? UUID())
            return redirect("/", toast: wasLit ? .mealSaved : .mealStreak)
        } catch let error as FieldError {
            var state = FormState(values: context.form.typed)
            state.errors[error.field] = error.message
            return mindfulLogPage(state, context: context, status: .unprocessableContent)
        }
    }

    /// The mindful meal the form describes, on `day` (editing) or today / the day it was kept
    /// offline.
    func mindfulEntry(context: OnboardedContext, day: LocalDate?, loggedAt: OfflineWrite.Moment?) throws -> MindfulMealEntry {
        let l = localizer(context)
        let form = context.form
        let instant = try mealInstant(WhenForm(date: day?.iso, time: form["time"]), l, loggedAt: loggedAt)
        do throws(ValidationError) {
            return try MindfulMealEntry(
                name: form["name"] ?? "",
                hunger: form["hunger"],
                fullness: form["fullness"],
                feeling: form["feeling"],
                at: instant,
                in: timeZone,
                moment: try moment(form["moment"], context),
                language: context.language
            )
        } catch {
            let field =
                [
                    ValidationError.Field.hunger: "hunger", .fullness: "fullness", .mealFeeling: "feeling",
                    .eatingMoment: "moment", .time: "time",
                ][error.field] ?? "name"
            throw FieldError(field: field, message: l.render(error.message))
        }
    }

    /// Changing a meal in recovery mode: its words, time and moment (a mindful meal also its
    /// hunger, fullness and feeling); a meal logged with numbers keeps them, unseen.
    func recoveryEditPage(
        action: String,
        name: String,
        mindful: Bool,
        state: FormState,
        context: OnboardedContext,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let l = localizer(context)
        var values = state.template
        values["action"] = action
        values["deleteAction"] = action + "/delete"
        values["deleteLabel"] = l.text("web.meals.delete", ["name": .text(name)])
        values["time"] = state.values["time"] ?? ""
        if mindful {
            values["scales"] = scales(state, l)
            values["feelings"] = feelings(state, l)
            values["hasFeelings"] = true
        }
        values["moments"] = momentOptions(context, selected: state.values["moment"])
        values["momentId"] = "edit-moment"
        return renderer.page("recovery-meal-edit", values, title: l.text("web.recovery.edit.title"), tab: nil, context: context, status: status)
    }

    /// A page standing where numbers would be: what rests, and why, kindly.
    func restPage(_ key: String, context: some PageContext, tab: Tab? = nil) -> Response {
        let l = localizer(context)
        let values: [String: Any] = [
            "title": l.text("web.recovery.rest.\(key)Title"), "text": l.text("web.recovery.rest.\(key)Text"),
            "mascot": Mascot.values(.gentle, size: 96),
        ]
        return renderer.page("recovery-rest", values, title: l.text("web.recovery.rest.\(key)Title"), tab: tab, context: context)
    }

    /// Hunger before and fullness after: five steps each, in words.
    private func scales(_ state: FormState, _ l: Localizer) -> [[String: Any]] {
        ["hunger", "fullness"].map { field in
            [
                "field": field, "legend": l.text("web.recovery.log.\(field)"), "error": state.errors[field] ?? "",
                "hasError": state.errors[field] != nil,
                "options": HungerScale.allCases.map { step in
                    ["value": "\(step.rawValue)", "label": l.render(step.word), "checked": state.values[field] == "\(step.rawValue)"] as [String: Any]
                },
            ] as [String: Any]
        }
    }

    private func feelings(_ state: FormState, _ l: Localizer) -> [[String: Any]] {
        let chosen = state.values["feeling"] ?? ""
        return [["value": "", "label": l.text("web.recovery.log.noFeeling"), "checked": chosen.isEmpty] as [String: Any]]
            + MealFeeling.allCases.map { ["value": $0.rawValue, "label": l.render($0.word), "checked": $0.rawValue == chosen] as [String: Any] }
    }
}
