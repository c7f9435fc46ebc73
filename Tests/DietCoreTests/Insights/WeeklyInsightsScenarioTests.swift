import DietCore
import Foundation
import Testing

/// Replays `Fixtures/insights-6w_*.json`, written by `scripts/dev/make-insights-scenario` from
/// an independent implementation in Python, and compares the whole weekly summary.
@Suite("weekly insights scenario")
struct WeeklyInsightsScenarioTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    struct Scenario: Decodable {
        let profile: Profile
        let startDate: LocalDate
        let today: LocalDate
        let weeks: Int
        let days: [Day]

        struct Day: Decodable {
            let date: LocalDate
            let intakeKcal: Int?
            let weightKg: Double?

            enum CodingKeys: String, CodingKey {
                case date
                case intakeKcal = "intake_kcal"
                case weightKg = "weight_kg"
            }
        }

        enum CodingKeys: String, CodingKey {
            case profile, today, weeks, days
            case startDate = "start_date"
        }

        var input: WeeklyInsights.Input {
            get throws {
                WeeklyInsights.Input(
                    profile: profile,
                    startDate: startDate,
                    today: today,
                    weeks: weeks,
                    intake: Dictionary(uniqueKeysWithValues: days.compactMap { day in day.intakeKcal.map { (day.date, $0) } }),
                    weights: try days.compactMap { day in try day.weightKg.map { try WeightEntry(date: day.date, kg: $0) } },
                    activeDays: Set(days.filter { $0.intakeKcal != nil || $0.weightKg != nil }.map(\.date))
                )
            }
        }
    }

    let scenario: Scenario
    let expected: [String: Any]

    init() throws {
        scenario = try JSONDecoder().decode(Scenario.self, from: Data(contentsOf: Self.folder.appendingPathComponent("insights-6w_input.json")))
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("insights-6w_expected.json"))
        expected = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("the fixture covers what it promises: four phases, unlogged and weight-only days, both 90 % and 110 % edges")
    func coverage() throws {
        let summary = WeeklyInsights(try scenario.input)
        #expect(Set(summary.days.map(\.phase)) == [.before, .habit, .diet, .maintenance])
        #expect(summary.days.contains { $0.intakeKcal == nil && $0.weightKg != nil })
        #expect(summary.days.contains { $0.intakeKcal == nil && !$0.active })
        #expect(summary.days.contains { $0.intakeKcal.map { 10 * $0 == 9 * 1500 } == true && $0.adherent == true })
        #expect(summary.days.contains { $0.intakeKcal.map { 10 * $0 == 11 * 1500 } == true && $0.adherent == true })
        #expect(summary.weeks.contains { $0.phases.count > 1 })
    }

    @Test("the whole summary matches the independent implementation: days, weeks, phases, weight, streaks, estimate")
    func wholeSummary() throws {
        // Given the scenario
        // When the summary is computed and encoded as the CLI's --json does
        let summary = WeeklyInsights(try scenario.input)
        let encoder = JSONEncoder()
        let got = try #require(try JSONSerialization.jsonObject(with: encoder.encode(summary)) as? [String: Any])
        // Then every value matches the Python output (floats within 1e-6)
        var want = expected
        want["meaning"] = nil
        var differences: [String] = []
        JSONComparison.compare(got, want, path: "$", into: &differences)
        #expect(differences.isEmpty, "\(differences.prefix(20).joined(separator: "\n"))")
    }

    @Test("the sentence of what it means is the one the independent implementation chose")
    func meaning() throws {
        let summary = WeeklyInsights(try scenario.input)
        let want = try #require(expected["meaning"] as? [String: Any])
        #expect(summary.meaning.key == want["key"] as? String)
        if let kg = (want["kg"] as? NSNumber)?.doubleValue {
            guard case .decimal(let value, let digits)? = summary.meaning.arguments["kg"] else {
                Issue.record("no kg argument in \(summary.meaning)")
                return
            }
            #expect(abs((value * 10).rounded() / 10 - kg) < 1e-9 && digits == 1)
        }
    }
}

/// A recursive comparison of two JSON values with a tolerance for numbers.
enum JSONComparison {
    static func compare(_ got: Any?, _ want: Any?, path: String, into differences: inout [String]) {
        switch (got, want) {
        case (nil, nil), (is NSNull, is NSNull), (nil, is NSNull), (is NSNull, nil):
            return
        case let (g as [String: Any], w as [String: Any]):
            for key in Set(g.keys).union(w.keys).sorted() {
                compare(g[key], w[key], path: path + "." + key, into: &differences)
            }
        case let (g as [Any], w as [Any]):
            if g.count != w.count { differences.append("\(path): \(g.count) items, want \(w.count)") }
            for (index, pair) in zip(g, w).enumerated() {
                compare(pair.0, pair.1, path: "\(path)[\(index)]", into: &differences)
            }
        case let (g as Bool, w as Bool):
            if g != w { differences.append("\(path): \(g), want \(w)") }
        case let (g as String, w as String):
            if g != w { differences.append("\(path): \(g), want \(w)") }
        case let (g as NSNumber, w as NSNumber):
            if abs(g.doubleValue - w.doubleValue) > 1e-6 { differences.append("\(path): \(g), want \(w)") }
        default:
            differences.append("\(path): \(String(describing: got)), want \(String(describing: want))")
        }
    }
}
