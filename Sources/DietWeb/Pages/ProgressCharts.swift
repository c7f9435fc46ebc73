import DietCore
import DietStore
import Foundation
import Hummingbird

/// The spans the progress page offers as `?range=`; an unknown value is the standard one, so a
/// stale or mistyped link still shows a page.
enum ProgressRange: String, CaseIterable, Sendable {
    case week = "7d"
    case month = "30d"
    case quarter = "90d"
    case year = "1y"
    case all

    static let standard = ProgressRange.month

    init(query: String?) {
        self = query.flatMap(ProgressRange.init(rawValue:)) ?? .standard
    }

    /// The days shown, ending today; `nil` for everything since the first record.
    var days: Int? {
        switch self {
        case .week: 7
        case .month: 30
        case .quarter: 90
        case .year: 365
        case .all: nil
        }
    }
}

extension Controller {
    /// The progress page: the range links, the span shown and both charts. A range reaches back
    /// at most to the first record (the start date or an earlier weigh-in), never into empty
    /// days before the user began.
    func progressValues(range: ProgressRange, settings: UserSettings, localizer l: Localizer) throws -> [String: Any] {
        let weights = try store.weights(from: today.adding(days: -3650), through: today)
        let earliest = min(settings.startDate, weights.first?.date ?? today, today)
        let wanted = range.days.map { today.adding(days: 1 - $0) } ?? earliest
        let timeline = Timeline(first: max(wanted, earliest), last: today)
        let days = try store.history(days: timeline.count, through: today)
        let bands = PhaseBands(days: days, timeline: timeline, localizer: l)
        var values: [String: Any] = [
            "ranges": ProgressRange.allCases.map { item in
                ["value": item.rawValue, "label": l.text("web.progress.range.\(item.rawValue)"), "current": item == range] as [String: Any]
            },
            "span": timeline.count == 1
                ? l.date(today)
                : l.text("web.progress.span", ["first": .text(l.date(timeline.first)), "last": .text(l.date(timeline.last))]),
            "first": timeline.first.iso, "last": timeline.last.iso, "days": timeline.count,
            "weekly": timeline.bucketDays > 1,
            "intake": IntakeChart(days: days, timeline: timeline, bands: bands, localizer: l).values,
        ]
        if let chart = WeightChart(weights: weights, timeline: timeline, bands: bands, localizer: l) { values["weight"] = chart.values }
        values["headline"] = try weightHeadline(weights: weights, localizer: l)
        return values
    }

    /// One headline weight (issue 30: Progress showed three "current" weights): the trend, the
    /// goal with its expected date, and under "how is this calculated?" the latest weigh-in and
    /// the 7-entry average with what each means.
    func weightHeadline(weights: [WeightEntry], localizer l: Localizer) throws -> [String: Any]? {
        guard let latest = weights.last, let trend = WeightTrend.smoothed(weights).last else { return nil }
        var values: [String: Any] = [
            "trend": l.number(trend.trendKg, digits: 1),
            "latest": l.text("web.progress.headline.latest", ["kg": .decimal(latest.kg, digits: 1), "date": .date(latest.date)]),
            "average": l.text(
                "web.progress.headline.average",
                ["kg": .decimal(WeightTrend.rollingAverage(weights, through: today) ?? latest.kg, digits: 1)]
            ),
        ]
        if let goal = try store.goalForecast(timeZone: timeZone) {
            values["goal"] = ["headline": l.render(goal.headline), "outlook": l.render(goal.outlookMessage)]
        }
        return values
    }
}

