import DietCore
import DietStore
import Foundation
import Hummingbird

/// Progress: the weight chart (entries, the 7-entry average, the smoothed trend) and intake
/// against target per day with the MATADOR phases as bands, over the last 4 weeks.
extension WebApp {
    /// How many days the progress charts show.
    static let progressDays = 28
}

/// Geometry shared by the charts: a 340 × 180 plot with room for labels.
private enum Plot {
    static let width = 340.0, height = 180.0
    static let left = 36.0, right = 8.0, top = 8.0, bottom = 22.0
    static var innerWidth: Double { width - left - right }
    static var innerHeight: Double { height - top - bottom }

    static func f(_ value: Double) -> String { String(format: "%.1f", value) }
}

/// Weight entries as dots, the 7-entry average and the Hacker's Diet trend as lines.
struct WeightChart {
    let values: [String: Any]

    init?(weights: [WeightEntry], first: LocalDate, last: LocalDate, localizer l: Localizer) {
        let shown = weights.filter { $0.date >= first && $0.date <= last }
        guard !shown.isEmpty else { return nil }
        let trend = WeightTrend.smoothed(weights).filter { $0.date >= first && $0.date <= last }
        let averages = shown.compactMap { entry in WeightTrend.rollingAverage(weights, through: entry.date).map { (entry.date, $0) } }
        let all = shown.map(\.kg) + trend.map(\.trendKg) + averages.map(\.1)
        let low = (all.min() ?? 0) - 0.5, high = (all.max() ?? 0) + 0.5
        let span = Double(max(1, first.days(to: last)))
        func x(_ date: LocalDate) -> Double { Plot.left + Double(first.days(to: date)) / span * Plot.innerWidth }
        func y(_ kg: Double) -> Double { Plot.top + (high - kg) / (high - low) * Plot.innerHeight }
        func line(_ points: [(LocalDate, Double)]) -> String { points.map { "\(Plot.f(x($0.0))),\(Plot.f(y($0.1)))" }.joined(separator: " ") }
        let latest = shown.last!
        var summary = l.text(shown.count == 1 ? "web.progress.weightSummary.one" : "web.progress.weightSummary.other",
                             ["count": .integer(shown.count), "latest": .decimal(latest.kg, digits: 1)])
        if let trendLast = trend.last {
            summary += " " + l.text("web.progress.trendNow", ["trend": .decimal(trendLast.trendKg, digits: 1)])
        }
        values = [
            "width": Plot.f(Plot.width), "height": Plot.f(Plot.height), "summary": summary,
            "dots": shown.map { ["x": Plot.f(x($0.date)), "y": Plot.f(y($0.kg))] },
            "average": line(averages), "trend": line(trend.map { ($0.date, $0.trendKg) }),
            "ticks": [high - 0.5, (high + low) / 2, low + 0.5].map { ["y": Plot.f(y($0) + 4), "label": l.number($0, digits: 1)] },
            "left": Plot.f(Plot.left), "right": Plot.f(Plot.width - Plot.right),
            "rows": shown.reversed().prefix(14).map { entry in
                ["date": l.date(entry.date), "kg": l.number(entry.kg, digits: 1),
                 "average": WeightTrend.rollingAverage(weights, through: entry.date).map { l.number($0, digits: 1) } ?? ""]
            },
        ]
    }
}

/// One bar per day (intake) with the day's target as a tick, over bands coloured by phase.
struct IntakeChart {
    let values: [String: Any]

    init(days: [HistoryDay], localizer l: Localizer) {
        let high = Double(max(days.map { max($0.intakeKcal ?? 0, $0.targetKcal) }.max() ?? 1, 1)) * 1.1
        let slot = Plot.innerWidth / Double(max(days.count, 1))
        func y(_ kcal: Double) -> Double { Plot.top + (high - kcal) / high * Plot.innerHeight }
        var bands: [[String: Any]] = []
        for (index, day) in days.enumerated() {
            let phase = day.phase?.rawValue ?? "none"
            if let lastBand = bands.last, lastBand["phase"] as? String == phase, let start = lastBand["index"] as? Int {
                bands[bands.count - 1]["width"] = Plot.f(Double(index - start + 1) * slot)
            } else {
                bands.append(["phase": phase, "index": index, "x": Plot.f(Plot.left + Double(index) * slot), "width": Plot.f(slot),
                              "name": day.phase.map { l.render($0.nameMessage) } ?? ""])
            }
        }
        let logged = days.filter { $0.intakeKcal != nil }
        let within = logged.filter { Double($0.intakeKcal ?? 0) <= Double($0.targetKcal) * 1.0 && Double($0.intakeKcal ?? 0) >= Double($0.targetKcal) * 0.7 }
        values = [
            "width": Plot.f(Plot.width), "height": Plot.f(Plot.height), "top": Plot.f(Plot.top), "plotHeight": Plot.f(Plot.innerHeight),
            "bands": bands.filter { $0["phase"] as? String != "none" },
            "legend": Array(Set(days.compactMap(\.phase))).sorted { $0.rawValue < $1.rawValue }.map { ["phase": $0.rawValue, "name": l.render($0.nameMessage)] },
            "bars": days.enumerated().compactMap { index, day -> [String: Any]? in
                let x = Plot.left + Double(index) * slot
                var bar: [String: Any] = ["x": Plot.f(x + slot * 0.2), "width": Plot.f(slot * 0.6), "targetY": Plot.f(y(Double(day.targetKcal))),
                                          "targetX2": Plot.f(x + slot * 0.9), "targetX1": Plot.f(x + slot * 0.1)]
                if let intake = day.intakeKcal {
                    bar["y"] = Plot.f(y(Double(intake)))
                    bar["height"] = Plot.f(Plot.top + Plot.innerHeight - y(Double(intake)))
                    bar["over"] = intake > day.targetKcal
                }
                return bar
            },
            "summary": l.text(days.count == 1 ? "web.progress.intakeSummary.one" : "web.progress.intakeSummary.other", ["logged": .integer(logged.count), "days": .integer(days.count),
                                                              "within": .integer(within.count)]),
            "rows": days.reversed().filter { $0.intakeKcal != nil }.prefix(14).map { day in
                ["date": l.date(day.date), "intake": l.number(Double(day.intakeKcal ?? 0), digits: 0), "target": l.number(Double(day.targetKcal), digits: 0),
                 "phase": day.phase.map { l.render($0.nameMessage) } ?? ""]
            },
            "left": Plot.f(Plot.left), "right": Plot.f(Plot.width - Plot.right), "baseline": Plot.f(Plot.top + Plot.innerHeight),
        ]
    }
}
