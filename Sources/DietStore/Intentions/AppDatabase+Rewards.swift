import DietCore
import Foundation
import GRDB

/// A badge with the local date it was earned.
public struct EarnedBadge: Hashable, Sendable {
    public let badge: Badge
    public let earnedOn: LocalDate
}

/// Badges and points as the badges page and `wdiet badges` show them (docs/rules.md §5).
public struct Rewards: Sendable {
    /// The local date the rewards were read for.
    public let today: LocalDate
    /// Every badge earned, stored and freshly found merged (never lost), in display order.
    public let earned: [EarnedBadge]
    /// The next badge of each category not yet complete, with the progress towards it.
    public let next: [BadgeProgress]
    /// Points with their day-by-day history through today.
    public let points: PointsLedger
    /// While recovery mode is on, the surfaces show no points, streak counts or thresholds.
    public let recoveryMode: Bool

    /// The last `count` days of the points history, oldest first (days before the first record
    /// are left out).
    public func pointsHistory(days count: Int) -> [PointsLedger.Day] {
        Array(points.days.suffix(count))
    }
}

extension AppDatabase {
    /// Badges earned more than this many days before they are found (an imported history, a
    /// new version reading an old store) are recorded silently: a roar for an old achievement
    /// would be noise. A meal logged late for last week still gets its roar.
    public static let badgeAnnounceWindowDays = 7

    /// Earned badges (stored merged with fresh), the next badge per category with progress,
    /// and the points ledger through today in `timeZone`. Reads only: nothing is stored.
    public func rewards(timeZone: TimeZone) throws -> Rewards {
        let today = clock.today(in: timeZone)
        return try reader.read { db in
            guard let settings = try Self.settings(db) else { throw StoreError.notOnboarded }
            let records = try Self.dayRecords(db, settings: settings, through: today)
            let engine = Self.rewardsEngine(settings)
            let fresh = BadgeEvaluator.earned(records: records, goal: settings.profile.goal, engine: engine, through: today)
            let all = BadgeEvaluator.merge(stored: try BadgeRecord.all(db), fresh: fresh)
            let earned = all.map { EarnedBadge(badge: $0.key, earnedOn: $0.value) }.sorted { $0.badge < $1.badge }
            let next = BadgeEvaluator.next(
                records: records,
                goal: settings.profile.goal,
                engine: engine,
                earned: Set(all.keys),
                through: today
            )
            return Rewards(
                today: today,
                earned: earned,
                next: next,
                points: PointsLedger(records: records, engine: engine, through: today),
                recoveryMode: settings.recoveryMode
            )
        }
    }

    /// Evaluates the history, stores every badge not stored yet (never lost) and returns the
    /// ones to announce, in display order: none in recovery mode or earned on a day it was on
    /// (docs/rules.md §8: recorded silently), none earned before the announce window. Each badge is announced at most
    /// once: evaluation and storing happen in one write, so two saves at once cannot both
    /// announce it.
    @discardableResult
    public func claimNewBadges(timeZone: TimeZone) throws -> [Badge] {
        let now = clock.now()
        let today = LocalDate(now, in: timeZone)
        return try writer.write { db in
            guard let settings = try Self.settings(db) else { return [] }
            let records = try Self.dayRecords(db, settings: settings, through: today)
            let fresh = BadgeEvaluator.earned(
                records: records,
                goal: settings.profile.goal,
                engine: Self.rewardsEngine(settings),
                through: today
            )
            let stored = try BadgeRecord.all(db)
            let oldest = today.adding(days: -Self.badgeAnnounceWindowDays)
            // a badge earned on a day recovery mode was on stays silent after it ends
            let rested = CyclePauses(periods: settings.recoveryPeriods, since: settings.recoverySince)
            var announced: [Badge] = []
            for (badge, date) in fresh where stored[badge] == nil {
                let announce = !settings.recoveryMode && date >= oldest && !rested.isPaused(date)
                try BadgeRecord(badge: badge, earnedOn: date, recordedAt: now, announced: announce).insert(db)
                if announce { announced.append(badge) }
            }
            return announced.sorted()
        }
    }

    /// The MATADOR programme whose cycles earn adherence badges: only the losing goal cycles
    /// (as on the dashboard), with the days recovery mode paused it.
    static func rewardsEngine(_ settings: UserSettings) -> CycleEngine? {
        guard settings.profile.goal == .lose else { return nil }
        return CycleEngine(
            startDate: settings.startDate,
            preset: settings.profile.cyclePreset,
            pauses: CyclePauses(periods: settings.recoveryPeriods, since: settings.recoverySince)
        )
    }

