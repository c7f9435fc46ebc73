import DietCore
import DietStore
import DietSync
import Foundation
import Hummingbird
import SyncProtocol

/// Settings: profile, eating window, language, plan (deficit, preset, locked goals), sync
/// account and deleting everything (export and import: DataController).
struct SettingsController: Controller {
    let app: WebApp

    /// Signing out and syncing work before onboarding too; the rest needs a profile.
    func register(public router: Router<WebContext>, onboarded group: RouterGroup<OnboardedContext>) {
        group.get("/settings", use: screen)
        group.post("/settings/profile", use: saveBody)
        group.post("/settings/goal-maintain", use: switchToMaintain)
        group.post("/settings/language", use: saveLanguage)
        group.post("/settings/plan", use: savePlan)
        group.post("/settings/maintenance", use: saveMaintenance)
        group.get("/settings/window", use: windowScreen)
        group.post("/settings/window", use: saveWindow)
        group.post("/settings/delete", use: deleteEverything)
        group.post("/settings/account/signin", use: signIn)
        router.get("/about", use: about)
        router.post("/settings/account/signout") { _, _ in
            try? await sync.exclusively { try await $0.signOut() }
            return redirect("/settings", toast: .signedOut)
        }
        router.post("/settings/account/sync") { _, _ in
            do {
                _ = try await sync.exclusively { try await $0.syncWithRetry() }
                return redirect("/settings", toast: .synced)
            } catch {
                return redirect("/settings", toast: .syncFailed)
            }
        }
    }

    func screen(_ request: Request, context: OnboardedContext) async throws -> Response {
        try settingsPage(context.settings, state: FormState(), context: context)
    }

    /// The about page: where the food data comes from, with the attribution its licences ask for.
    func about(_ request: Request, context: WebContext) async throws -> Response {
        let l = localizer(context)
        let sources = try store.foodDataSources().map { source -> [String: Any] in
            [
                // the project's own dishes have no page to link to
                "id": source.id, "name": source.name, "attribution": source.attribution, "url": source.url.isEmpty ? false : source.url,
                "foods": l.text("web.about.foods", ["count": .integer(source.foods)]),
                "licence": l.text("web.about.licence", ["licence": .text(source.licence)]),
                "source": l.text("web.about.source"),
            ]
        }
        return renderer.page("about", ["sources": sources], title: l.text("web.about.title"), tab: nil, context: context)
    }

    func saveBody(_ request: Request, context: OnboardedContext) async throws -> Response {
        let form = try context.decode(ProfileForm.self)
        return try saveProfile(context) { profile, l in
            guard let sex = form.sex.given.flatMap(Sex.init(rawValue:)) else { throw FieldError(field: "sex", message: l.text("web.error.choose")) }
            guard let activity = form.activity.given.flatMap(ActivityLevel.init(rawValue:)) else {
                throw FieldError(field: "activity", message: l.text("web.error.choose"))
            }
            guard let goal = form.goal.given.flatMap(Goal.init(rawValue:)) else {
                throw FieldError(field: "goal", message: l.text("web.error.choose"))
            }
            do throws(DietCore.ValidationError) {
                profile.age = try NumberInput.whole(form.age, field: .age, range: Profile.ageRange, unit: nil)
                profile.heightCm = try NumberInput.value(form.height, field: .height, range: Profile.heightRange, digits: 0, unit: "cm")
            } catch {
                throw FieldError(field: error.field == .height ? "height" : "age", message: l.render(error.message))
            }
            profile.birthDate = nil
            profile.sex = sex
            profile.activityLevel = activity
            profile.goal = goal
            // the goal weight: empty is none; with the goal maintain it is not asked
            let typed = form.goalWeight?.trimmingCharacters(in: .whitespaces) ?? ""
            do throws(DietCore.ValidationError) {
                if typed.isEmpty || goal == .maintain {
                    profile.goalWeightKg = nil
                } else {
                    let kg = try NumberInput.value(typed, field: .goalWeight, range: Profile.weightRange, digits: 1, unit: "kg")
                    let latest = try? store.latestWeightKg(through: today)
                    try Profile.check(goalWeightKg: kg, goal: goal, currentKg: latest ?? profile.weightKg)
                    profile.goalWeightKg = Profile.roundedWeight(kg)
                }
            } catch {
                throw FieldError(field: "goal_weight", message: l.render(error.message))
            }
            return { error in error.field == .height ? "height" : error.field == .goalWeight ? "goal_weight" : "age" }
        }
    }

