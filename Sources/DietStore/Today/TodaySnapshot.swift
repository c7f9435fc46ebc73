import DietCore
import Foundation
import GRDB

/// Everything the dashboard shows, read in one transaction and computed by DietCore.
public struct TodaySnapshot: Hashable, Sendable {
    public let settings: UserSettings
    public let report: DayReport
    /// Today's meals with their ids, in the order eaten.
    public let meals: [Meal]
    /// The local time the snapshot was taken at.
    public let time: TimeOfDay
}

extension AppDatabase {
    /// The dashboard of today (local date in `timeZone`), or nil before onboarding.
    public func today(timeZone: TimeZone) throws -> TodaySnapshot? {
        let now = clock.now()
        return try reader.read { db in try Self.snapshot(db, now: now, timeZone: timeZone) }
    }

    /// Observes the dashboard: a new snapshot after every change of the store.
    public func observeToday(timeZone: TimeZone) -> ValueObservation<ValueReducers.Fetch<TodaySnapshot?>> {
        let clock = self.clock
        return ValueObservation.tracking { db in try Self.snapshot(db, now: clock.now(), timeZone: timeZone) }
    }

    static func snapshot(_ db: Database, now: Date, timeZone: TimeZone) throws -> TodaySnapshot? {
        guard let settings = try settings(db) else { return nil }
        let today = LocalDate(now, in: timeZone)
        let time = TimeOfDay(now, in: timeZone)
        let meals = try MealRecord.all().on(today).fetchAll(db).compactMap(\.meal)
        let weights = try recentWeights(db, through: today)
        let active = try activeDays(db, through: today)
        let state = try CycleStateRecord.fetchOne(db, key: CycleStateRecord.rowID)?.state
        let report = DayReport(.init(profile: settings.profile, startDate: settings.startDate, today: today, hour: time.hour,
                                     meals: meals.map(\.entry), weights: weights, activeDays: active,
                                     acceptedMaintenanceKcal: settings.acceptedMaintenanceKcal, cycleState: state))
        return TodaySnapshot(settings: settings, report: report, meals: meals, time: time)
    }

    /// The last 7 weights up to `date` (the average and the latest for macro goals).
    static func recentWeights(_ db: Database, through date: LocalDate) throws -> [WeightEntry] {
        try WeightRecord.all().alive().filter(WeightRecord.Columns.localDate <= date.iso)
            .order(WeightRecord.Columns.localDate.desc).limit(WeightTrend.rollingCount)
            .fetchAll(db).compactMap(\.entry).reversed()
    }

    /// Local dates with a meal or weight, reaching back far enough to hold the current run:
    /// the window doubles until the run starts inside it.
    static func activeDays(_ db: Database, through date: LocalDate) throws -> Set<LocalDate> {
        var span = 64
        while true {
            let first = date.adding(days: -span)
            let dates = try String.fetchAll(db, sql: """
                SELECT local_date FROM meal_logs WHERE deleted = 0 AND local_date BETWEEN ? AND ?
                UNION SELECT local_date FROM weight_entries WHERE deleted = 0 AND local_date BETWEEN ? AND ?
                """, arguments: [first.iso, date.iso, first.iso, date.iso])
            let days = Set(dates.compactMap(LocalDate.init(iso:)))
            if !days.contains(first) || span > 40_000 { return days }
            span *= 2
        }
    }
}

extension AppDatabase {
    /// SQLite's plan for every query of the today snapshot, for benchmarks and diagnostics:
    /// query → plan lines (`SEARCH … USING INDEX …`, never `SCAN` of a whole table).
    public func todayQueryPlans(timeZone: TimeZone) throws -> [(query: String, plan: [String])] {
        let today = LocalDate(clock.now(), in: timeZone)
        return try reader.read { db in
            var statements: [(String, StatementArguments)] = [
                ("SELECT * FROM profile WHERE id = ?", [ProfileRecord.rowID.uuidString]),
                ("SELECT * FROM cycle_states WHERE id = ?", [CycleStateRecord.rowID.uuidString]),
            ]
            for request in [MealRecord.all().on(today).asRequest(of: Row.self),
                            WeightRecord.all().alive().filter(WeightRecord.Columns.localDate <= today.iso)
                                .order(WeightRecord.Columns.localDate.desc).limit(WeightTrend.rollingCount).asRequest(of: Row.self)] {
                let prepared = try request.makePreparedRequest(db)
                statements.append((prepared.statement.sql, prepared.statement.arguments))
            }
            statements.append(("""
                SELECT local_date FROM meal_logs WHERE deleted = 0 AND local_date BETWEEN ? AND ?
                UNION SELECT local_date FROM weight_entries WHERE deleted = 0 AND local_date BETWEEN ? AND ?
                """, [today.adding(days: -64).iso, today.iso, today.adding(days: -64).iso, today.iso]))
            return try statements.map { sql, arguments in
                let rows = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
                return (sql, rows.map { $0["detail"] as String? ?? "" })
            }
        }
    }
}