    /// One record per local date with a meal, a weight or an analytics event, oldest first,
    /// through `last`, read with three grouped queries.
    ///
    /// - Macros: every macro at 70 % of the goal that day by the dashboard's rules
    ///   (`MacroFeedback`), against that day's targets: the energy plan from the latest weight
    ///   known that day and, for the losing goal, the cycle phase of that day. The current
    ///   profile stands for every day (the store keeps no history of profile changes).
    /// - Meals: mindful meals (recovery mode, no amounts) count like other meals for the
    ///   streak, the meal milestones and the daily +10, never for the macro bonus.
    /// - Opened: nothing records opening the app as such; a day counts as opened when any
    ///   analytics event was recorded on it (a meal or weight logged, a lesson or the briefing
    ///   opened, on any device, since events sync). Looking at a page records nothing, so it
    ///   earns no daily +2 on its own.
    static func dayRecords(_ db: Database, settings: UserSettings, through last: LocalDate) throws -> [DayRecord] {
        let meals = try mealDays(db, through: last)
        let mindful = try mindfulMealCounts(db, through: last)
        let weights = try WeightRecord.all().between(LocalDate(dayNumber: 0), last).fetchAll(db).compactMap(\.entry)
        let opened = Set(
            try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT local_date FROM analytics_events WHERE deleted = 0 AND local_date <= ?
                    """,
                arguments: [last.iso]
            ).compactMap(LocalDate.init(iso:))
        )
        let weightByDate = Dictionary(weights.map { ($0.date, $0.kg) }, uniquingKeysWith: { _, later in later })
        let dates = Set(meals.keys).union(mindful.keys).union(weightByDate.keys).union(opened).sorted()
        let engine = rewardsEngine(settings)
        var latestKg: Double?
        var weightIndex = 0
        return dates.map { date in
            while weightIndex < weights.count, weights[weightIndex].date <= date {
                latestKg = weights[weightIndex].kg
                weightIndex += 1
            }
            let day = meals[date]
            let good = day.map { allMacrosGood($0, on: date, settings: settings, latestKg: latestKg, engine: engine) } ?? false
            return DayRecord(
                date: date,
                mealCount: (day?.count ?? 0) + (mindful[date] ?? 0),
                weightKg: weightByDate[date],
                allMacrosGood: good,
                opened: opened.contains(date)
            )
        }
    }

    /// Meals of one local date: how many, and the grams of each macro (summed in tenths, as
    /// `DailyTotals` sums them).
    struct MealDay {
        let count: Int
        let proteinG: Double
        let carbsG: Double
        let fatG: Double
    }

    static func mealDays(_ db: Database, through last: LocalDate) throws -> [LocalDate: MealDay] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT local_date, count(*) AS n,
                       sum(CAST(round(coalesce(protein_g, 0) * 10) AS INTEGER)) AS p,
                       sum(CAST(round(coalesce(carbs_g, 0) * 10) AS INTEGER)) AS c,
                       sum(CAST(round(coalesce(fat_g, 0) * 10) AS INTEGER)) AS f
                FROM meal_logs WHERE deleted = 0 AND local_date <= ? GROUP BY local_date
                """,
            arguments: [last.iso]
        )
        var result: [LocalDate: MealDay] = [:]
        for row in rows {
            guard let date = LocalDate(iso: row["local_date"]) else { continue }
            let p: Int = row["p"]
            let c: Int = row["c"]
            let f: Int = row["f"]
            result[date] = MealDay(count: row["n"], proteinG: Double(p) / 10, carbsG: Double(c) / 10, fatG: Double(f) / 10)
        }
        return result
    }

    /// Mindful meals per local date.
    static func mindfulMealCounts(_ db: Database, through last: LocalDate) throws -> [LocalDate: Int] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT local_date, count(*) AS n FROM mindful_meals WHERE deleted = 0 AND local_date <= ? GROUP BY local_date
                """,
            arguments: [last.iso]
        )
        var result: [LocalDate: Int] = [:]
        for row in rows {
            if let date = LocalDate(iso: row["local_date"]) { result[date] = row["n"] }
        }
        return result
    }

    /// Whether every macro of the day reached 70 % of that day's goal (the dashboard's
    /// targets: `DayReport` picks them the same way).
    static func allMacrosGood(
        _ day: MealDay,
        on date: LocalDate,
        settings: UserSettings,
        latestKg: Double?,
        engine: CycleEngine?
    ) -> Bool {
        let plan = EnergyPlan(
            profile: settings.profile,
            latestWeightKg: latestKg,
            on: date,
            acceptedMaintenanceKcal: settings.acceptedMaintenanceKcal
        )
        let targets = engine.map { $0.targets(on: date, plan: plan).today } ?? plan.targets(plan.staticKind)
        let progress = [
            (Macro.protein, day.proteinG, targets.proteinG), (.carbs, day.carbsG, targets.carbsG),
            (.fat, day.fatG, targets.fatG),
        ].map { macro, eaten, goal in
            MacroProgress(
                macro: macro,
                eatenG: eaten,
                goalG: goal,
                smiley: MacroFeedback.smiley(macro, eatenG: eaten, goalG: goal, anythingLogged: day.count > 0)
            )
        }
        return MacroFeedback.allGood(progress)
    }
}
