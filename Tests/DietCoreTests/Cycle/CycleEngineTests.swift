import DietCore
import Foundation
import TestSupport
import Testing

@Suite("MATADOR cycle engine")
struct CycleEngineTests {
    let start = LocalDate.ymd(2026, 1, 5)
    var engine: CycleEngine { CycleEngine(startDate: start, preset: .openEnded) }

    @Test("diet day 14 at 23:59:59 is diet; programme day 22 at 00:00:00 local is maintenance day 1")
    func dayFourteenToFifteen() {
        // Given programme day 21 = 2026-01-25 (start + 20), the last diet day
        let clock = FixedClock.at(.ymd(2026, 1, 25), 23, 59, 59, in: Zones.berlin)
        // When
        let before = engine.day(on: clock.today(in: Zones.berlin))
        clock.advance(by: 1)
        let after = engine.day(on: clock.today(in: Zones.berlin))
        // Then
        #expect(before.programmeDay == 21 && before.phase == .diet && before.dayInPhase == 14)
        #expect(before.daysUntilSwitch == 1 && before.nextSwitchDate == .ymd(2026, 1, 26) && before.nextPhase == .maintenance)
        #expect(after.programmeDay == 22 && after.phase == .maintenance && after.dayInPhase == 1)
        #expect(after.isFirstDayOfPhase && after.phaseStartDate == .ymd(2026, 1, 26))
    }

    @Test("habit day 7 at 23:59:59 is habit; day 8 at 00:00:00 starts the first diet block")
    func habitToDiet() {
        let clock = FixedClock.at(.ymd(2026, 1, 11), 23, 59, 59, in: Zones.newYork)
        let before = engine.day(on: clock.today(in: Zones.newYork))
        clock.advance(by: 1)
        let after = engine.day(on: clock.today(in: Zones.newYork))
        #expect(before.phase == .habit && before.dayInPhase == 7 && before.phaseLength == 7 && before.blockNumber == 0)
        #expect(after.phase == .diet && after.dayInPhase == 1 && after.phaseLength == 14 && after.blockNumber == 1)
    }

    @Test("every day of the first 30 weeks matches a day-by-day walk of the protocol", arguments: CyclePreset.allCases)
    func first30Weeks(preset: CyclePreset) {
        // Given an independent walk: 7 habit days, then 14-day blocks D, M, D, …; study: 15 blocks, then completed
        let engine = CycleEngine(startDate: start, preset: preset)
        var expected: [(Phase, Int)] = (1...7).map { (.habit, $0) }
        for block in 0..<30 {
            let phase: Phase = preset == .study && block >= 15 ? .completed : (block % 2 == 0 ? .diet : .maintenance)
            expected += (1...14).map { (phase, $0) }
        }
        // When / Then: 7 + 30 × 7 = 217 days cover the habit week and the 30 weeks of blocks
        for n in 1...217 {
            let day = engine.day(on: start.adding(days: n - 1))
            #expect(day.programmeDay == n)
            #expect(day.phase == expected[n - 1].0, "programme day \(n)")
            if day.phase != .completed {
                #expect(day.dayInPhase == expected[n - 1].1, "programme day \(n)")
            }
        }
    }

    @Test("every block boundary of the first 30 weeks switches at the right date", arguments: 0..<15)
    func boundaries(block: Int) {
        // Block b (0-based) starts on programme day 8 + 14·b
        let first = start.adding(days: 7 + 14 * block)
        let lastOfPrevious = engine.day(on: first.adding(days: -1))
        let today = engine.day(on: first)
        #expect(lastOfPrevious.nextSwitchDate == first)
        #expect(lastOfPrevious.daysUntilSwitch == 1)
        #expect(today.dayInPhase == 1)
        #expect(today.blockNumber == block + 1)
        #expect(today.phase == (block.isMultiple(of: 2) ? .diet : .maintenance))
        #expect(lastOfPrevious.nextPhase == today.phase)
    }

