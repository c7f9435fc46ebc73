import DietCore
import Foundation

/// The weekly summary as the terminal shows it: a table per week, the phases, adherence,
/// sparklines of intake against target and of the trend weight, weight, streaks, the
/// maintenance estimate and the sentence of what it means.
struct InsightsText {
    let summary: WeeklyInsights
    let weeks: Int
    let localizer: Localizer

    var text: String {
        let l = localizer
        var lines = [
            l.text("cli.insights.title", ["count": .integer(weeks), "first": .date(summary.first), "last": .date(summary.last)]), "",
        ]
        lines.append(weekTable)
        lines += ["", l.text("cli.insights.byPhase")] + summary.phases.map { "  " + phaseLine($0) }
        lines += [
            "",
            summary.total.loggedDays == 0
                ? l.text("cli.insights.adherenceNone")
                : l.text(
                    "cli.insights.adherence",
                    [
                        "adherent": .integer(summary.total.adherentDays),
                        "count": .integer(summary.total.loggedDays),
                        "unlogged": .message(InsightsMeaning.days(summary.total.unloggedDays)),
                    ]
                ),
        ]
        lines += [""] + sparklines
        lines += ["", weightLine, streakLine, l.text("cli.insights.maintenance", ["text": .message(summary.maintenance.message)])]
        lines += ["", l.render(summary.meaning)]
        return lines.joined(separator: "\n")
    }

    private var weekTable: String {
        let l = localizer
        var table = TextTable([.left, .left, .right, .right, .right, .right, .right])
        table.append([
            l.text("cli.insights.column.week"), l.text("cli.insights.column.phase"), l.text("cli.insights.column.logged"),
            l.text("cli.insights.column.adherent"), l.text("cli.insights.column.intake"), l.text("cli.insights.column.target"),
            l.text("cli.insights.column.trend"),
        ])
        for week in summary.weeks {
            let phases = week.phases.compactMap(\.phase).map { l.render($0.nameMessage) }.joined(separator: " → ")
            // a week wholly before the programme's start has no day to count
            guard week.total.days > 0 else {
                let range = Weekday.short(week.start, l) + " – " + Weekday.short(week.through, l)
                table.append([
                    range, l.render(InsightsPhase.before.nameMessage), "–", "–", "–", "–", week.trendKg.map { l.number($0, digits: 1) } ?? "–",
                ])
                continue
            }
            table.append(
                [Weekday.short(week.start, l) + " – " + Weekday.short(week.through, l), phases]
                    + cells(week.total) + [week.trendKg.map { l.number($0, digits: 1) } ?? "–"]
            )
            // a week across a phase switch: each phase's own numbers under it
            if week.phases.count > 1 {
                for tally in week.phases {
                    table.append(["", "  " + l.render((tally.phase ?? .steady).nameMessage)] + cells(tally) + [""])
                }
            }
        }
        return table.render()
    }

    /// Logged, on target, mean intake and mean target of `tally`.
    private func cells(_ tally: Tally) -> [String] {
        [
            "\(tally.loggedDays)/\(tally.days - tally.restedDays)", "\(tally.adherentDays)/\(tally.loggedDays)",
            tally.averageIntakeKcal.map { localizer.number($0, digits: 0) } ?? "–",
            tally.averageTargetKcal.map { localizer.number($0, digits: 0) } ?? "–",
        ]
    }

    private func phaseLine(_ tally: Tally) -> String {
        let l = localizer
        let name = Message.Argument.message(tally.phase?.nameMessage ?? InsightsPhase.steady.nameMessage)
        let target = Message.Argument.decimal(tally.averageTargetKcal ?? 0, digits: 0)
        guard let intake = tally.averageIntakeKcal else {
            return l.text("cli.insights.phaseNothingLogged", ["phase": name, "target": target])
        }
        return l.text(
            "cli.insights.phaseLine",
            [
                "phase": name, "intake": .decimal(intake, digits: 0), "target": target, "adherent": .integer(tally.adherentDays),
                "count": .integer(tally.loggedDays), "unlogged": .integer(tally.unloggedDays),
            ]
        )
    }

