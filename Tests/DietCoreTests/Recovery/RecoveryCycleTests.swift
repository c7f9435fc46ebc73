import DietCore
import Foundation
import TestSupport
import Testing

@Suite("Recovery mode pauses the cycle")
struct RecoveryCycleTests {
    /// Programme day 1; the first diet block runs from day 8 (2026-01-12) to day 21 (2026-01-25).
    let start = LocalDate.ymd(2026, 1, 5)
    /// Programme day 12: diet block 1, day 5 of 14.
    var pausedOn: LocalDate { start.adding(days: 11) }

    func engine(_ periods: [RecoveryPeriod] = [], since: LocalDate? = nil) -> CycleEngine {
        CycleEngine(startDate: start, preset: .openEnded, pauses: CyclePauses(periods: periods, since: since))
    }

    func period(_ from: LocalDate, days: Int) throws -> RecoveryPeriod {
        try #require(RecoveryPeriod(from: from, until: from.adding(days: days)))
    }

    @Test("turned on mid-diet-block, the day is paused at maintenance and keeps its programme day")
    func onMidDiet() {
        // Given recovery mode turned on on programme day 12 (a diet day)
        let unpaused = engine().day(on: pausedOn)
        // When the cycle is read that day and five days later
        let today = engine(since: pausedOn).day(on: pausedOn)
        let later = engine(since: pausedOn).day(on: pausedOn.adding(days: 5))
        // Then both are paused at maintenance, still at programme day 12
        #expect(unpaused.phase == .diet && !unpaused.paused)
        #expect(today.paused && today.phase == .maintenance && today.phase.targetKind == .maintenance)
        #expect(later.paused && later.programmeDay == 12 && later.dayInPhase == 6)
        #expect(later.phaseStartDate == pausedOn)
        #expect(later.nextSwitchDate == nil && later.nextPhase == nil && later.daysUntilSwitch == nil)
    }

    @Test("the target of a paused diet day is maintenance")
    func pausedTarget() {
        let plan = EnergyPlan(profile: Profile.alice, latestWeightKg: nil, on: pausedOn)
        let normal = engine().targets(on: pausedOn, plan: plan)
        let paused = engine(since: pausedOn).targets(on: pausedOn, plan: plan)
        #expect(normal.today == plan.targets(.deficit))
        #expect(paused.today == plan.targets(.maintenance))
        #expect(paused.today != normal.today)
    }

    @Test("turned off after 10 days, the diet block resumes at the same programme day")
    func offAfterTenDays() throws {
        // Given ten paused days from programme day 12
        let cycle = engine([try period(pausedOn, days: 10)])
        // When the day recovery mode was turned off is read
        let back = cycle.day(on: pausedOn.adding(days: 10))
        // Then it is diet day 5 of 14 again, programme day 12, and the switch moved 10 days later
        #expect(!back.paused && back.phase == .diet && back.programmeDay == 12 && back.dayInPhase == 5)
        #expect(back.phaseStartDate == .ymd(2026, 1, 12))
        #expect(back.nextSwitchDate == LocalDate.ymd(2026, 1, 26).adding(days: 10))
        #expect(cycle.day(on: pausedOn.adding(days: 9)).paused)
        #expect(cycle.startDate == start)
    }

    @Test("a closed pause says when the programme resumes")
    func closedPauseKnowsItsEnd() throws {
        let cycle = engine([try period(pausedOn, days: 10)])
        let inside = cycle.day(on: pausedOn.adding(days: 3))
        #expect(inside.paused && inside.phaseLength == 10 && inside.dayInPhase == 4 && inside.daysUntilSwitch == 7)
        #expect(inside.nextSwitchDate == pausedOn.adding(days: 10) && inside.nextPhase == .diet)
    }