    @Test("the study preset ends after 8 diet and 7 maintenance blocks and stays at maintenance")
    func studyEnds() {
        let study = CycleEngine(startDate: start, preset: .study)
        // 7 + 15 × 14 = 217 days of programme; day 218 is the first completed day
        let lastDiet = study.day(on: start.adding(days: 216))
        let completed = study.day(on: start.adding(days: 217))
        let muchLater = study.day(on: start.adding(days: 1000))
        #expect(lastDiet.phase == .diet && lastDiet.blockNumber == 15 && lastDiet.dayInPhase == 14)
        #expect(lastDiet.nextPhase == .completed && lastDiet.nextSwitchDate == start.adding(days: 217))
        #expect(completed.phase == .completed && completed.phaseLength == nil && completed.daysUntilSwitch == nil)
        #expect(completed.nextPhase == nil && completed.nextSwitchDate == nil)
        #expect(muchLater.phase == .completed && muchLater.phase.targetKind == .maintenance)
        #expect(study.endDate == start.adding(days: 217))
        #expect(engine.endDate == nil)
    }

    @Test("the open-ended preset keeps alternating after 30 weeks")
    func openEndedContinues() {
        // Programme day 1,000: (1000 − 8) / 14 = 70 full blocks → block 71 (odd → diet), day 992 − 980 + 1 = 13
        let day = engine.day(on: start.adding(days: 999))
        #expect(day.phase == .diet && day.blockNumber == 71 && day.dayInPhase == 13)
    }

    @Test("a date before the start date counts as day 1 of the habit week")
    func beforeStart() {
        let day = engine.day(on: start.adding(days: -30))
        #expect(day.programmeDay == 1 && day.phase == .habit && day.dayInPhase == 1)
        #expect(day.nextSwitchDate == start.adding(days: 7))
        #expect(day.phaseStartDate == start)
    }

    @Test("days until the switch and the switch date on day 5 of a diet block")
    func daysUntilSwitch() {
        // Programme day 12 = 2026-01-16: diet day 5 of 14, maintenance from day 22 = 2026-01-26
        let day = engine.day(on: .ymd(2026, 1, 16))
        #expect(day.dayInPhase == 5 && day.daysUntilSwitch == 10 && day.nextSwitchDate == .ymd(2026, 1, 26))
    }

    @Test("blocks lists the phases of a range, clipped to it")
    func blocks() {
        let blocks = engine.blocks(from: .ymd(2026, 1, 10), through: .ymd(2026, 2, 10))
        #expect(
            blocks == [
                CycleBlock(phase: .habit, number: 0, start: .ymd(2026, 1, 10), end: .ymd(2026, 1, 11)),
                CycleBlock(phase: .diet, number: 1, start: .ymd(2026, 1, 12), end: .ymd(2026, 1, 25)),
                CycleBlock(phase: .maintenance, number: 2, start: .ymd(2026, 1, 26), end: .ymd(2026, 2, 8)),
                CycleBlock(phase: .diet, number: 3, start: .ymd(2026, 2, 9), end: .ymd(2026, 2, 10)),
            ]
        )
        #expect(blocks.map(\.dayCount) == [2, 14, 14, 2])
        #expect(engine.blocks(from: .ymd(2026, 2, 10), through: .ymd(2026, 2, 9)).isEmpty)
    }

    @Test("today's and the next phase's targets come from the energy plan")
    func targets() {
        let plan = EnergyPlan(profile: .alice, on: .ymd(2026, 1, 16))
        let targets = engine.targets(on: .ymd(2026, 1, 16), plan: plan)
        // Alice: diet 1,390, maintenance 1,986
        #expect(targets.today.kcal == 1390 && targets.today.kind == .deficit)
        #expect(targets.next?.kcal == 1986 && targets.next?.kind == .maintenance)
    }
}