extension Controller {
    /// Recovery mode's progress (docs/rules.md §8): the last seven days, each eating moment marked when
    /// something was eaten in it — regularity, never amounts, weights or scores.
    func recoveryRhythm(context: OnboardedContext) throws -> [String: Any] {
        let l = localizer(context)
        let window = context.profile.eatingWindow
        let first = today.adding(days: -6)
        let mindful = Dictionary(grouping: try store.mindfulMeals(from: first, through: today)) { $0.entry.localDate }
        let days = try (0..<7).map { offset -> [String: Any] in
            let day = first.adding(days: offset)
            let moments = Set(try store.meals(on: day).map { window.moment(of: $0.entry) } + (mindful[day] ?? []).map { window.moment(of: $0.entry) })
            let cells = window.eatingMoments.map { moment -> [String: Any] in
                let noted = moments.contains(moment.number)
                let label = l.render(moment.label)
                return [
                    "noted": noted, "label": label,
                    "spoken": "\(label): " + l.text(noted ? "web.recovery.progress.noted" : "web.recovery.progress.open"),
                ]
            }
            return ["date": l.date(day), "iso": day.iso, "isToday": day == today, "moments": cells]
        }
        return [
            "days": Array(days.reversed()),
            "legend": window.eatingMoments.map { l.render($0.label) },
        ]
    }
}

/// Geometry shared by the charts: a 340 × 190 plot with room for the axes' labels.
enum Plot {
    static let width = 340.0, height = 190.0
    static let left = 38.0, right = 10.0, top = 10.0, bottom = 24.0
    static var innerWidth: Double { width - left - right }
    static var innerHeight: Double { height - top - bottom }
    static var baseline: Double { top + innerHeight }

    static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    /// The frame both chart templates draw in.
    static var frame: [String: Any] {
        [
            "width": f(width), "height": f(height), "left": f(left), "right": f(width - right), "top": f(top),
            "plotHeight": f(innerHeight), "baseline": f(baseline),
        ]
    }
}

/// The dates a chart spans and where they lie: day `i` covers `left + i·w … left + (i+1)·w`.
/// Long spans are read in buckets of whole weeks (at most about 105), so a year or several
/// years of daily entries stay a light page.
struct Timeline {
    let first: LocalDate
    let last: LocalDate

    var count: Int { first.days(to: last) + 1 }
    var dayWidth: Double { Plot.innerWidth / Double(count) }

    func x(_ date: LocalDate) -> Double { Plot.left + Double(first.days(to: date)) * dayWidth }

    /// Days per point: each day up to 120 days, then weeks (or several weeks for years).
    var bucketDays: Int { count <= 120 ? 1 : 7 * Int((Double(count) / (7 * 105)).rounded(.up)) }

    /// The buckets, oldest first; the last ends on `last`, the first may be shorter.
    var buckets: [ClosedRange<LocalDate>] {
        var result: [ClosedRange<LocalDate>] = []
        var end = last
        while end >= first {
            let start = max(first, end.adding(days: 1 - bucketDays))
            result.append(start...end)
            end = start.adding(days: -1)
        }
        return result.reversed()
    }

    /// The middle of a bucket on the x axis.
    func center(_ bucket: ClosedRange<LocalDate>) -> Double {
        (x(bucket.lowerBound) + x(bucket.upperBound) + dayWidth) / 2
    }

    /// A point's date as the readout and the table say it: the day, or the week it starts.
    func label(_ bucket: ClosedRange<LocalDate>, _ l: Localizer, long: Bool = false) -> String {
        if bucketDays == 1 { return long ? l.date(bucket.lowerBound) : DateLabel.day(bucket.lowerBound, l, weekday: true) }
        return l.text("web.progress.weekOf", ["date": .text(DateLabel.day(bucket.lowerBound, l))])
    }

    /// The date axis: days (every day, second day, Monday or second Monday) or months (every
    /// 1st, every 2nd, 3rd, 6th or 12th month), the finest step with at most 6 labels; a label
    /// pushed inside at an edge is left out if it would touch its neighbour.
    func ticks(_ l: Localizer) -> [[String: Any]] {
        var result: [[String: Any]] = []
        var previous = -Double.infinity
        for tick in dateTicks(l) {
            let anchor = min(max(tick.x, Plot.left + 16), Plot.width - Plot.right - 16)
            guard anchor - previous >= 44 else { continue }
            previous = anchor
            result.append([
                "x": Plot.f(tick.x), "labelX": Plot.f(anchor), "label": tick.label, "y": Plot.f(Plot.baseline + 15),
                "y1": Plot.f(Plot.top), "y2": Plot.f(Plot.baseline + 4),
            ])
        }
        return result
    }

