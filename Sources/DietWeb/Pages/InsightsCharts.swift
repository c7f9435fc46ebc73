import DietCore
import Foundation

/// The two charts of the insights page in the house style of ProgressCharts.swift (its plot,
/// scale, timeline and date labels): intake against target per day as bars under a target
/// line, and the weigh-ins with the Hacker's Diet trend. Long spans are read in whole weeks.
enum InsightsCharts {
    /// Phase bands behind a chart (no band for days without a cycle).
    static func bands(_ days: [InsightsDay], timeline: Timeline, _ l: Localizer) -> (bands: [[String: Any]], legend: [[String: Any]]) {
        var runs: [(phase: InsightsPhase, first: LocalDate, last: LocalDate)] = []
        for day in days where day.phase != .steady && day.phase != .before {
            if let run = runs.last, run.phase == day.phase, run.last.adding(days: 1) == day.date {
                runs[runs.count - 1].last = day.date
            } else {
                runs.append((day.phase, day.date, day.date))
            }
        }
        let bands: [[String: Any]] = runs.map { run in
            [
                "phase": run.phase.rawValue, "x": Plot.f(timeline.x(run.first)),
                "width": Plot.f(Double(run.first.days(to: run.last) + 1) * timeline.dayWidth),
                "y": Plot.f(Plot.top), "height": Plot.f(Plot.innerHeight),
            ]
        }
        var seen: [InsightsPhase] = []
        for run in runs where !seen.contains(run.phase) { seen.append(run.phase) }
        return (bands, seen.map { ["phase": $0.rawValue, "name": l.render($0.nameMessage)] })
    }

    /// One bar: a bucket's mean intake of its logged days, its mean target, and for a single
    /// day whether it was on target.
    typealias Slot = (bucket: ClosedRange<LocalDate>, intake: Double?, target: Double, adherent: Bool?, rested: Bool)

    /// Bars of the mean intake of each bucket's logged days, the mean target as a stepped line.
    static func intake(_ summary: WeeklyInsights, _ l: Localizer) -> [String: Any] {
        let timeline = Timeline(first: summary.first, last: summary.last)
        let slots = slots(summary, timeline: timeline)
        let high = slots.map { max($0.intake ?? 0, $0.target) }.max() ?? 0
        let scale = Scale(low: 0, high: max(high * 1.05, 500), steps: [250, 500, 1000, 2000, 5000])
        let (bands, legend) = bands(summary.days, timeline: timeline, l)
        var values = Plot.frame
        values.merge([
            "bands": bands, "legend": legend, "ticks": timeline.ticks(l), "valueTicks": scale.ticks { l.number($0, digits: 0) },
            "targetLine": slots.flatMap { slot -> [String] in
                let y = Plot.f(scale.y(slot.target))
                return [
                    "\(Plot.f(timeline.x(slot.bucket.lowerBound))),\(y)",
                    "\(Plot.f(timeline.x(slot.bucket.lowerBound) + width(slot, timeline))),\(y)",
                ]
            }.joined(separator: " "),
            "bars": slots.map { bar($0, timeline: timeline, scale: scale, l) },
            "rows": slots.reversed().map { slot -> [String: Any] in
                [
                    "date": timeline.label(slot.bucket, l, long: true), "intake": slot.intake.map { l.number($0, digits: 0) } ?? "–",
                    "target": l.number(slot.target, digits: 0), "adherent": slot.adherent == true ? "✓" : "",
                ]
            },
            "summary": summary.total.loggedDays == 0
                ? l.text("web.progress.noIntake")
                : l.text(
                    "web.insights.intakeSummary",
                    [
                        "logged": .integer(summary.total.loggedDays), "count": .integer(summary.total.days - summary.total.restedDays),
                        "adherent": .integer(summary.total.adherentDays), "unlogged": .integer(summary.total.unloggedDays),
                    ]
                ),
        ]) { $1 }
        return values
    }

    static func slots(_ summary: WeeklyInsights, timeline: Timeline) -> [Slot] {
        timeline.buckets.map { bucket in
            let inside = summary.days.filter { bucket.contains($0.date) }
            let logged = inside.compactMap(\.intakeKcal)
            return (
                bucket: bucket, intake: logged.isEmpty ? nil : Double(logged.reduce(0, +)) / Double(logged.count),
                target: Double(inside.map(\.targetKcal).reduce(0, +)) / Double(max(inside.count, 1)),
                adherent: inside.count == 1 ? inside[0].adherent : nil, rested: inside.allSatisfy(\.rested)
            )
        }
    }

    static func width(_ slot: Slot, _ timeline: Timeline) -> Double {
        Double(slot.bucket.lowerBound.days(to: slot.bucket.upperBound) + 1) * timeline.dayWidth
    }

