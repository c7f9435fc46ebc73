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
    /// Today's mindful meals (recovery mode) with their ids, in the order eaten.
    public let mindfulMeals: [MindfulMeal]
    /// The goal weight and when it is expected (docs/rules.md §2): today only, never in recovery mode.
    public let goal: GoalForecast?

    /// Today's meals under the profile's eating moments (every moment, empty ones too), each
    /// group in the order eaten.
    public var mealGroups: [MealGroup] {
        let window = settings.profile.eatingWindow
        let byMoment = Dictionary(grouping: meals) { window.moment(of: $0.entry) }
        return window.eatingMoments.map { MealGroup(moment: $0, meals: byMoment[$0.number] ?? []) }
    }

    /// The eating moment a meal logged now goes to: the current or the next one.
    public var currentMoment: Int { settings.profile.eatingWindow.moment(at: time) }

    /// The day shown (today, or a past day's diary).
    public var date: LocalDate { report.date }
    /// A past day's diary rather than today.
    public let isPast: Bool
}

/// The meals of one eating moment.
public struct MealGroup: Hashable, Sendable {
    public let moment: EatingMoment
    public let meals: [Meal]

    /// The calories of the group's meals.
    public var kcal: Int { meals.reduce(0) { $0 + $1.entry.kcal } }
}

extension AppDatabase {
    /// The dashboard of today (local date in `timeZone`), or nil before onboarding.
    public func today(timeZone: TimeZone) throws -> TodaySnapshot? {
        let now = clock.now()
        return try reader.read { db in try Self.snapshot(db, now: now, timeZone: timeZone) }
    }

    /// The diary of `date` (docs/rules.md §4: every day is reachable): its meals, targets and
    /// smileys judged against the whole day's goals; the streak and weights as they stood at
    /// its end. Today's dashboard for today or a later date; nil before onboarding.
    public func day(_ date: LocalDate, timeZone: TimeZone) throws -> TodaySnapshot? {
        let now = clock.now()
        return try reader.read { db in try Self.snapshot(db, now: now, timeZone: timeZone, date: date) }
    }

    /// Observes the dashboard: a new snapshot after every change of the store.
    public func observeToday(timeZone: TimeZone) -> ValueObservation<ValueReducers.Fetch<TodaySnapshot?>> {
        let clock = self.clock
        return ValueObservation.tracking { db in try Self.snapshot(db, now: clock.now(), timeZone: timeZone) }
    }

    static func snapshot(_ db: Database, now: Date, timeZone: TimeZone, date: LocalDate? = nil) throws -> TodaySnapshot? {
        guard let settings = try settings(db) else { return nil }
        let actualToday = LocalDate(now, in: timeZone)
        let isPast = date.map { $0 < actualToday } ?? false
        let today = isPast ? date ?? actualToday : actualToday
        // a past day is over: its report is that of its last minute
        let time = isPast ? TimeOfDay(minutesSinceMidnight: 23 * 60 + 59) : TimeOfDay(now, in: timeZone)
        let meals = try MealRecord.all().on(today).fetchAll(db).compactMap(\.meal)
        let weights = try recentWeights(db, through: today)
        let active = try activeDays(db, through: today)
        let state = try CycleStateRecord.fetchOne(db, key: CycleStateRecord.rowID)?.state
        let mindful = try MindfulMealRecord.all().on(today).fetchAll(db).compactMap(\.meal)
        let report = DayReport(
            .init(
                profile: settings.profile,
                startDate: settings.startDate,
                today: today,
                hour: time.hour,
                time: time,
                dayIsOver: isPast,
                meals: meals.map(\.entry),
                weights: weights,
                activeDays: active,
                acceptedMaintenanceKcal: settings.acceptedMaintenanceKcal,
                cycleState: isPast ? nil : state,
                recoverySince: settings.recoverySince,
                recoveryPeriods: settings.recoveryPeriods,
                mindfulMeals: mindful.map(\.entry)
            )
        )
        let goal = isPast || settings.recoveryMode ? nil : try goalForecast(db, settings: settings, today: today)
        return TodaySnapshot(settings: settings, report: report, meals: meals, time: time, mindfulMeals: mindful, goal: goal, isPast: isPast)
    }

    /// The goal forecast on `today`, or nil without a goal weight (or with the goal maintain).
    /// Reads the weigh-ins of the last 90 days, two columns of them (the dashboard's budget): the
    /// trend keeps 0.9⁹⁰ ≈ 0.008 % of a weight that old, less than a gram for any weigh-in within
    /// 10 kg of today's.
    static func goalForecast(_ db: Database, settings: UserSettings, today: LocalDate) throws -> GoalForecast? {
        guard settings.profile.goalWeightKg != nil, settings.profile.goal != .maintain else { return nil }
        let weights = try Row.fetchAll(
            db,
            sql: "SELECT local_date, weight_kg FROM weight_entries WHERE deleted = 0 AND local_date BETWEEN ? AND ? ORDER BY local_date",
            arguments: [today.adding(days: -90).iso, today.iso]
        ).compactMap { row in LocalDate(iso: row[0]).flatMap { try? WeightEntry(date: $0, kg: row[1]) } }
        let plan = EnergyPlan(
            profile: settings.profile,
            latestWeightKg: weights.last?.kg,
            on: today,
            acceptedMaintenanceKcal: settings.acceptedMaintenanceKcal
        )
        return GoalForecast(
            goal: settings.profile.goal,
            goalKg: settings.profile.goalWeightKg,
            weights: weights,
            fallbackKg: settings.profile.weightKg,
            today: today,
            balance: GoalForecast.planBalance(plan: plan, engine: settings.cycleEngine)
        )
    }

    /// The last 7 weights up to `date` (the average and the latest for macro goals).
    static func recentWeights(_ db: Database, through date: LocalDate) throws -> [WeightEntry] {
        try WeightRecord.all().alive().filter(WeightRecord.Columns.localDate <= date.iso)
            .order(WeightRecord.Columns.localDate.desc).limit(WeightTrend.rollingCount)
            .fetchAll(db).compactMap(\.entry).reversed()
    }

    /// The local dates of the current run of active days up to `date`, plus the latest active
    /// day before it: read from today backwards, stopping at the first gap.
    static func activeDays(_ db: Database, through date: LocalDate) throws -> Set<LocalDate> {
        let today = date.dayNumber
        var days: Set<LocalDate> = []
        var expected = today
        let cursor = try Int.fetchCursor(
            db,
            sql: "SELECT day FROM activity_days WHERE day <= ? ORDER BY day DESC",
            arguments: [today]
        )
        while let day = try cursor.next() {
            days.insert(LocalDate(dayNumber: day))
            // today may still be open: the run can end yesterday
            if day != expected && !(expected == today && day == today - 1) { break }
            expected = day - 1
        }
        return days
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
            for request in [
                MealRecord.all().on(today).asRequest(of: Row.self),
                WeightRecord.all().alive().filter(WeightRecord.Columns.localDate <= today.iso)
                    .order(WeightRecord.Columns.localDate.desc).limit(WeightTrend.rollingCount).asRequest(of: Row.self),
            ] {
                let prepared = try request.makePreparedRequest(db)
                statements.append((prepared.statement.sql, prepared.statement.arguments))
            }
            statements.append(("SELECT day FROM activity_days WHERE day <= ? ORDER BY day DESC", [today.dayNumber]))
            return try statements.map { sql, arguments in
                let rows = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
                return (sql, rows.map { $0["detail"] as String? ?? "" })
            }
        }
    }
}
