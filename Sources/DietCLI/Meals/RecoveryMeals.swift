import DietCore
import DietStore
import Foundation

/// `wdiet meals` in recovery mode: what was eaten at each eating moment, mindful meals with
/// their hunger, fullness and feeling in words; no calorie, macro or total. `--json` is an
/// object `{date, recovery_mode, meals: [{id, name, local_date, local_time, moment}],
/// mindful_meals: [...]}` instead of the usual array of meals.
enum RecoveryMeals {
    struct Day: Encodable {
        let date: LocalDate
        let recoveryMode = true
        let meals: [NamedMealJSON]
        let mindfulMeals: [MindfulMealJSON]

        enum CodingKeys: String, CodingKey {
            case date, meals
            case recoveryMode = "recovery_mode"
            case mindfulMeals = "mindful_meals"
        }
    }

    static func render(
        day: LocalDate,
        meals: [Meal],
        mindful: [MindfulMeal],
        window: EatingWindow,
        json: Bool,
        _ l: Localizer
    ) throws -> String {
        if json {
            return try JSONOutput.encode(Day(date: day, meals: meals.map(NamedMealJSON.init), mindfulMeals: mindful.map(MindfulMealJSON.init)))
        }
        guard !meals.isEmpty || !mindful.isEmpty else { return l.text("cli.recovery.noMeals", ["date": .date(day)]) }
        var lines = [l.date(day)]
        for moment in window.eatingMoments {
            let plain = meals.filter { window.moment(of: $0.entry) == moment.number }
            let noticed = mindful.filter { window.moment(of: $0.entry) == moment.number }
            guard !plain.isEmpty || !noticed.isEmpty else { continue }
            lines.append(l.render(moment.label))
            lines += plain.map { "  \($0.entry.localTime.formatted)  \($0.entry.name)  (id \(ShortID.make($0.id)))" }
            lines += noticed.map { "  " + RecoveryText.mindfulLine($0, l) }
        }
        return lines.joined(separator: "\n")
    }
}

extension RecoveryMeals {
    /// The one mindful meal whose id starts with `id` (living, or with `deleted` deleted);
    /// nil when none or several match, so the meal commands fall back to ordinary meals.
    static func mindful(_ id: String, in session: Session, deleted: Bool = false) throws -> MindfulMeal? {
        let matches = try session.run { try session.store.mindfulMeals(idPrefix: id, deleted: deleted) }
        return matches.count == 1 ? matches[0] : nil
    }
}

extension RecoveryMeals {
    /// `wdiet edit meal ID --name … --hunger … --fullness … --feeling …` of a mindful meal:
    /// what is not given stays; it keeps its time and moment.
    static func edit(_ meal: MindfulMeal, name: String?, mindful: MindfulOptions, _ session: Session) throws -> String {
        let old = meal.entry
        let zone = TimeZone(identifier: old.timeZoneIdentifier) ?? session.timeZone
        let entry = try session.run {
            try MindfulMealEntry(
                name: name ?? old.name,
                hunger: mindful.hunger ?? "\(old.hunger.rawValue)",
                fullness: mindful.fullness ?? "\(old.fullness.rawValue)",
                feeling: mindful.feeling ?? old.feeling?.rawValue,
                at: old.instant,
                in: zone,
                moment: old.moment,
                language: session.language
            )
        }
        let saved = try session.run { try session.store.editMindfulMeal(meal.id, to: entry) }
        return session.localizer.text("cli.recovery.editSaved", ["name": .text(saved.entry.name)])
    }
}