    @Test("the pause is a block of its own between the two halves of the diet block")
    func blocks() throws {
        let cycle = engine([try period(pausedOn, days: 10)])
        let blocks = cycle.blocks(from: .ymd(2026, 1, 12), through: .ymd(2026, 2, 10))
        #expect(
            blocks == [
                CycleBlock(phase: .diet, number: 1, start: .ymd(2026, 1, 12), end: .ymd(2026, 1, 15)),
                CycleBlock(phase: .maintenance, number: 1, start: .ymd(2026, 1, 16), end: .ymd(2026, 1, 25), paused: true),
                CycleBlock(phase: .diet, number: 1, start: .ymd(2026, 1, 26), end: .ymd(2026, 2, 4)),
                CycleBlock(phase: .maintenance, number: 2, start: .ymd(2026, 2, 5), end: .ymd(2026, 2, 10)),
            ]
        )
    }

    @Test("two pauses add up; days before the start date are still day 1")
    func twoPauses() throws {
        let cycle = engine([try period(.ymd(2026, 1, 7), days: 2), try period(pausedOn, days: 10)], since: .ymd(2026, 3, 1))
        #expect(cycle.day(on: .ymd(2026, 1, 9)).programmeDay == 3)
        #expect(cycle.day(on: pausedOn.adding(days: 10)).programmeDay == 10)
        #expect(cycle.day(on: .ymd(2026, 1, 1)).programmeDay == 1)
        #expect(cycle.day(on: .ymd(2026, 3, 5)).paused)
    }

    @Test("overlapping periods from two devices count each paused day once")
    func overlapping() throws {
        let pauses = CyclePauses(periods: [try period(pausedOn, days: 10), try period(pausedOn.adding(days: 5), days: 10)], since: nil)
        #expect(pauses.periods.count == 1)
        #expect(pauses.pausedDays(from: start, before: .ymd(2026, 3, 1)) == 15)
    }

    @Test("the last paused day and the first day back meet at local midnight, whatever the zone")
    func midnight() throws {
        // Given a pause from 2026-03-20 until 2026-03-30 in Berlin, across the DST change of 2026-03-29
        let cycle = engine([try period(.ymd(2026, 3, 20), days: 10)])
        for zone in [Zones.berlin, Zones.newYork, Zones.auckland] {
            // When the clock reads one minute before and at local midnight of the first day back
            let clock = FixedClock.at(.ymd(2026, 3, 29), 23, 59, in: zone)
            let before = LocalDate(clock.now(), in: zone)
            clock.advance(by: 60)
            let after = LocalDate(clock.now(), in: zone)
            // Then the first is paused and the second is the programme again, one day on
            #expect(cycle.day(on: before).paused, "\(zone.identifier)")
            #expect(!cycle.day(on: after).paused, "\(zone.identifier)")
            #expect(cycle.day(on: after).programmeDay == cycle.day(on: before).programmeDay)
        }
    }

    @Test("a period turned on and off the same day pauses nothing")
    func sameDayToggle() throws {
        let empty = try #require(RecoveryPeriod(from: pausedOn, until: pausedOn))
        let cycle = engine([empty])
        #expect(!cycle.day(on: pausedOn).paused && cycle.day(on: pausedOn).phase == .diet)
        #expect(RecoveryPeriod(from: pausedOn, until: pausedOn.adding(days: -1)) == nil)
    }

    @Test("closing keeps today's empty switch, drops older empty ones, and never pauses fewer days")
    func closing() throws {
        let oldEmpty = try #require(RecoveryPeriod(from: .ymd(2026, 1, 6), until: .ymd(2026, 1, 6)))
        let closed = RecoveryPeriod.closing([oldEmpty], from: pausedOn, on: pausedOn)
        #expect(closed == [try #require(RecoveryPeriod(from: pausedOn, until: pausedOn))])
        var many: [RecoveryPeriod] = []
        for index in 0..<RecoveryPeriod.maximumCount { many.append(try period(start.adding(days: 3 * index), days: 1)) }
        let capped = RecoveryPeriod.closing(many, from: .ymd(2027, 1, 1), on: .ymd(2027, 1, 2))
        #expect(capped.count == RecoveryPeriod.maximumCount)
        let before = CyclePauses(periods: many, since: nil).pausedDays(from: start, before: .ymd(2027, 1, 1))
        #expect(CyclePauses(periods: capped, since: nil).pausedDays(from: start, before: .ymd(2027, 1, 1)) >= before)
    }

    @Test("a stored period that ends before it starts cannot be read")
    func damagedPeriod() {
        let json = Data(#"[{"from":"2026-02-10","until":"2026-02-01"}]"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([RecoveryPeriod].self, from: json) }
    }
}
