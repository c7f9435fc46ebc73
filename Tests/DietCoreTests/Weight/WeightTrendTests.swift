import DietCore
import Foundation
import TestSupport
import Testing

@Suite("Weight trends")
struct WeightTrendTests {
    let start = LocalDate.ymd(2026, 2, 1)

    func weights(_ values: [Double], every step: Int = 1) throws -> [WeightEntry] {
        try values.enumerated().map { try WeightEntry(date: start.adding(days: $0.offset * step), kg: $0.element) }
    }

    @Test("with fewer than 7 entries the average spans all of them")
    func fewEntries() throws {
        let average = try #require(WeightTrend.rollingAverage(try weights([72.0, 71.5, 71.0]), through: start.adding(days: 9)))
        #expect(abs(average - 71.5) < 1e-9)
    }

    @Test("with 10 entries the average spans the last 7")
    func lastSeven() throws {
        // last 7 of 80…71: 77 + 76 + … + 71 = 518 → 74.0
        let entries = try weights([80, 79, 78, 77, 76, 75, 74, 73, 72, 71])
        #expect(WeightTrend.rollingAverage(entries, through: start.adding(days: 20)) == 74)
        // as of day 4 (the 5th entry): 80…76 → 78
        #expect(WeightTrend.rollingAverage(entries, through: start.adding(days: 4)) == 78)
        #expect(WeightTrend.rollingAverage([], through: start) == nil)
    }

    @Test("the card shows a down arrow with the difference only when below the average")
    func arrow() throws {
        let down = WeightCard(entries: try weights([72.0, 71.6, 71.2]), today: start.adding(days: 2), onboardingKg: 72.5, sex: .female)
        #expect(down.currentKg == 71.2 && down.averageKg.map { abs($0 - 71.6) < 1e-9 } == true)
        #expect(down.downBy.map { abs($0 - 0.4) < 1e-9 } == true)
        #expect(!down.promptToday)
        let up = WeightCard(entries: try weights([71.0, 71.4, 71.8]), today: start.adding(days: 2), onboardingKg: 72.5, sex: .female)
        #expect(up.downBy == nil)
        let flat = WeightCard(entries: try weights([71.0, 71.0]), today: start.adding(days: 1), onboardingKg: 72.5, sex: .female)
        #expect(flat.downBy == nil)
    }

    @Test("no weight today shows the prompt, with yesterday's numbers still on the card")
    func prompt() throws {
        let card = WeightCard(entries: try weights([72.0, 71.8]), today: start.adding(days: 5), onboardingKg: 72.5, sex: .female)
        #expect(card.promptToday && card.currentKg == 71.8)
        let empty = WeightCard(entries: [], today: start, onboardingKg: 72.5, sex: .female)
        #expect(empty.promptToday && empty.currentKg == nil && empty.averageKg == nil && empty.downBy == nil)
    }

    @Test("the first weight defaults by sex, later ones to the last weight")
    func pickerDefault() throws {
        #expect(WeightTrend.pickerDefault(entries: [], sex: .male) == 90.0)
        #expect(WeightTrend.pickerDefault(entries: [], sex: .female) == 70.0)
        #expect(WeightTrend.pickerDefault(entries: [], sex: .other) == 80.0)
        #expect(WeightTrend.pickerDefault(entries: try weights([72.0, 71.3]), sex: .male) == 71.3)
    }

    @Test("the Hacker's Diet trend interpolates a gap and smooths by a tenth")
    func hackersDiet() throws {
        // 80.0 on day 0, nothing on days 1–2, 77.0 on day 3: interpolated 79.0, 78.0
        let entries = [try WeightEntry(date: start, kg: 80.0), try WeightEntry(date: start.adding(days: 3), kg: 77.0)]
        let points = WeightTrend.smoothed(entries)
        #expect(points.map(\.date) == (0...3).map { start.adding(days: $0) })
        #expect(points.map(\.logged) == [true, false, false, true])
        // T0 80; T1 = 80 + 0.1·(79 − 80) = 79.9; T2 = 79.9 + 0.1·(78 − 79.9) = 79.71; T3 = 79.71 + 0.1·(77 − 79.71) = 79.439
        let expected = [80.0, 79.9, 79.71, 79.439]
        for (point, want) in zip(points, expected) {
            #expect(abs(point.trendKg - want) < 1e-9)
        }
        #expect(abs(points[1].weightKg - 79.0) < 1e-9 && abs(points[2].weightKg - 78.0) < 1e-9)
    }

    @Test("the trend of one entry is that entry; of none, nothing")
    func trendEdges() throws {
        #expect(WeightTrend.smoothed([]).isEmpty)
        #expect(WeightTrend.smoothed(try weights([70.0])).map(\.trendKg) == [70.0])
    }
}
