import DietCore
import Foundation
import TestSupport
import Testing

@Suite("Cycle recovery")
struct CycleRecoveryTests {
    let start = LocalDate.ymd(2026, 1, 5)

    /// The state an evaluation on programme day `n` in Berlin would have stored.
    func state(onDay n: Int, zone: TimeZone = Zones.berlin) -> CycleState {
        let day = CycleEngine(startDate: start, preset: .openEnded).day(on: start.adding(days: n - 1))
        return CycleState(
            startDate: start,
            preset: .openEnded,
            phase: day.phase,
            programmeDay: n,
            evaluatedOn: day.date,
            timeZoneIdentifier: zone.identifier,
            announcedPhaseStart: day.phaseStartDate
        )
    }

    func check(
        _ stored: CycleState?,
        day n: Int,
        zone: TimeZone = Zones.berlin,
        startDate: LocalDate? = nil
    ) throws -> RecoveryOutcome {
        try CycleRecovery.check(
            stored: stored,
            startDate: startDate ?? start,
            preset: .openEnded,
            today: start.adding(days: n - 1),
            timeZone: zone
        )
    }

    @Test("the same day in the same zone needs no correction")
    func sameDay() throws {
        let outcome = try check(state(onDay: 10), day: 10)
        #expect(outcome.reason == nil)
        #expect(outcome.state == state(onDay: 10))
    }

    @Test("the next day, and one ordinary switch, are progression without a recovery reason")
    func progression() throws {
        let nextDay = try check(state(onDay: 10), day: 11)
        let overSwitch = try check(state(onDay: 20), day: 23)
        #expect(nextDay.reason == nil && nextDay.state.programmeDay == 11)
        #expect(overSwitch.reason == nil && overSwitch.state.phase == .maintenance && overSwitch.state.programmeDay == 23)
    }

    @Test("40 days without opening the app is a missed transition, corrected to today")
    func missedTransition() throws {
        // Day 10 (diet block 1) → day 50: (50 − 8) / 14 = 3 → block 4, maintenance day 50 − 50 + 1 = 1
        let outcome = try check(state(onDay: 10), day: 50)
        #expect(outcome.reason == .missedTransition)
        #expect(outcome.state.programmeDay == 50 && outcome.state.phase == .maintenance)
        #expect(outcome.day.blockNumber == 4 && outcome.day.dayInPhase == 1)
        #expect(outcome.state.announcedPhaseStart == start.adding(days: 7))
    }

    @Test("a clock set before the start date counts as day 1 and says the clock moved back")
    func clockBeforeStart() throws {
        let outcome = try CycleRecovery.check(
            stored: .start(on: start, preset: .openEnded, timeZone: Zones.berlin),
            startDate: start,
            preset: .openEnded,
            today: start.adding(days: -3),
            timeZone: Zones.berlin
        )
        #expect(outcome.reason == .clockMovedBack)
        #expect(outcome.day.programmeDay == 1 && outcome.day.phase == .habit)
        #expect(outcome.state.startDate == start)
    }

    @Test("a clock moved back across a switch returns to the earlier phase")
    func clockMovedBack() throws {
        let outcome = try check(state(onDay: 23), day: 20)
        #expect(outcome.reason == .clockMovedBack)
        #expect(outcome.state.phase == .diet && outcome.state.programmeDay == 20)
        // The maintenance message was already shown and is not forgotten
        #expect(outcome.state.announcedPhaseStart == start.adding(days: 21))
    }

    @Test("a new zone on the same local day changes nothing but the stored zone")
    func zoneSameDay() throws {
        let outcome = try check(state(onDay: 10), day: 10, zone: Zones.newYork)
        #expect(outcome.reason == nil)
        #expect(outcome.state.timeZoneIdentifier == "America/New_York")
    }

    @Test("a stored phase that contradicts its own day is a corrupted state, rebuilt from the start date")
    func corruptedPhase() throws {
        var stored = state(onDay: 3)
        stored.phase = .diet
        let outcome = try check(stored, day: 3)
        #expect(outcome.reason == .corruptedState)
        #expect(outcome.state.phase == .habit && outcome.state.programmeDay == 3)
    }

    @Test(
        "corrupted states of every kind are rebuilt",
        arguments: [
            "negative day", "unknown zone", "other start date", "missing",
        ]
    )
    func corruptedKinds(kind: String) throws {
        var stored: CycleState? = state(onDay: 30)
        switch kind {
        case "negative day": stored?.programmeDay = -4
        case "unknown zone": stored?.timeZoneIdentifier = "Mars/Olympus_Mons"
        case "other start date": stored?.startDate = .ymd(2031, 1, 1)
        default: stored = nil
        }
        let outcome = try check(stored, day: 30)
        #expect(outcome.reason == .corruptedState)
        #expect(outcome.state.startDate == start)
        #expect(outcome.state.programmeDay == 30 && outcome.state.phase == .maintenance)
    }

    @Test("without the profile's start date the stored one is used: no path loses it")
    func startFromState() throws {
        let outcome = try CycleRecovery.check(
            stored: state(onDay: 12),
            startDate: nil,
            preset: .openEnded,
            today: start.adding(days: 12),
            timeZone: Zones.berlin
        )
        #expect(outcome.state.startDate == start)
        #expect(outcome.reason == nil)
    }

    @Test("with no start date anywhere, recovery throws instead of inventing one")
    func noStartDate() {
        #expect(throws: CycleRecoveryError.noStartDate) {
            try CycleRecovery.check(stored: nil, startDate: nil, preset: .openEnded, today: start, timeZone: Zones.berlin)
        }
    }

    @Test("a corrected state checked again the same day needs no correction", arguments: [1, 7, 8, 21, 22, 100])
    func idempotent(day n: Int) throws {
        var broken = state(onDay: 5)
        broken.phase = .completed
        let first = try check(broken, day: n)
        let second = try check(first.state, day: n)
        #expect(second.reason == nil)
        #expect(second.state == first.state)
    }

    @Test("recovery reasons are recorded with snake_case names")
    func reasonNames() {
        #expect(
            RecoveryReason.allCases.map(\.rawValue) == [
                "missed_transition", "time_zone_change", "clock_moved_back", "corrupted_state",
            ]
        )
    }

    @Test("the stored state round-trips through JSON with snake_case keys")
    func stateJSON() throws {
        let json = """
            {"start_date":"2026-01-05","preset":"study","phase":"diet","programme_day":12,"evaluated_on":"2026-01-16",\
            "time_zone":"Europe/Berlin","announced_phase_start":"2026-01-12"}
            """
        let decoded = try JSONDecoder().decode(CycleState.self, from: Data(json.utf8))
        #expect(
            decoded
                == CycleState(
                    startDate: start,
                    preset: .study,
                    phase: .diet,
                    programmeDay: 12,
                    evaluatedOn: .ymd(2026, 1, 16),
                    timeZoneIdentifier: "Europe/Berlin",
                    announcedPhaseStart: .ymd(2026, 1, 12)
                )
        )
        let again = try JSONDecoder().decode(CycleState.self, from: JSONEncoder().encode(decoded))
        #expect(again == decoded)
    }
}
