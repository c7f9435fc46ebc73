import ArgumentParser
import DietCore
import DietStore
import Foundation

/// `wdiet insights [--weeks N] [--json]`: the weekly summary (docs/rules.md §8).
struct InsightsCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "insights",
        abstract: "Your weeks at a glance: intake, adherence, weight trend, streaks.",
        discussion: """
            Weeks run Monday to Sunday; the current week counts up to today. A logged day is on target when \
            its intake is within 90–110 % of that day's target; days without a meal are counted apart, never as misses.

            --json prints {"recovery_mode", "weeks_requested", "summary", "meaning", "maintenance_note"}. summary holds \
            first, last (the window's dates), weeks[] (start, end, through, total, phases[], rolling_average_kg, trend_kg, \
            trend_change_kg, active_weekdays with 1 = Monday), phases[] and total (phase, days, logged_days, unlogged_days, \
            adherent_days, average_intake_kcal of the logged days, average_target_kcal of all days), weight (latest_kg, \
            rolling_average_kg, trend_kg, trend_kg_per_week), streak (current, is_lit, longest, runs[] of start, end, days), \
            maintenance (source "estimate" or "formula", kcal, formula_kcal, confidence, clamped) and days[] (date, phase, \
            intake_kcal, target_kcal, adherent, weight_kg, trend_kg, active). In recovery mode it prints only \
            {"recovery_mode": true, "first", "last", "weeks": [{"start", "end", "days": [{"date", "weekday", "logged"}]}], "message"}.
            """
    )

    @Option(help: "How many weeks back, 1–52.") var weeks = TypedNumber(argument: String(WeeklyInsights.defaultWeeks))
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let settings = try session.requireSettings()
        let l = session.localizer
        let count = try weekCount(l)
        let summary = try session.run { try session.store.insights(weeks: count, through: session.today) }
        if settings.recoveryMode {
            let view = RecoveryInsights(summary: summary, localizer: l)
            return json ? try JSONOutput.encode(view) : view.text
        }
        if json {
            return try JSONOutput.encode(
                InsightsJSON(
                    weeksRequested: count,
                    summary: summary,
                    meaning: l.render(summary.meaning),
                    maintenanceNote: l.render(summary.maintenance.message)
                )
            )
        }
        return InsightsText(summary: summary, weeks: count, localizer: l).text
    }

    /// `--weeks` as a whole number of 1–52, else a message naming the option, the range and what was typed.
    func weekCount(_ l: Localizer) throws -> Int {
        let text = weeks.text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let value = Int(text),
            WeeklyInsights.weekRange.contains(value)
        else {
            throw CLIError(
                l.text(
                    "cli.insights.weeksInvalid",
                    [
                        "min": .integer(WeeklyInsights.weekRange.lowerBound), "max": .integer(WeeklyInsights.weekRange.upperBound),
                        "received": .text(
                            text.isEmpty
                                ? l.text("received.nothing")
                                : Int(text) != nil && text.allSatisfy(\.isASCII) ? text : TextRules.quoted(text)
                        ),
                    ]
                )
            )
        }
        return value
    }
}

/// The `--json` document outside recovery mode.
struct InsightsJSON: Encodable {
    let recoveryMode = false
    let weeksRequested: Int
    let summary: WeeklyInsights
    let meaning: String
    let maintenanceNote: String

    enum CodingKeys: String, CodingKey {
        case summary, meaning
        case recoveryMode = "recovery_mode"
        case weeksRequested = "weeks_requested"
        case maintenanceNote = "maintenance_note"
    }
}

/// Recovery mode (docs/rules.md §8): which days had something logged, as weekday names and ticks,
/// and a calm line; no calories, weights, targets, streak counts or points.
struct RecoveryInsights: Encodable {
    let first: LocalDate
    let last: LocalDate
    let weeks: [Week]
    let message: String
    let recoveryMode = true
    private let lines: [String]

    struct Week: Encodable {
        let start: LocalDate
        let end: LocalDate
        let days: [Day]
    }

    struct Day: Encodable {
        let date: LocalDate
        let weekday: String
        let logged: Bool
    }

    init(summary: WeeklyInsights, localizer l: Localizer) {
        first = summary.first
        last = summary.last
        message = l.render(InsightsMeaning.recovery)
        weeks = summary.weeks.map { week in
            Week(
                start: week.start,
                end: week.end,
                days: summary.days.filter { $0.date >= week.start && $0.date <= week.through }.map {
                    Day(date: $0.date, weekday: Weekday.code($0.date), logged: $0.active)
                }
            )
        }
        lines = weeks.map { week in
            let ticks = week.days.map { Weekday.name($0.date, l) + " " + ($0.logged ? "✓" : "·") }.joined(separator: "  ")
            return l.text("cli.insights.recovery.week", ["date": .date(week.start)]) + "  " + ticks
        }
    }

    var text: String { ([message, ""] + lines).joined(separator: "\n") }

    enum CodingKeys: String, CodingKey {
        case first, last, weeks, message
        case recoveryMode = "recovery_mode"
    }
}

/// Weekday names: a stable code for JSON, the short name in the user's language for people.
enum Weekday {
    static let codes = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    static func code(_ date: LocalDate) -> String { codes[date.isoWeekday - 1] }

    static func name(_ date: LocalDate, _ l: Localizer) -> String {
        let utc = TimeZone(identifier: "UTC") ?? .current
        let style = Date.FormatStyle(date: .omitted, time: .omitted, locale: l.language.locale, timeZone: utc).weekday(.abbreviated)
        return date.instant(at: TimeOfDay(minutesSinceMidnight: 12 * 60), in: utc).formatted(style)
    }
}
