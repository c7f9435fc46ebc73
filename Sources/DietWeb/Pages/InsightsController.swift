import DietCore
import DietStore
import Foundation
import Hummingbird

/// The weekly summary (docs/rules.md §8): intake against target per phase, adherence, the weight trend, streaks, the maintenance estimate.
/// In recovery mode only which days had something noted, in words and ticks, and a calm line (docs/rules.md §8).
struct InsightsController: Controller {
    let app: WebApp

    /// The spans the page links to; `?weeks=` takes any of 1–52, anything else shows the default.
    static let offered = [4, 8, 12]

    func register(on group: RouterGroup<OnboardedContext>) {
        group.get("/insights", use: screen)
    }

    static func weeks(_ query: String?) -> Int {
        guard let query, query.allSatisfy(\.isASCII), let value = Int(query), WeeklyInsights.weekRange.contains(value) else {
            return WeeklyInsights.defaultWeeks
        }
        return value
    }

    func screen(_ request: Request, context: OnboardedContext) async throws -> Response {
        let l = localizer(context)
        let weeks = Self.weeks(request.uri.queryParameters.get("weeks"))
        let summary = try store.insights(weeks: weeks, through: today)
        var values: [String: Any] = [
            "sectionInsights": true,
            "weeksNav": Self.offered.map { item in
                ["value": item, "label": l.text("web.insights.weeksOption", ["weeks": .integer(item)]), "current": item == weeks] as [String: Any]
            },
            "span": l.text("web.insights.span", ["first": .date(summary.first), "last": .date(summary.last)]),
        ]
        if context.settings.recoveryMode {
            values["recovery"] = Self.recoveryValues(summary, l)
        } else {
            values["insights"] = Self.values(summary, l)
        }
        return renderer.page("insights", values, title: l.text("web.insights.title"), tab: .progress, context: context)
    }

    /// The page outside recovery mode: the sentence, both charts, the week cards (newest
    /// first), the phases, streaks and the maintenance estimate.
    static func values(_ summary: WeeklyInsights, _ l: Localizer) -> [String: Any] {
        var values: [String: Any] = [
            "meaning": l.render(summary.meaning),
            "intake": InsightsCharts.intake(summary, l),
            "weeks": summary.weeks.reversed().map { weekValues($0, l) },
            "phases": summary.phases.map { tally in
                [
                    "phase": (tally.phase ?? .steady).rawValue, "name": l.render((tally.phase ?? .steady).nameMessage),
                    "text": tallyText(tally, l),
                ] as [String: Any]
            },
            "streak": [
                "now": l.text("web.insights.streakNow", ["days": .message(InsightsMeaning.days(summary.streak.current))]),
                "longest": l.text("web.insights.streakLongest", ["days": .message(InsightsMeaning.days(summary.streak.longest))]),
                "hasRuns": !summary.streak.runs.isEmpty,
                "runs": summary.streak.runs.reversed().map { run in
                    l.text(
                        "web.insights.run",
                        [
                            "first": .text(DateLabel.day(run.start, l)), "last": .text(DateLabel.day(run.end, l)),
                            "days": .message(InsightsMeaning.days(run.days)),
                        ]
                    )
                },
            ] as [String: Any],
            "maintenance": l.render(summary.maintenance.message),
        ]
        if let weight = InsightsCharts.weight(summary, l) { values["weight"] = weight }
        return values
    }

    static func weekValues(_ week: WeekSummary, _ l: Localizer) -> [String: Any] {
        let total = week.total
        var values: [String: Any] = [
            "id": "week-\(week.start.iso)", "start": week.start.iso,
            "title": l.text("web.insights.weekOf", ["date": .text(DateLabel.day(week.start, l))]),
            "soFar": week.through < week.end,
            "phaseNames": week.phases.compactMap(\.phase).map { l.render($0.nameMessage) }.joined(separator: " → "),
            "logged": l.text("web.insights.daysOf", ["done": .integer(total.loggedDays), "count": .integer(total.days - total.restedDays)]),
            "adherent": l.text("web.insights.daysOf", ["done": .integer(total.adherentDays), "count": .integer(total.loggedDays)]),
            "unlogged": l.number(Double(total.unloggedDays), digits: 0),
            "eaten": total.averageIntakeKcal.map { l.text("web.insights.kcal", ["kcal": .decimal($0, digits: 0)]) }
                ?? l.text("web.insights.nothing"),
            "target": total.averageTargetKcal.map { l.text("web.insights.kcal", ["kcal": .decimal($0, digits: 0)]) } ?? "–",
        ]
        // a week wholly before the programme's start has no day to count
        if total.days == 0 {
            values["phaseNames"] = l.render(InsightsPhase.before.nameMessage)
            values["beforeStart"] = l.text("web.insights.beforeStartWeek")
        }
        if week.phases.count > 1 {
            values["hasPhaseRows"] = true
            values["phaseRows"] = week.phases.map { tally in
                [
                    "phase": (tally.phase ?? .steady).rawValue, "name": l.render((tally.phase ?? .steady).nameMessage),
                    "text": tallyText(tally, l),
                ] as [String: Any]
            }
        }
        if total.restedDays > 0 { values["rested"] = l.render(InsightsMeaning.days(total.restedDays)) }
        if let trend = week.trendKg { values["trend"] = l.number(trend, digits: 1) + " kg" }
        if let change = week.trendChangeKg { values["trendChange"] = l.text("web.insights.trendChange", ["kg": .text(Signed.kg(change, l))]) }
        return values
    }

    static func tallyText(_ tally: Tally, _ l: Localizer) -> String {
        let target = Message.Argument.decimal(tally.averageTargetKcal ?? 0, digits: 0)
        guard let intake = tally.averageIntakeKcal else { return l.text("web.insights.phaseNothing", ["target": target]) }
        return l.text(
            "web.insights.phaseRow",
            [
                "intake": .decimal(intake, digits: 0), "target": target,
                "adherent": .integer(tally.adherentDays), "count": .integer(tally.loggedDays),
            ]
        )
    }

    /// Recovery mode: per week (newest first) each day's name with a tick when something was
    /// noted; no amounts, targets, weights or counts.
    static func recoveryValues(_ summary: WeeklyInsights, _ l: Localizer) -> [String: Any] {
        let weeks = summary.weeks.reversed().map { week -> [String: Any] in
            let days = summary.days.filter { $0.date >= week.start && $0.date <= week.through }
            return [
                "title": l.text("web.insights.weekOf", ["date": .text(DateLabel.day(week.start, l))]),
                "days": days.map { day -> [String: Any] in
                    [
                        "name": DateLabel.weekday(day.date, l), "noted": day.active,
                        "state": l.text(day.active ? "web.insights.recovery.noted" : "web.insights.recovery.open"),
                    ]
                },
            ]
        }
        return ["calm": l.render(InsightsMeaning.recovery), "weeks": weeks]
    }
}

extension DateLabel {
    /// "Mon" / "Mo." / "lun".
    static func weekday(_ date: LocalDate, _ l: Localizer) -> String {
        let utc = TimeZone(identifier: "UTC") ?? .current
        let style = Date.FormatStyle(date: .omitted, time: .omitted, locale: l.language.locale, timeZone: utc).weekday(.abbreviated)
        return date.instant(at: TimeOfDay(minutesSinceMidnight: 12 * 60), in: utc).formatted(style)
    }
}
