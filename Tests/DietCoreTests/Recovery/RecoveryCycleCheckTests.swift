import DietCore
import Foundation
import TestSupport
import Testing

@Suite("The cycle check across recovery mode's switches")
struct RecoveryCycleCheckTests {
    let start = LocalDate.ymd(2026, 1, 5)
    /// Programme day 12, a diet day.
    var switchDay: LocalDate { start.adding(days: 11) }

    /// The state an evaluation on `date` under `pauses` would have stored.
    func stored(on date: LocalDate, _ pauses: CyclePauses = .none) -> CycleState {
        let day = CycleEngine(startDate: start, preset: .openEnded, pauses: pauses).day(on: date)
        return CycleState(
            startDate: start,
            preset: .openEnded,
            phase: day.phase,
            programmeDay: day.programmeDay,
            evaluatedOn: date,
            timeZoneIdentifier: Zones.berlin.identifier,
            announcedPhaseStart: .ymd(2026, 1, 12)
        )
    }

    func check(_ state: CycleState, on date: LocalDate, _ pauses: CyclePauses) throws -> RecoveryOutcome {
        try CycleRecovery.check(
            stored: state,
            startDate: start,
            preset: .openEnded,
            today: date,
            timeZone: Zones.berlin,
            pauses: pauses
        )
    }

    @Test("turning recovery mode on after the day's check records no recovery and no phase switch")
    func turnedOn() throws {
        // Given the state checked this morning on a diet day, and recovery mode turned on since
        let morning = stored(on: switchDay)
        let pauses = CyclePauses(periods: [], since: switchDay)
        // When the cycle is checked again the same day
        let outcome = try check(morning, on: switchDay, pauses)
        // Then it is paused, with no reason and no switch
        #expect(outcome.reason == nil)
        #expect(!outcome.phaseSwitched)
        #expect(outcome.day.paused && outcome.state.phase == .maintenance && outcome.state.programmeDay == 12)
    }

    @Test("turning it off after ten days records no recovery and no phase switch")
    func turnedOff() throws {
        let during = CyclePauses(periods: [], since: switchDay)
        let lastPaused = stored(on: switchDay.adding(days: 9), during)
        let after = CyclePauses(periods: [try #require(RecoveryPeriod(from: switchDay, until: switchDay.adding(days: 10)))], since: nil)
        let outcome = try check(lastPaused, on: switchDay.adding(days: 10), after)
        #expect(outcome.reason == nil && !outcome.phaseSwitched)
        #expect(outcome.state.phase == .diet && outcome.state.programmeDay == 12)
    }

    @Test("turning it on and off the same day records nothing either")
    func sameDay() throws {
        let paused = stored(on: switchDay, CyclePauses(periods: [], since: switchDay))
        let after = CyclePauses(periods: [try #require(RecoveryPeriod(from: switchDay, until: switchDay))], since: nil)
        let outcome = try check(paused, on: switchDay, after)
        #expect(outcome.reason == nil && !outcome.phaseSwitched)
        #expect(outcome.state.phase == .diet)
    }

    @Test("a stored state with a wrong programme day is still corrupted on a switch day")
    func stillCorrupted() throws {
        var wrong = stored(on: switchDay)
        wrong.programmeDay = 30
        let outcome = try check(wrong, on: switchDay, CyclePauses(periods: [], since: switchDay))
        #expect(outcome.reason == .corruptedState)
        #expect(outcome.state.startDate == start)
    }

    @Test("a stored maintenance phase on an ordinary diet day is still corrupted")
    func wrongPhaseWithoutSwitch() throws {
        var wrong = stored(on: switchDay.adding(days: -1))
        wrong.phase = .maintenance
        let outcome = try check(wrong, on: switchDay, CyclePauses(periods: [], since: switchDay))
        #expect(outcome.reason == .corruptedState)
    }

    @Test("an ordinary switch from diet to maintenance is still a phase switch")
    func ordinarySwitch() throws {
        let lastDiet = stored(on: .ymd(2026, 1, 25))
        let outcome = try check(lastDiet, on: .ymd(2026, 1, 26), .none)
        #expect(outcome.phaseSwitched && outcome.reason == nil)
    }

    @Test("no phase-switch message is due on a paused day")
    func noNoticeWhilePaused() {
        let pauses = CyclePauses(periods: [], since: .ymd(2026, 1, 26))
        let day = CycleEngine(startDate: start, preset: .openEnded, pauses: pauses).day(on: .ymd(2026, 1, 26))
        let plan = EnergyPlan(profile: .alice, latestWeightKg: nil, on: day.date)
        let state = stored(on: .ymd(2026, 1, 25))
        #expect(PhaseSwitchNotice.due(state: state, day: day, plan: plan, pauses: pauses) == nil)
        let unpaused = CycleEngine(startDate: start, preset: .openEnded).day(on: .ymd(2026, 1, 26))
        #expect(PhaseSwitchNotice.due(state: state, day: unpaused, plan: plan) != nil)
    }
}
