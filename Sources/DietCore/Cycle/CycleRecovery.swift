import Foundation

/// Why recovery had to correct the stored cycle state; recorded with the `cycle_recovered`
/// analytics event.
public enum RecoveryReason: String, CaseIterable, Codable, Sendable {
    /// At least one whole phase passed without any surface evaluating the cycle.
    case missedTransition = "missed_transition"
    /// The device changed time zone and the local date no longer matches the stored day.
    case timeZoneChange = "time_zone_change"
    /// Today's local date is before the last evaluation in the same zone.
    case clockMovedBack = "clock_moved_back"
    /// The stored state is missing, contradicts itself or disagrees with the start date.
    case corruptedState = "corrupted_state"
}

/// Recovery cannot continue: neither the profile nor the stored state knows the start date.
public enum CycleRecoveryError: Error, Hashable, Sendable {
    case noStartDate
}

/// The result of the check run on every open.
public struct RecoveryOutcome: Hashable, Sendable {
    /// The state to store: it always matches `day`.
    public let state: CycleState
    /// Today in the programme, computed from the start date and today's local date.
    public let day: CycleDay
    /// nil when the stored state was right, or merely one day or one ordinary switch behind.
    public let reason: RecoveryReason?
    /// The programme moved into another phase since the stored state (recorded as
    /// `phase_switched`). A pause of recovery mode starting or ending is no phase switch.
    public let phaseSwitched: Bool
}

/// The fail-safe protocol of docs/rules.md §3: recompute, compare, correct, say why.
public enum CycleRecovery {
    /// Recomputes today's phase and corrects the stored state.
    ///
    /// - Parameters:
    ///   - stored: the state saved at the last evaluation, nil if it was lost.
    ///   - startDate: the profile's start date; it wins over the stored one. When nil, the
    ///     stored state's start date is used, so no path loses it.
    ///   - today: today's local date in `timeZone`.
    ///   - previousTimeZone: the zone of the last evaluation; nil → the stored state's zone.
    ///   - pauses: the days recovery mode paused the programme (docs/rules.md §8). A state stored on
    ///     a day recovery mode was switched may have been written either side of the switch:
    ///     with the right programme day it is consistent, so no `cycle_recovered` is recorded.
    ///
    /// Precedence when several reasons apply: corrupted state, then a date that went back
    /// (time-zone change if the zone differs, else clock moved back), then a missed
    /// transition (two or more phase boundaries crossed), then a time-zone change that moved
    /// the programme day. An ordinary advance — the next day, or one switch crossed in the
    /// same zone — is progression, not a mismatch: its reason is nil (the switch itself is
    /// recorded as `phase_switched`).
    public static func check(
        stored: CycleState?,
        startDate: LocalDate?,
        preset: CyclePreset,
        today: LocalDate,
        timeZone: TimeZone,
        previousTimeZone: TimeZone? = nil,
        pauses: CyclePauses = .none
    ) throws(CycleRecoveryError) -> RecoveryOutcome {
        guard let start = startDate ?? stored?.startDate else { throw .noStartDate }
        let engine = CycleEngine(startDate: start, preset: preset, pauses: pauses)
        let day = engine.day(on: today)
        guard let stored, isConsistent(stored, engine: engine) else {
            let announced = stored?.announcedPhaseStart.flatMap { $0 <= day.phaseStartDate ? $0 : nil }
            let fresh = CycleState(
                startDate: start,
                preset: preset,
                phase: day.phase,
                programmeDay: day.programmeDay,
                evaluatedOn: today,
                timeZoneIdentifier: timeZone.identifier,
                announcedPhaseStart: announced
            )
            return RecoveryOutcome(
                state: fresh,
                day: day,
                reason: .corruptedState,
                phaseSwitched: switched(from: stored, to: day, engine: engine)
            )
        }
        let previousZone = previousTimeZone?.identifier ?? stored.timeZoneIdentifier
        let zoneChanged = previousZone != timeZone.identifier
        let state = stored.evaluated(day, startDate: start, preset: preset, timeZone: timeZone)
        let reason = reason(stored: stored, today: day, engine: engine, zoneChanged: zoneChanged)
        return RecoveryOutcome(
            state: state,
            day: day,
            reason: reason,
            phaseSwitched: switched(from: stored, to: day, engine: engine)
        )
    }

    private static func switched(from stored: CycleState?, to day: CycleDay, engine: CycleEngine) -> Bool {
        guard let stored, stored.phase != day.phase else { return false }
        let pauseMoved =
            day.paused || engine.pauses.switches(on: stored.evaluatedOn)
            || engine.pauses.switches(on: day.date) || engine.day(on: stored.evaluatedOn).paused
        return !pauseMoved
    }

    private static func reason(
        stored: CycleState,
        today: CycleDay,
        engine: CycleEngine,
        zoneChanged: Bool
    ) -> RecoveryReason? {
        if today.date < stored.evaluatedOn {
            return zoneChanged ? .timeZoneChange : .clockMovedBack
        }
        let previous = engine.day(on: stored.evaluatedOn)
        if today.blockNumber - previous.blockNumber >= 2 {
            return .missedTransition
        }
        if zoneChanged && today.programmeDay != stored.programmeDay {
            return .timeZoneChange
        }
        return nil
    }

    /// A stored state is consistent when it agrees with its own start date, with the
    /// profile's, and with the calendar on the day it was written. On a day recovery mode was
    /// switched the phase may be either side of the switch; the programme day never differs.
    private static func isConsistent(_ stored: CycleState, engine: CycleEngine) -> Bool {
        guard stored.startDate == engine.startDate, TimeZone(identifier: stored.timeZoneIdentifier) != nil else { return false }
        let calendar = CycleEngine(startDate: engine.startDate, preset: stored.preset, pauses: engine.pauses)
        let expected = calendar.day(on: stored.evaluatedOn)
        guard expected.programmeDay == stored.programmeDay else { return false }
        if expected.phase == stored.phase { return true }
        guard engine.pauses.switches(on: stored.evaluatedOn) else { return false }
        return stored.phase == .maintenance || stored.phase == calendar.phase(ofProgrammeDay: stored.programmeDay)
    }
}
