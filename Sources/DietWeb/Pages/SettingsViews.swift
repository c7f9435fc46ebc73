import DietCore
import DietStore
import DietSync
import Foundation
import Hummingbird

/// The settings page's values: profile, plan with locked goals, maintenance and account.
extension SettingsController {
    func settingsPage(_ settings: UserSettings, state: FormState, context: OnboardedContext, status: HTTPResponse.Status = .ok) throws -> Response {
        let l = localizer(context)
        let p = settings.profile
        let v = state.values
        var values = state.template
        values["profile"] =
            [
                "age": v["age"] ?? "\(p.age(on: today))", "height": v["height"] ?? l.typed(p.heightCm),
                "sexes": Options.choices(Sex.allCases, selected: v["sex"] ?? p.sex.rawValue) { l.text("web.sex.\($0.rawValue)") },
                "activities": Options.choices(ActivityLevel.allCases, selected: v["activity"] ?? p.activityLevel.rawValue) {
                    l.text("web.activity.\($0.rawValue)")
                },
                "goals": Options.choices(Goal.allCases, selected: v["goal"] ?? p.goal.rawValue) { l.text("goal.\($0.rawValue)") },
                "goalWeight": v["goal_weight"] ?? p.goalWeightKg.map { l.number($0, digits: 1) } ?? "",
            ] as [String: Any]
        values["window"] = WindowBanner(p.eatingWindow, l).values
        values["languages"] = Language.allCases.map {
            ["value": $0.rawValue, "label": Localizer($0).text("web.language.name"), "selected": $0 == p.language] as [String: Any]
        }
        // recovery mode (docs/rules.md §8): the plan's numbers and the maintenance estimate rest
        values["recoveryOn"] = settings.recoveryMode
        if !settings.recoveryMode {
            values["plan"] = planValues(p, state: state, l)
            values["maintenance"] = try maintenanceValues(settings, l)
        }
        if let account = try accountValues(l) {
            values["account"] = account
        } else {
            values["signin"] = ["server": v["server"] ?? configuration.syncServer?.absoluteString ?? "", "email": v["email"] ?? ""]
        }
        values["deleteWord"] = l.text("cli.deleteAccount.word")
        if context.web.signInRequired, context.web.sessionTokenHash != nil {
            values["devices"] = ["count": l.text("web.settings.devicesCount", ["count": .integer(try store.webSessionCount())])]
        }
        return renderer.page("settings", values, title: l.text("web.settings.title"), tab: .settings, context: context, status: status)
    }

    private func planValues(_ p: Profile, state: FormState, _ l: Localizer) -> [String: Any] {
        let v = state.values
        return [
            "deficit": v["deficit"] ?? l.typed((p.deficit * 1000).rounded() / 10),
            "presets": Options.choices(CyclePreset.allCases, selected: v["preset"] ?? p.cyclePreset.rawValue) { l.text("web.preset.\($0.rawValue)") },
            "locks": TargetKind.allCases.map { kind -> [String: Any] in
                let lock = p.lockedGoals[kind]
                let prefix = "lock_\(kind.rawValue)_"
                func value(_ field: String, _ current: Double?) -> String { v[prefix + field] ?? current.map(l.typed) ?? "" }
                return [
                    "kind": kind.rawValue, "name": l.text("web.lock.\(kind.rawValue)"),
                    "kcal": value("kcal", lock.map { Double($0.kcal) }), "protein": value("protein", lock?.proteinG),
                    "carbs": value("carbs", lock?.carbsG), "fat": value("fat", lock?.fatG),
                    "error": state.errors[prefix + "kcal"] ?? "",
                ]
            },
        ]
    }

    private func maintenanceValues(_ settings: UserSettings, _ l: Localizer) throws -> [String: Any] {
        var maintenance: [String: Any] = [:]
        switch try maintenanceEstimate() {
        case .formula(let tdee, let shortfall):
            maintenance["text"] = l.render(shortfall.message)
            maintenance["formula"] = l.text("web.maintenance.formula", ["kcal": .integer(tdee)])
        case .estimate(let estimate):
            maintenance["text"] = l.render(estimate.message)
            maintenance["formula"] = l.text("web.maintenance.formula", ["kcal": .integer(estimate.tdeeKcal)])
            if settings.acceptedMaintenanceKcal != estimate.kcal {
                maintenance["offer"] = l.text("web.maintenance.accept", ["kcal": .integer(estimate.kcal)])
            }
        }
        if let accepted = settings.acceptedMaintenanceKcal {
            maintenance["accepted"] = l.text("web.maintenance.accepted", ["kcal": .integer(accepted)])
        }
        return maintenance
    }

    /// The signed-in account with what waits to sync and any refused changes; nil without one.
    private func accountValues(_ l: Localizer) throws -> [String: Any]? {
        guard let account = try? AccountFile(databasePath: configuration.databasePath).load() else { return nil }
        let status = try store.syncStatus()
        let problems = status.problemLines(l)
        var details: [String: Any] = [
            "email": account.email, "server": account.server.absoluteString,
            "pending": l.text("web.account.pending", ["count": .integer(status.pending)]),
        ]
        if !problems.isEmpty { details["problems"] = ["items": problems] }
        return details
    }
}