    /// Past this many days a sparkline has one mark per week, so a year still fits a terminal.
    static let dailyLimit = 84

    /// Intake and target on one scale (so a bar above the target line reads as above it), the
    /// trend on its own; one mark per day, or per week (the mean of its logged days) for long spans.
    private var sparklines: [String] {
        let l = localizer
        let groups =
            summary.days.count > Self.dailyLimit
            ? stride(from: 0, to: summary.days.count, by: 7).map { Array(summary.days[$0..<min($0 + 7, summary.days.count)]) }
            : summary.days.map { [$0] }
        let intake = groups.map { mean($0.compactMap { $0.intakeKcal.map(Double.init) }) }
        let target = groups.map { mean($0.map { Double($0.targetKcal) }) }
        let trend = groups.map { $0.last { $0.trendKg != nil }?.trendKg }
        let labels = [l.text("cli.insights.spark.intake"), l.text("cli.insights.spark.target"), l.text("cli.insights.spark.trend")]
        let width = labels.map(\.count).max() ?? 0
        func pad(_ label: String) -> String { label + String(repeating: " ", count: width - label.count) }
        let shared = SharedScale(intake + target)
        return [
            pad(labels[0]) + "  " + shared.render(intake), pad(labels[1]) + "  " + shared.render(target),
            pad(labels[2]) + "  " + SharedScale(trend).render(trend),
        ]
    }

    private func mean(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    private var weightLine: String {
        let l = localizer
        let weight = summary.weight
        guard let latest = weight.latestKg, let average = weight.rollingAverageKg else { return l.text("cli.insights.noWeight") }
        var line = l.text(
            "cli.insights.weight",
            [
                "latest": .decimal(latest, digits: 1), "average": .decimal(average, digits: 1),
                "trend": .decimal(weight.trendKg ?? average, digits: 1),
            ]
        )
        if let pace = weight.trendKgPerWeek {
            let sign = pace < -0.05 ? "−" : pace > 0.05 ? "+" : "±"
            line += " " + l.text("cli.insights.pace", ["kg": .text(sign + l.number(abs(pace), digits: 1))])
        }
        return line
    }

    private var streakLine: String {
        let l = localizer
        let runs = summary.streak.runs.map { run in
            l.text(
                "cli.insights.run",
                [
                    "first": .text(Weekday.short(run.start, l)), "last": .text(Weekday.short(run.end, l)),
                    "days": .integer(run.days),
                ]
            )
        }
        return l.text(
            "cli.insights.streak",
            [
                "current": .message(InsightsMeaning.days(summary.streak.current)),
                "longest": .message(InsightsMeaning.days(summary.streak.longest)),
                "runs": .text(runs.isEmpty ? "–" : runs.joined(separator: ", ")),
            ]
        )
    }
}

/// ▁▂▃▄▅▆▇█ over one low–high span shared by several series; a space for a missing value.
struct SharedScale {
    static let ticks = Array("▁▂▃▄▅▆▇█")
    let low: Double?
    let high: Double?

    init(_ values: [Double?]) {
        let present = values.compactMap { $0 }
        low = present.min()
        high = present.max()
    }

    func render(_ values: [Double?]) -> String {
        String(
            values.map { value in
                guard let value, let low, let high else { return " " }
                guard high > low else { return Self.ticks[3] }
                return Self.ticks[Int(((value - low) / (high - low) * Double(Self.ticks.count - 1)).rounded())]
            }
        )
    }
}

extension Weekday {
    /// "Mar 16" / "16. März" / "16 mar".
    static func short(_ date: LocalDate, _ l: Localizer) -> String {
        let utc = TimeZone(identifier: "UTC") ?? .current
        let style = Date.FormatStyle(date: .omitted, time: .omitted, locale: l.language.locale, timeZone: utc).day().month(.abbreviated)
        return date.instant(at: TimeOfDay(minutesSinceMidnight: 12 * 60), in: utc).formatted(style)
    }
}
