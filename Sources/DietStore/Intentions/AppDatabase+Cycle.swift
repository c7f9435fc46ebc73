import DietCore
import Foundation
import GRDB
import SyncProtocol

/// What the recovery check on open found.
public struct CycleCheck: Hashable, Sendable {
    public let day: CycleDay
    /// Why the stored state had to be corrected, if it had to.
    public let recovered: RecoveryReason?
    /// The phase changed since the last evaluation (recorded as `phase_switched`).
    public let switched: Bool
}

extension AppDatabase {
    /// The fail-safe check every surface runs on open (docs/rules.md §3): recompute today's phase
    /// from the start date, correct the stored state, record `cycle_recovered` with the
    /// reason and `phase_switched` when the phase moved on. Writes only when something changed.
    @discardableResult
    public func checkCycle(timeZone: TimeZone) throws -> CycleCheck {
        let now = clock.now()
        let today = LocalDate(now, in: timeZone)
        // Nearly every open finds the cycle as stored: look without taking the write lock first.
        let unchanged = try reader.read { db -> CycleCheck? in
            guard let settings = try Self.settings(db) else { throw StoreError.notOnboarded }
            let record = try CycleStateRecord.fetchOne(db, key: CycleStateRecord.rowID)
            let stored = record.flatMap { $0.deleted ? nil : $0.state }
            let outcome = try CycleRecovery.check(
                stored: stored,
                startDate: settings.startDate,
                preset: settings.profile.cyclePreset,
                today: today,
                timeZone: timeZone,
                pauses: settings.cyclePauses
            )
            guard outcome.state == stored, outcome.reason == nil else { return nil }
            return CycleCheck(day: outcome.day, recovered: nil, switched: false)
        }
        if let unchanged { return unchanged }
        return try writer.write { db in
            guard let settings = try Self.settings(db) else { throw StoreError.notOnboarded }
            let record = try CycleStateRecord.fetchOne(db, key: CycleStateRecord.rowID)
            let stored = record.flatMap { $0.deleted ? nil : $0.state }
            let outcome = try CycleRecovery.check(
                stored: stored,
                startDate: settings.startDate,
                preset: settings.profile.cyclePreset,
                today: today,
                timeZone: timeZone,
                pauses: settings.cyclePauses
            )
            // A pause of recovery mode starting or ending is no phase switch (`CycleRecovery`).
            let switched = outcome.phaseSwitched
            if outcome.state != stored {
                _ = try Outbox.save(CycleStateRecord(outcome.state), db, now: now)
            }
            if let reason = outcome.reason {
                try recordEvent(
                    .cycleRecovered(reason: reason, programmeDay: outcome.day.programmeDay),
                    db,
                    now: now,
                    timeZone: timeZone
                )
            }
            if let stored, switched {
                try recordEvent(
                    .phaseSwitched(from: stored.phase, to: outcome.day.phase, programmeDay: outcome.day.programmeDay),
                    db,
                    now: now,
                    timeZone: timeZone
                )
            }
            return CycleCheck(day: outcome.day, recovered: outcome.reason, switched: switched)
        }
    }

    /// Marks today's phase-switch message as shown, so it never appears again.
    public func acknowledgePhaseSwitch(timeZone: TimeZone) throws {
        let now = clock.now()
        let today = LocalDate(now, in: timeZone)
        try writer.write { db in
            guard let settings = try Self.settings(db),
                let state = try CycleStateRecord.fetchOne(db, key: CycleStateRecord.rowID)?.state
            else {
                throw StoreError.notOnboarded
            }
            let day = settings.cycleEngine.day(on: today)
            let announced = state.announcing(day)
            if announced != state {
                _ = try Outbox.save(CycleStateRecord(announced), db, now: now)
            }
        }
    }

    /// The stored cycle state, if any.
    public func cycleState() throws -> CycleState? {
        try reader.read { db in try CycleStateRecord.fetchOne(db, key: CycleStateRecord.rowID)?.state }
    }
}
