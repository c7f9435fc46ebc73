import DietCore
import Foundation
import GRDB

extension AppDatabase {
    /// The weekly summary (docs/rules.md §8) of the last `weeks` weeks through `today`: the days'
    /// intakes, the weigh-ins and the active days read in one transaction with indexed queries
    /// (a handful of statements whatever the number of weeks), computed by DietCore.
    public func insights(weeks: Int, through today: LocalDate) throws -> WeeklyInsights {
        try reader.read { db in
            guard let settings = try Self.settings(db) else { throw StoreError.notOnboarded }
            return try Self.insights(db, settings: settings, weeks: weeks, through: today)
        }
    }

    static func insights(_ db: Database, settings: UserSettings, weeks: Int, through today: LocalDate) throws -> WeeklyInsights {
        let range = WeeklyInsights.readRange(weeks: weeks, today: today)
        var intake: [LocalDate: Int] = [:]
        for row in try Row.fetchAll(db, sql: Self.insightsIntakeSQL, arguments: [range.lowerBound.iso, range.upperBound.iso]) {
            if let date = LocalDate(iso: row["local_date"]) { intake[date] = row["kcal"] }
        }
        // the targets and the 7-entry average at the window's start reach back to earlier weigh-ins
        let earlier = try Self.weightsBefore(range.lowerBound).fetchAll(db).compactMap(\.entry).reversed()
        let inRange = try WeightRecord.all().between(range.lowerBound, range.upperBound).fetchAll(db).compactMap(\.entry)
        let active = try Int.fetchAll(db, sql: Self.insightsActivitySQL, arguments: [today.dayNumber]).map(LocalDate.init(dayNumber:))
        return WeeklyInsights(
            .init(
                profile: settings.profile,
                startDate: settings.startDate,
                today: today,
                weeks: weeks,
                intake: intake,
                weights: earlier + inRange,
                activeDays: Set(active),
                acceptedMaintenanceKcal: settings.acceptedMaintenanceKcal,
                cyclePauses: settings.cyclePauses
            )
        )
    }

    /// The adaptive maintenance estimate (docs/rules.md §3a) over the 28 days through `today`, as the
    /// weekly summary shows it: one read transaction. Settings can offer the same numbers with it.
    public func maintenanceEstimate(through today: LocalDate) throws -> MaintenanceInsight {
        try reader.read { db in
            guard let settings = try Self.settings(db) else { throw StoreError.notOnboarded }
            let window = WeeklyInsights.estimateWindow(today: today)
            var intake: [LocalDate: Int] = [:]
            for row in try Row.fetchAll(db, sql: Self.insightsIntakeSQL, arguments: [window.lowerBound.iso, window.upperBound.iso]) {
                if let date = LocalDate(iso: row["local_date"]) { intake[date] = row["kcal"] }
            }
            let earlier = try Self.weightsBefore(window.lowerBound).fetchAll(db).compactMap(\.entry)
            let inWindow = try WeightRecord.all().between(window.lowerBound, window.upperBound).fetchAll(db).compactMap(\.entry)
            return MaintenanceInsight(
                profile: settings.profile,
                today: today,
                intake: intake,
                weights: earlier.reversed() + inWindow,
                acceptedMaintenanceKcal: settings.acceptedMaintenanceKcal
            )
        }
    }

    static let insightsIntakeSQL = """
        SELECT local_date, sum(kcal) AS kcal FROM meal_logs
        WHERE deleted = 0 AND local_date BETWEEN ? AND ? GROUP BY local_date
        """
    /// Every active day through today: the streak's longest run reaches back to the first.
    static let insightsActivitySQL = "SELECT day FROM activity_days WHERE day <= ? ORDER BY day"

    static func weightsBefore(_ date: LocalDate) -> QueryInterfaceRequest<WeightRecord> {
        WeightRecord.all().alive().filter(WeightRecord.Columns.localDate < date.iso)
            .order(WeightRecord.Columns.localDate.desc).limit(WeightTrend.rollingCount)
    }

    /// SQLite's plan for every query of the weekly summary, for tests and diagnostics: query →
    /// plan lines (`SEARCH … USING INDEX …`, never a `SCAN` of a whole table).
    public func insightsQueryPlans(weeks: Int, through today: LocalDate) throws -> [(query: String, plan: [String])] {
        let range = WeeklyInsights.readRange(weeks: weeks, today: today)
        return try reader.read { db in
            var statements: [(String, StatementArguments)] = [
                (Self.insightsIntakeSQL, [range.lowerBound.iso, range.upperBound.iso]),
                (Self.insightsActivitySQL, [today.dayNumber]),
            ]
            for request in [Self.weightsBefore(range.lowerBound), WeightRecord.all().between(range.lowerBound, range.upperBound)] {
                let prepared = try request.asRequest(of: Row.self).makePreparedRequest(db)
                statements.append((prepared.statement.sql, prepared.statement.arguments))
            }
            return try statements.map { sql, arguments in
                let rows = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
                return (sql, rows.map { $0["detail"] as String? ?? "" })
            }
        }
    }
}