    static func bar(_ slot: Slot, timeline: Timeline, scale: Scale, _ l: Localizer) -> [String: Any] {
        let x = timeline.x(slot.bucket.lowerBound)
        let w = width(slot, timeline)
        let date = Message.Argument.text(timeline.label(slot.bucket, l))
        let target = Message.Argument.decimal(slot.target, digits: 0)
        var bar: [String: Any] = [
            "center": Plot.f(x + w / 2), "x": Plot.f(x + w * 0.15), "width": Plot.f(w * 0.7), "logged": false,
            "readout": l.text("web.progress.readout.noIntake", ["date": date, "target": target]),
        ]
        if let intake = slot.intake {
            bar.merge([
                "logged": true, "y": Plot.f(scale.y(intake)), "height": Plot.f(Plot.baseline - scale.y(intake)),
                "over": intake > slot.target && !slot.rested,
                "readout": l.text("web.progress.readout.intake", ["date": date, "intake": .decimal(intake, digits: 0), "target": target]),
            ]) { $1 }
        }
        return bar
    }

    /// The weigh-ins as dots (their mean per bucket over long spans) and the trend as a line;
    /// nil without a weigh-in in the window.
    static func weight(_ summary: WeeklyInsights, _ l: Localizer) -> [String: Any]? {
        let timeline = Timeline(first: summary.first, last: summary.last)
        let points = weightPoints(summary, timeline: timeline)
        guard points.contains(where: { $0.kg != nil }), let latest = summary.weight.latestKg else { return nil }
        let all = points.compactMap(\.kg) + points.compactMap(\.trend)
        let scale = Scale(low: (all.min() ?? latest) - 0.3, high: (all.max() ?? latest) + 0.3, steps: [0.5, 1, 2, 5, 10, 20, 50])
        let (bands, legend) = bands(summary.days, timeline: timeline, l)
        var summaryText = l.text(
            "web.insights.weightSummary",
            [
                "latest": .decimal(latest, digits: 1), "average": .decimal(summary.weight.rollingAverageKg ?? latest, digits: 1),
                "trend": .decimal(summary.weight.trendKg ?? latest, digits: 1),
            ]
        )
        if let pace = summary.weight.trendKgPerWeek {
            summaryText += " " + l.text("web.insights.pace", ["kg": .text(Signed.kg(pace, l))])
        }
        var values = Plot.frame
        values.merge([
            "bands": bands, "legend": legend, "ticks": timeline.ticks(l), "summary": summaryText,
            "valueTicks": scale.ticks { l.number($0, digits: scale.step < 1 ? 1 : 0) },
            "trend": points.compactMap { point in point.trend.map { "\(Plot.f(timeline.center(point.bucket))),\(Plot.f(scale.y($0)))" } }
                .joined(separator: " "),
            "dots": points.compactMap { point -> [String: Any]? in
                guard let kg = point.kg else { return nil }
                return [
                    "x": Plot.f(timeline.center(point.bucket)), "y": Plot.f(scale.y(kg)),
                    "readout": l.text(
                        "web.progress.readout.weight",
                        ["date": .text(timeline.label(point.bucket, l)), "kg": .decimal(kg, digits: 1)]
                    ),
                ]
            },
            "rows": points.reversed().map { point -> [String: Any] in
                [
                    "date": timeline.label(point.bucket, l, long: true), "kg": point.kg.map { l.number($0, digits: 1) } ?? "–",
                    "trend": point.trend.map { l.number($0, digits: 1) } ?? "–",
                ]
            },
        ]) { $1 }
        return values
    }
}

extension InsightsCharts {
    /// Per bucket: the mean of its weigh-ins and the trend as it stood at its last day.
    static func weightPoints(_ summary: WeeklyInsights, timeline: Timeline) -> [(bucket: ClosedRange<LocalDate>, kg: Double?, trend: Double?)] {
        timeline.buckets.compactMap { bucket -> (bucket: ClosedRange<LocalDate>, kg: Double?, trend: Double?)? in
            let inside = summary.days.filter { bucket.contains($0.date) }
            let weights = inside.compactMap(\.weightKg)
            let trend = inside.last { $0.trendKg != nil }?.trendKg
            guard !weights.isEmpty || trend != nil else { return nil }
            return (bucket, weights.isEmpty ? nil : weights.reduce(0, +) / Double(weights.count), trend)
        }
    }
}

/// A signed change in kilograms: "−0.4", "+0.2", "±0.0", with the language's decimal separator.
enum Signed {
    static func kg(_ value: Double, _ l: Localizer) -> String {
        let rounded = (value * 10).rounded() / 10
        return (rounded < 0 ? "−" : rounded > 0 ? "+" : "±") + l.number(abs(rounded), digits: 1)
    }
}