    /// The goal weight reached: the goal becomes maintain (docs/rules.md §2).
    func switchToMaintain(_ request: Request, context: OnboardedContext) async throws -> Response {
        var profile = context.settings.profile
        profile.goal = .maintain
        profile.goalWeightKg = nil
        try store.updateProfile(profile, timeZone: timeZone)
        return redirect("/", toast: .settingsSaved)
    }

    func saveLanguage(_ request: Request, context: OnboardedContext) async throws -> Response {
        let form = try context.decode(LanguageForm.self)
        return try saveProfile(context) { profile, l in
            guard let language = form.language.given.flatMap(Language.init(rawValue:)) else {
                throw FieldError(field: "language", message: l.text("web.error.choose"))
            }
            profile.language = language
            return { _ in "language" }
        }
    }

    func savePlan(_ request: Request, context: OnboardedContext) async throws -> Response {
        let form = try context.decode(PlanForm.self)
        return try saveProfile(context) { profile, l in
            guard let preset = form.preset.given.flatMap(CyclePreset.init(rawValue:)) else {
                throw FieldError(field: "preset", message: l.text("web.error.choose"))
            }
            var deficit: Double?
            if preset != .study {
                do throws(DietCore.ValidationError) {
                    deficit = try NumberInput.value(form.deficit, field: .deficit, range: 10...35, digits: 0, unit: "%") / 100
                } catch {
                    throw FieldError(field: "deficit", message: l.render(error.message))
                }
            }
            profile = profile.applying(preset: preset, deficit: deficit)
            for kind in TargetKind.allCases {
                let texts = form.lock(kind)
                do throws(DietCore.ValidationError) {
                    profile.lockedGoals[kind] = try LockedGoals.parse(
                        kcal: texts[0],
                        protein: texts[1],
                        carbs: texts[2],
                        fat: texts[3],
                        floor: SafetyFloor.kcal(for: profile.sex)
                    )
                } catch {
                    throw FieldError(field: "lock_\(kind.rawValue)_kcal", message: l.render(error.message))
                }
            }
            return { _ in "deficit" }
        }
    }

    /// Accepts the estimate shown (recomputed here, never taken from the form), or goes back to the formula.
    func saveMaintenance(_ request: Request, context: OnboardedContext) async throws -> Response {
        if try context.decode(MaintenanceForm.self).use == "estimate", case .estimate(let estimate) = try maintenanceEstimate() {
            try store.acceptMaintenance(estimate.kcal)
        } else {
            try store.acceptMaintenance(nil)
        }
        return redirect("/settings", toast: .settingsSaved)
    }

    func windowScreen(_ request: Request, context: OnboardedContext) async throws -> Response {
        windowPage(WindowForm.values(context.profile.eatingWindow, localizer(context)), error: nil, context: context)
    }

    /// The window keeps `FormData`: its moments arrive as repeated `moment` fields (as in
    /// onboarding), their names as repeated `moment_name` fields in the same order; times and
    /// names are saved together, or nothing is.
    func saveWindow(_ request: Request, context: OnboardedContext) async throws -> Response {
        var settings = context.settings
        let form = context.form
        let l = localizer(context)
        switch WindowForm.parse(form, l) {
        case .success(let window):
            settings.profile.eatingWindow = window
            try store.updateProfile(settings.profile, timeZone: timeZone)
            return redirect("/", toast: .settingsSaved)
        case .failure(let error):
            let values = WindowForm.values(
                start: form["window_start"] ?? "",
                end: form["window_end"] ?? "",
                moments: form.all("moment"),
                names: form.all("moment_name"),
                invalidName: error.field == "moment_name" ? error.index : nil,
                l
            )
            return windowPage(values, error: error, context: context, status: .unprocessableContent)
        }
    }