    private func dateTicks(_ l: Localizer) -> [(x: Double, label: String)] {
        let dates = (0..<count).map { first.adding(days: $0) }
        let mondays = dates.filter { $0.isoWeekday == 1 }
        let lastMonday = mondays.last ?? last
        let daySteps: [[LocalDate]] = [
            dates, dates.filter { $0.days(to: last) % 2 == 0 }, mondays,
            mondays.filter { $0.days(to: lastMonday) % 14 == 0 },
        ]
        if let days = daySteps.first(where: { $0.count <= 6 }) {
            return days.map { (x($0) + dayWidth / 2, DateLabel.day($0, l)) }
        }
        for step in [1, 2, 3, 6, 12] {
            let months = dates.filter { $0.day == 1 && ($0.month - 1) % step == 0 }
            if months.count <= 6 { return months.map { (x($0), DateLabel.month($0, l)) } }
        }
        return dates.filter { $0.day == 1 && $0.month == 1 }.map { (x($0), String($0.year)) }
    }
}

/// Short date labels in the user's language: "5. Jan." / "Jan 5" / "5 ene", months "Mär" /
/// "Mar" / "mar" (January with its year).
enum DateLabel {
    private static let utc = TimeZone(identifier: "UTC") ?? .current

    static func day(_ date: LocalDate, _ l: Localizer, weekday: Bool = false) -> String {
        var style = Date.FormatStyle(date: .omitted, time: .omitted, locale: l.language.locale, timeZone: utc).day().month(.abbreviated)
        if weekday { style = style.weekday(.abbreviated) }
        return noon(date).formatted(style)
    }

    static func month(_ date: LocalDate, _ l: Localizer) -> String {
        var style = Date.FormatStyle(date: .omitted, time: .omitted, locale: l.language.locale, timeZone: utc).month(.abbreviated)
        if date.month == 1 { style = style.year() }
        return noon(date).formatted(style)
    }

    private static func noon(_ date: LocalDate) -> Date {
        date.instant(at: TimeOfDay(minutesSinceMidnight: 12 * 60), in: utc)
    }
}

/// A value axis with a round step and at most 5 labels.
struct Scale {
    let low: Double
    let high: Double
    let step: Double

    init(low: Double, high: Double, steps: [Double]) {
        let step = steps.first { (high - low) / $0 <= 4 } ?? steps[steps.count - 1]
        self.step = step
        self.low = (low / step).rounded(.down) * step
        self.high = max((high / step).rounded(.up) * step, self.low + step)
    }

    func y(_ value: Double) -> Double { Plot.top + (high - value) / (high - low) * Plot.innerHeight }

    func ticks(_ label: (Double) -> String) -> [[String: Any]] {
        stride(from: low, through: high + step / 2, by: step).map { value in
            ["y": Plot.f(y(value)), "labelY": Plot.f(y(value) + 3.5), "label": label(value), "x": Plot.f(Plot.left - 4)]
        }
    }
}

/// The MATADOR phases as bands behind a chart, with the legend of those shown.
struct PhaseBands {
    let bands: [[String: Any]]
    let legend: [[String: Any]]
    /// Each shown day's phase, for the tables.
    let phases: [LocalDate: Phase]

