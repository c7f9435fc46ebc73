import DietCore
import Foundation
import GRDB

extension AppDatabase {
    /// Saves the profile from onboarding, starts the cycle today (local date in `timeZone`),
    /// stores the weight typed as today's weigh-in and records `onboarding_completed`. Refuses a second onboarding: the start date is
    /// never overwritten.
    @discardableResult
    public func completeOnboarding(_ profile: Profile, timeZone: TimeZone) throws -> UserSettings {
        let now = clock.now()
        let today = LocalDate(now, in: timeZone)
        let settings = UserSettings(profile: profile, startDate: today, timeZoneIdentifier: timeZone.identifier)
        try writer.write { db in
            guard try ProfileRecord.fetchOne(db, key: ProfileRecord.rowID).map({ !$0.deleted }) != true else {
                throw StoreError.alreadyOnboarded
            }
            _ = try Outbox.save(ProfileRecord(settings), db, now: now)
            _ = try Outbox.save(CycleStateRecord(.start(on: today, preset: profile.cyclePreset, timeZone: timeZone)), db, now: now)
            // the weight typed in onboarding is the first weigh-in (a weight already synced for today stays)
            if try WeightRecord.fetchOne(db, key: WeightRecord.id(for: today)).map({ $0.deleted }) ?? true {
                _ = try Outbox.save(WeightRecord(entry: WeightEntry(date: today, kg: profile.weightKg), at: now, in: timeZone), db, now: now)
            }
            try recordEvent(
                .onboardingCompleted(goal: profile.goal, language: profile.language, preset: profile.cyclePreset),
                db,
                now: now,
                timeZone: timeZone
            )
        }
        return settings
    }

    /// The profile and start date, or nil before onboarding.
    public func settings() throws -> UserSettings? {
        try reader.read { db in try Self.settings(db) }
    }

    static func settings(_ db: Database) throws -> UserSettings? {
        guard let record = try ProfileRecord.fetchOne(db, key: ProfileRecord.rowID), !record.deleted else { return nil }
        return try record.settings()
    }

    /// Replaces the profile's editable settings; the start date and zone stay. Records
    /// `eating_window_changed` when the window's times changed (not when a moment was only renamed).
    public func updateProfile(_ profile: Profile, timeZone: TimeZone) throws {
        let now = clock.now()
        try writer.write { db in
            guard var settings = try Self.settings(db) else { throw StoreError.notOnboarded }
            let (before, after) = (settings.profile.eatingWindow, profile.eatingWindow)
            let windowChanged = before.start != after.start || before.end != after.end || before.moments != after.moments
            var profile = profile
            // a new goal keeps the goal weight only where it still fits (below the weight to lose, above to gain)
            if profile.goal != settings.profile.goal, let goalKg = profile.goalWeightKg {
                let latest = try Self.recentWeights(db, through: LocalDate(now, in: timeZone)).last?.kg ?? profile.weightKg
                if (try? Profile.check(goalWeightKg: goalKg, goal: profile.goal, currentKg: latest)) == nil { profile.goalWeightKg = nil }
            }
            settings.profile = profile
            _ = try Outbox.save(ProfileRecord(settings), db, now: now)
            if windowChanged {
                try recordEvent(
                    .eatingWindowChanged(start: profile.eatingWindow.start, end: profile.eatingWindow.end),
                    db,
                    now: now,
                    timeZone: timeZone
                )
            }
        }
    }

    /// The goal weight's forecast today (docs/rules.md §2), or nil without a goal weight.
    public func goalForecast(timeZone: TimeZone) throws -> GoalForecast? {
        let today = LocalDate(clock.now(), in: timeZone)
        return try reader.read { db in
            guard let settings = try Self.settings(db) else { return nil }
            return try Self.goalForecast(db, settings: settings, today: today)
        }
    }

    /// Accepts (or with nil, drops) an adaptive maintenance estimate.
    public func acceptMaintenance(_ kcal: Int?) throws {
        let now = clock.now()
        try writer.write { db in
            guard var settings = try Self.settings(db) else { throw StoreError.notOnboarded }
            settings.acceptedMaintenanceKcal = kcal
            _ = try Outbox.save(ProfileRecord(settings), db, now: now)
        }
    }

    /// Turns recovery mode on (from today's local date) or off (docs/rules.md §8); nothing when it is
    /// already so. Returns the settings after the change.
    ///
    /// Turning it off keeps the stretch it was on as a closed period (`RecoveryPeriod`), so
    /// the cycle resumes at the programme day it paused at (`CyclePauses`). No event is
    /// recorded and the cycle check finds no mismatch on the day of the switch.
    @discardableResult
    public func setRecoveryMode(_ on: Bool, timeZone: TimeZone) throws -> UserSettings {
        let now = clock.now()
        let today = LocalDate(now, in: timeZone)
        return try writer.write { db in
            guard var settings = try Self.settings(db) else { throw StoreError.notOnboarded }
            guard settings.recoveryMode != on else { return settings }
            if on {
                settings.recoverySince = today
            } else if let since = settings.recoverySince {
                settings.recoveryPeriods = RecoveryPeriod.closing(settings.recoveryPeriods, from: since, on: today)
                settings.recoverySince = nil
            }
            _ = try Outbox.save(ProfileRecord(settings), db, now: now)
            return settings
        }
    }
}