    func deleteEverything(_ request: Request, context: OnboardedContext) async throws -> Response {
        let l = localizer(context)
        let typed = (try context.decode(DeleteForm.self).confirm.given ?? "").lowercased()
        guard typed == "delete" || typed == l.text("cli.deleteAccount.word").lowercased() else {
            var state = FormState()
            state.errors["confirm"] = l.text("web.delete.mismatch", ["word": .text(l.text("cli.deleteAccount.word"))])
            return try settingsPage(context.settings, state: state, context: context, status: .unprocessableContent)
        }
        // With an account, the server copy goes first: if that fails, nothing is deleted.
        if let account = try? AccountFile(databasePath: configuration.databasePath).load() {
            do {
                try await sync.exclusively { try await $0.deleteAccount() }
            } catch {
                var state = FormState()
                state.errors["confirm"] = syncMessage(error, server: account.server, l)
                return try settingsPage(context.settings, state: state, context: context, status: .serviceUnavailable)
            }
        }
        try store.purge()
        return redirect("/onboarding")
    }

    func signIn(_ request: Request, context: OnboardedContext) async throws -> Response {
        let l = localizer(context)
        let form = try context.decode(SignInForm.self)
        var state = FormState(values: context.form.typed.filter { $0.key != "password" })
        func refuse(_ field: String, _ message: String) throws -> Response {
            state.errors[field] = message
            return try settingsPage(context.settings, state: state, context: context, status: .unprocessableContent)
        }
        guard let text = form.server.given, let server = URL(string: text), ["http", "https"].contains(server.scheme?.lowercased()),
            server.host != nil
        else {
            return try refuse("server", l.text("web.account.serverInvalid", ["value": .text(form.server.given ?? "")]))
        }
        guard let email = form.email.given, email.contains("@") else { return try refuse("email", l.text("web.account.emailInvalid")) }
        guard let password = form.password, !password.isEmpty else { return try refuse("password", l.text("cli.account.error.noPassword")) }
        let credentials = PasswordCredentials(email: email, password: password, deviceName: l.text("web.account.deviceName"))
        let newAccount = form.new == "yes"
        do {
            try await sync.exclusively { synchronizer in
                _ = try await synchronizer.signIn(server: server, credentials: credentials, newAccount: newAccount)
                _ = try? await synchronizer.sync()
            }
        } catch {
            return try refuse("email", syncMessage(error, server: server, l))
        }
        return redirect("/settings", toast: .signedIn)
    }

    /// docs/rules.md §3a over the last 28 days: logged intake and the trend weight against formula TDEE.
    func maintenanceEstimate() throws -> AdaptiveMaintenance.Result {
        let days = try store.history(days: 28, through: today)
        let weights = try store.weights(from: today.adding(days: -27), through: today)
        guard let plan = try store.today(timeZone: timeZone)?.report.plan else {
            return .formula(tdeeKcal: 0, because: .tooFewDays(have: 0))
        }
        return AdaptiveMaintenance.estimate(
            days: days.map { .init(date: $0.date, intakeKcal: $0.intakeKcal) },
            weights: weights,
            tdeeKcal: Energy.wholeKcal(plan.tdee)
        )
    }

    /// Applies `edit` to the profile and saves it, or shows the settings again with the
    /// field's message and what was typed. `edit` returns which field a validation error of the
    /// whole profile belongs to.
    private func saveProfile(
        _ context: OnboardedContext,
        edit: (inout Profile, Localizer) throws -> (DietCore.ValidationError) -> String
    ) throws -> Response {
        let settings = context.settings
        let l = localizer(context)
        var profile = settings.profile
        do {
            let field = try edit(&profile, l)
            do { try profile.validate() } catch { throw FieldError(field: field(error), message: l.render(error.message)) }
        } catch let error as FieldError {
            var state = FormState(values: context.form.typed)
            state.errors[error.field] = error.message
            return try settingsPage(settings, state: state, context: context, status: .unprocessableContent)
        }
        try store.updateProfile(profile, timeZone: timeZone)
        return redirect("/settings", toast: .settingsSaved)
    }

    private func syncMessage(_ error: any Error, server: URL, _ l: Localizer) -> String {
        switch error {
        case SyncError.offline: l.text("cli.account.error.offline", ["server": .text(server.absoluteString)])
        default: l.text("web.account.failed", ["reason": .text(String(describing: error))])
        }
    }

    private func windowPage(_ values: [String: Any], error: FieldError?, context: OnboardedContext, status: HTTPResponse.Status = .ok) -> Response {
        var data: [String: Any] = ["window": values]
        if let error { data["error"] = ["message": error.message, error.field: true] as [String: Any] }
        return renderer.page("window", data, title: localizer(context).text("web.window.title"), tab: nil, context: context, status: status)
    }
}