    init(days: [HistoryDay], timeline: Timeline, localizer l: Localizer) {
        var runs: [(phase: Phase, first: LocalDate, last: LocalDate)] = []
        phases = Dictionary(days.compactMap { day in day.phase.map { (day.date, $0) } }, uniquingKeysWith: { $1 })
        for day in days {
            guard let phase = day.phase else { continue }
            if let run = runs.last, run.phase == phase, run.last.adding(days: 1) == day.date {
                runs[runs.count - 1].last = day.date
            } else {
                runs.append((phase, day.date, day.date))
            }
        }
        bands = runs.map { run in
            [
                "phase": run.phase.rawValue, "x": Plot.f(timeline.x(run.first)),
                "width": Plot.f(Double(run.first.days(to: run.last) + 1) * timeline.dayWidth),
                "y": Plot.f(Plot.top), "height": Plot.f(Plot.innerHeight),
                "name": l.render(run.phase.nameMessage), "from": run.first.iso, "to": run.last.iso,
            ]
        }
        var seen: [Phase] = []
        for run in runs where !seen.contains(run.phase) { seen.append(run.phase) }
        legend = seen.map { ["phase": $0.rawValue, "name": l.render($0.nameMessage)] }
    }
}

/// Weight entries as dots (their means per bucket over long spans) and the Hacker's Diet trend
/// as a line, over the phase bands; `nil` without a weigh-in in the span.
struct WeightChart {
    let values: [String: Any]

    init?(weights: [WeightEntry], timeline: Timeline, bands: PhaseBands, localizer l: Localizer) {
        let sorted = weights.sorted { $0.date < $1.date }
        let shown = sorted.filter { $0.date >= timeline.first && $0.date <= timeline.last }
        guard let latest = shown.last else { return nil }
        let (points, trend) = Self.points(sorted: sorted, shown: shown, timeline: timeline)
        let all = points.map(\.kg) + trend.map(\.kg)
        let scale = Scale(low: (all.min() ?? latest.kg) - 0.3, high: (all.max() ?? latest.kg) + 0.3, steps: [0.5, 1, 2, 5, 10, 20, 50])
        func line(_ xy: [(Double, Double)]) -> String { xy.map { "\(Plot.f($0.0)),\(Plot.f(scale.y($0.1)))" }.joined(separator: " ") }
        let summary = l.text(
            shown.count == 1 ? "web.progress.weightSummary.one" : "web.progress.weightSummary.other",
            ["count": .integer(shown.count)]
        )
        var values = Plot.frame
        values.merge([
            "summary": summary, "bands": bands.bands, "legend": bands.legend, "ticks": timeline.ticks(l),
            "valueTicks": scale.ticks { l.number($0, digits: scale.step < 1 ? 1 : 0) },
            "dots": points.map { point in
                [
                    "x": Plot.f(timeline.center(point.bucket)), "y": Plot.f(scale.y(point.kg)),
                    "readout": l.text(
                        "web.progress.readout.weight",
                        ["date": .text(timeline.label(point.bucket, l)), "kg": .decimal(point.kg, digits: 1)]
                    ),
                ]
            },
            "trend": line(trend.map { ($0.x, $0.kg) }),
            "rows": points.reversed().map { point in
                [
                    "date": timeline.label(point.bucket, l, long: true), "kg": l.number(point.kg, digits: 1),
                    "phase": bands.phases[point.bucket.upperBound].map { l.render($0.nameMessage) } ?? "",
                ]
            },
        ]) { $1 }
        self.values = values
    }

    typealias Point = (bucket: ClosedRange<LocalDate>, kg: Double)

    /// Per bucket: the mean of its weigh-ins, and the trend as it stood at the bucket's end (at
    /// the bucket's middle on the x axis).
    static func points(sorted: [WeightEntry], shown: [WeightEntry], timeline: Timeline) -> ([Point], [(x: Double, kg: Double)]) {
        let trendByDate = Dictionary(WeightTrend.smoothed(sorted).map { ($0.date, $0.trendKg) }, uniquingKeysWith: { $1 })
        var points: [Point] = []
        var trend: [(x: Double, kg: Double)] = []
        for bucket in timeline.buckets {
            let entries = shown.filter { bucket.contains($0.date) }
            if !entries.isEmpty { points.append((bucket, entries.map(\.kg).reduce(0, +) / Double(entries.count))) }
            if let kg = (0..<(bucket.lowerBound.days(to: bucket.upperBound) + 1)).lazy
                .compactMap({ trendByDate[bucket.upperBound.adding(days: -$0)] }).first
            {
                trend.append((timeline.center(bucket), kg))
            }
        }
        return (points, trend)
    }
}

