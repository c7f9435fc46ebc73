import DietCore
import DietStore
import Foundation

/// Recovery mode in the CLI (docs/rules.md §8). While it is on, every command this module owns shows
/// no calorie, macro, weight, target, streak count or point, in text and in `--json`.
///
/// In `--json` the keys of hidden quantities are OMITTED, never nulled (a script cannot tell
/// "hidden" from "not logged" by a null), and `"recovery_mode": true` says why they are gone.
/// The steps of hunger and fullness are words there too (`very_hungry` … `very_full`).
extension Session {
    /// Recovery mode is on for this store.
    var recoveryMode: Bool { settings?.recoveryMode ?? false }
}

enum RecoveryText {
    /// The dashboard of a day in recovery mode: the pause, today's meals against the eating
    /// moments (regularity, not amounts), the mindful meals and the coach's line.
    static func today(_ snapshot: TodaySnapshot, _ l: Localizer, _ terminal: Terminal) -> String {
        let report = snapshot.report
        guard let recovery = report.recovery else { return "" }
        var lines = [terminal.paint(l.text("cli.recovery.banner", ["date": .date(recovery.since)]), .bold)]
        if report.cycle != nil { lines.append(l.text("cli.recovery.cyclePaused")) }
        lines += ["", l.text("cli.recovery.moments")]
        var table = TextTable([.left, .left, .left])
        for moment in recovery.moments {
            let state = moment.hadMeal ? "●" : "○"
            let eaten =
                moment.hadMeal
                ? moment.names.joined(separator: ", ")
                : l.text(moment.reached ? "cli.recovery.momentEmpty" : "cli.recovery.momentOpen")
            table.append(["  " + state, l.render(moment.moment.label), eaten])
        }
        lines.append(table.render(separator: "  "))
        if !snapshot.mindfulMeals.isEmpty {
            lines += ["", l.text("cli.recovery.mindfulTitle")]
            lines += snapshot.mindfulMeals.map { "  " + mindfulLine($0, l) }
        }
        lines += ["", report.coach.variation.emoji + "  " + l.render(report.coach.message)]
        return lines.joined(separator: "\n")
    }

    /// "12:30  Pasta with friends — hunger before: hungry · fullness after: satisfied · feeling calm  (id 1a2b3c4d)".
    static func mindfulLine(_ meal: MindfulMeal, _ l: Localizer) -> String {
        var parts = [
            l.text(
                "cli.recovery.scale",
                [
                    "hunger": .message(meal.entry.hunger.word),
                    "fullness": .message(meal.entry.fullness.word),
                ]
            )
        ]
        if let feeling = meal.entry.feeling {
            parts.append(l.text("cli.recovery.feelingLine", ["feeling": .message(feeling.word)]))
        }
        return "\(meal.entry.localTime.formatted)  \(meal.entry.name) — " + parts.joined(separator: " · ")
            + "  (id \(ShortID.make(meal.id)))"
    }

    /// A step as a stable word for JSON: `very_hungry`, `hungry`, `neutral`, `satisfied`, `very_full`.
    static func key(_ step: HungerScale) -> String {
        switch step {
        case .veryHungry: "very_hungry"
        case .hungry: "hungry"
        case .neutral: "neutral"
        case .satisfied: "satisfied"
        case .veryFull: "very_full"
        }
    }
}

/// A mindful meal as JSON: no number but its time (and its moment's place in the day).
struct MindfulMealJSON: Encodable {
    let id: String
    let name: String
    let hunger: String
    let fullness: String
    let feeling: String?
    let localDate: LocalDate
    let localTime: TimeOfDay
    let timeZone: String
    let moment: Int?

    init(_ meal: MindfulMeal) {
        id = meal.id.uuidString
        name = meal.entry.name
        hunger = RecoveryText.key(meal.entry.hunger)
        fullness = RecoveryText.key(meal.entry.fullness)
        feeling = meal.entry.feeling?.rawValue
        localDate = meal.entry.localDate
        localTime = meal.entry.localTime
        timeZone = meal.entry.timeZoneIdentifier
        moment = meal.entry.moment
    }

    enum CodingKeys: String, CodingKey {
        case id, name, hunger, fullness, feeling, moment
        case localDate = "local_date"
        case localTime = "local_time"
        case timeZone = "time_zone"
    }
}

/// A meal as JSON in recovery mode: its name and when, without calories or macros.
struct NamedMealJSON: Encodable {
    let id: String
    let name: String
    let localDate: LocalDate
    let localTime: TimeOfDay
    let moment: Int?

    init(_ meal: Meal) {
        id = meal.id.uuidString
        name = meal.entry.name
        localDate = meal.entry.localDate
        localTime = meal.entry.localTime
        moment = meal.entry.moment
    }

    enum CodingKeys: String, CodingKey {
        case id, name, moment
        case localDate = "local_date"
        case localTime = "local_time"
    }
}

/// `wdiet today --json` in recovery mode: the day's meals against the eating moments and the
/// coach; `targets`, `next_targets`, `totals`, `macros`, `ring`, `calories`, `streak`,
/// `weight` and `phase_switch` are omitted.
struct RecoveryTodayJSON: Encodable {
    let date: LocalDate
    let recoveryMode = true
    let recoverySince: LocalDate
    /// Only whether the cycle is paused (always, while recovery mode is on and the goal cycles).
    let cyclePaused: Bool
    let eatingWindow: EatingWindow
    let moments: [Moment]
    let meals: [NamedMealJSON]
    let mindfulMeals: [MindfulMealJSON]
    let coach: TodayJSON.Coach

    struct Moment: Encodable {
        let number: Int
        let time: TimeOfDay
        let hadMeal: Bool
        let names: [String]

        enum CodingKeys: String, CodingKey {
            case number, time, names
            case hadMeal = "had_meal"
        }
    }

    init?(_ snapshot: TodaySnapshot) {
        let report = snapshot.report
        guard let recovery = report.recovery else { return nil }
        let localizer = Localizer(snapshot.settings.profile.language)
        date = report.date
        recoverySince = recovery.since
        cyclePaused = report.cycle?.paused ?? false
        eatingWindow = report.eatingWindow
        moments = recovery.moments.map { Moment(number: $0.moment.number, time: $0.moment.time, hadMeal: $0.hadMeal, names: $0.names) }
        meals = snapshot.meals.map(NamedMealJSON.init)
        mindfulMeals = snapshot.mindfulMeals.map(MindfulMealJSON.init)
        coach = TodayJSON.Coach(variation: report.coach.variation, message: localizer.render(report.coach.message))
    }

    enum CodingKeys: String, CodingKey {
        case date, moments, meals, coach
        case recoveryMode = "recovery_mode"
        case recoverySince = "recovery_since"
        case cyclePaused = "cycle_paused"
        case eatingWindow = "eating_window"
        case mindfulMeals = "mindful_meals"
    }
}