/// Intake per day (mean of the logged days per bucket over long spans) as bars, the target as
/// a tick, over the phase bands.
struct IntakeChart {
    let values: [String: Any]

    init(days: [HistoryDay], timeline: Timeline, bands: PhaseBands, localizer l: Localizer) {
        let slots = timeline.buckets.map { bucket -> Slot in
            let inside = days.filter { bucket.contains($0.date) }
            let logged = inside.compactMap(\.intakeKcal)
            return (
                bucket, logged.isEmpty ? nil : Double(logged.reduce(0, +)) / Double(logged.count),
                Double(inside.map(\.targetKcal).reduce(0, +)) / Double(max(inside.count, 1)), inside.last?.phase
            )
        }
        let high = slots.map { max($0.intake ?? 0, $0.target) }.max() ?? 0
        let scale = Scale(low: 0, high: max(high * 1.05, 500), steps: [250, 500, 1000, 2000, 5000])
        let logged = days.filter { $0.intakeKcal != nil }
        // adherence as the weekly summary counts it (docs/rules.md §8): within 90–110 % of the day's target
        let within = logged.filter { day in
            let ratio = Double(day.intakeKcal ?? 0) / Double(max(day.targetKcal, 1))
            return ratio >= 0.9 && ratio <= 1.1
        }
        var values = Plot.frame
        values.merge([
            "bands": bands.bands, "legend": bands.legend, "ticks": timeline.ticks(l), "empty": logged.isEmpty,
            "valueTicks": scale.ticks { l.number($0, digits: 0) },
            "bars": slots.map { Self.bar($0, timeline: timeline, scale: scale, localizer: l) },
            "summary": l.text(
                days.count == 1 ? "web.progress.intakeSummary.one" : "web.progress.intakeSummary.other",
                ["logged": .integer(logged.count), "days": .integer(days.count), "within": .integer(within.count)]
            ),
            "rows": slots.reversed().compactMap { slot -> [String: Any]? in
                guard let intake = slot.intake else { return nil }
                return [
                    "date": timeline.label(slot.bucket, l, long: true), "intake": l.number(intake, digits: 0),
                    "target": l.number(slot.target, digits: 0), "phase": slot.phase.map { l.render($0.nameMessage) } ?? "",
                ]
            },
        ]) { $1 }
        self.values = values
    }

    /// One bar: a bucket's mean intake of its logged days and mean target.
    typealias Slot = (bucket: ClosedRange<LocalDate>, intake: Double?, target: Double, phase: Phase?)

    private static func bar(_ slot: Slot, timeline: Timeline, scale: Scale, localizer l: Localizer) -> [String: Any] {
        let x = timeline.x(slot.bucket.lowerBound)
        let w = Double(slot.bucket.lowerBound.days(to: slot.bucket.upperBound) + 1) * timeline.dayWidth
        let date = Message.Argument.text(timeline.label(slot.bucket, l))
        let target = Message.Argument.decimal(slot.target, digits: 0)
        var bar: [String: Any] = [
            "logged": slot.intake != nil, "over": false, "center": Plot.f(x + w / 2), "x": Plot.f(x + w * 0.15), "width": Plot.f(w * 0.7),
            "targetY": Plot.f(scale.y(slot.target)), "targetX1": Plot.f(x + w * 0.05), "targetX2": Plot.f(x + w * 0.95),
            "readout": l.text("web.progress.readout.noIntake", ["date": date, "target": target]),
        ]
        if let intake = slot.intake {
            bar["y"] = Plot.f(scale.y(intake))
            bar["height"] = Plot.f(Plot.baseline - scale.y(intake))
            bar["over"] = intake > slot.target
            bar["readout"] = l.text("web.progress.readout.intake", ["date": date, "intake": .decimal(intake, digits: 0), "target": target])
        }
        return bar
    }
}
