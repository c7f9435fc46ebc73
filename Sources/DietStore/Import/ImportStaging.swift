import DietCore
import Foundation
import GRDB

/// What an import file holds, checked row by row and kept on disk while the file is read, so
/// that an import needs the same memory for 1,000 rows as for 10 million: a temporary SQLite
/// database (SQLite unlinks it as it opens it, so nothing is left behind, not even after a
/// crash) with a small page cache; whatever does not fit is in the file.
///
/// An import reads its whole file into the staging first (a bad row refuses the file before
/// anything is written), then `AppDatabase.importEntries(format:timeZone:pacing:afterBatch:next:)`
/// writes the staged entries into the store in short batches.
///
/// Not thread-safe: one import uses it on one thread. `fill` runs the first pass in one
/// transaction of the staging database (it is never shared, so that lock holds nobody up).
public final class ImportStaging {
    private let queue: DatabaseQueue

    /// The page cache of the staging database; the rest stays in its file.
    static let cacheKilobytes = 8 * 1024

    public init() throws {
        var configuration = Configuration()
        configuration.label = "w-diet.import-staging"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -\(Self.cacheKilobytes)")
        }
        // An empty path: a private database in a temporary file, deleted when it is closed.
        queue = try DatabaseQueue(path: "", configuration: configuration)
        try queue.inDatabase { db in
            try db.execute(
                sql: """
                    CREATE TABLE occurrences (key TEXT PRIMARY KEY NOT NULL, count INTEGER NOT NULL) WITHOUT ROWID;
                    CREATE TABLE meals (
                      seq INTEGER PRIMARY KEY, id BLOB NOT NULL, name TEXT NOT NULL, kcal INTEGER NOT NULL,
                      protein REAL, carbs REAL, fat REAL, fiber REAL,
                      instant REAL NOT NULL, local_date TEXT NOT NULL, local_time TEXT NOT NULL, time_zone TEXT NOT NULL
                    );
                    CREATE TABLE meal_sums (
                      key TEXT PRIMARY KEY NOT NULL, instant REAL NOT NULL, offset INTEGER NOT NULL,
                      kcal REAL, protein REAL, carbs REAL, fat REAL, fiber REAL, name TEXT
                    );
                    CREATE TABLE weights (
                      day TEXT PRIMARY KEY NOT NULL, kg REAL NOT NULL, instant REAL NOT NULL, offset INTEGER
                    ) WITHOUT ROWID;
                    """
            )
        }
    }

    /// Runs the first pass: `body` adds what the file holds, in one transaction of the staging.
    public func fill<T>(_ body: (Writer) throws -> T) throws -> T {
        try queue.write { db in try body(Writer(db: db)) }
    }

    /// Adds to the staging inside `fill`; must not be kept beyond it.
    public struct Writer {
        let db: Database

        /// How often `key` was seen so far, this time included (1 the first time): rows of a
        /// diary that look alike are told apart by it, the same way on every import of the file.
        public func occurrence(of key: String) throws -> Int {
            try Int.fetchOne(
                db.cachedStatement(
                    sql: "INSERT INTO occurrences (key, count) VALUES (?, 1) ON CONFLICT (key) DO UPDATE SET count = count + 1 RETURNING count"
                ),
                arguments: [key]
            ) ?? 1
        }

        /// A meal as it will be written (a diary row), after the ones added before.
        public func add(_ meal: ImportedMeal) throws {
            let entry = meal.entry
            try db.cachedStatement(
                sql: """
                    INSERT INTO meals (id, name, kcal, protein, carbs, fat, fiber, instant, local_date, local_time, time_zone)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                meal.id.uuidString, entry.name, entry.kcal, entry.proteinG, entry.carbsG, entry.fatG, entry.fiberG,
                entry.instant.timeIntervalSinceReferenceDate, entry.localDate.iso, entry.localTime.formatted, entry.timeZoneIdentifier,
            ])
        }

        /// Adds amounts to the meal `key` (samples of one meal come one by one and anywhere in
        /// the file): amounts add up, a missing amount leaves the sum as it is, the first name
        /// stays. The instant and offset are the ones the meal was first seen with.
        public func addToMeal(key: String, instant: Date, offsetSeconds: Int, amounts: StagedMealSum.Amounts, name: String?) throws {
            try db.cachedStatement(
                sql: """
                    INSERT INTO meal_sums (key, instant, offset, kcal, protein, carbs, fat, fiber, name)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (key) DO UPDATE SET
                      kcal = CASE WHEN excluded.kcal IS NULL THEN kcal ELSE coalesce(kcal, 0) + excluded.kcal END,
                      protein = CASE WHEN excluded.protein IS NULL THEN protein ELSE coalesce(protein, 0) + excluded.protein END,
                      carbs = CASE WHEN excluded.carbs IS NULL THEN carbs ELSE coalesce(carbs, 0) + excluded.carbs END,
                      fat = CASE WHEN excluded.fat IS NULL THEN fat ELSE coalesce(fat, 0) + excluded.fat END,
                      fiber = CASE WHEN excluded.fiber IS NULL THEN fiber ELSE coalesce(fiber, 0) + excluded.fiber END,
                      name = coalesce(name, excluded.name)
                    """
            ).execute(arguments: [
                key, instant.timeIntervalSinceReferenceDate, offsetSeconds, amounts.kcal, amounts.protein, amounts.carbs, amounts.fat,
                amounts.fiber, name,
            ])
        }

        /// Every meal added with `addToMeal`, in the order of their instants (then as first
        /// seen), read while `body` may `add` meals.
        public func forEachMealSum(_ body: (StagedMealSum) throws -> Void) throws {
            let rows = try Row.fetchCursor(
                db,
                sql: "SELECT key, instant, offset, kcal, protein, carbs, fat, fiber, name FROM meal_sums ORDER BY instant, rowid"
            )
            while let row = try rows.next() {
                try body(
                    StagedMealSum(
                        key: row[0] as String,
                        instant: Date(timeIntervalSinceReferenceDate: row[1] as Double),
                        offsetSeconds: row[2] as Int,
                        amounts: StagedMealSum.Amounts(
                            kcal: row[3] as Double?,
                            protein: row[4] as Double?,
                            carbs: row[5] as Double?,
                            fat: row[6] as Double?,
                            fiber: row[7] as Double?
                        ),
                        name: row[8] as String?
                    )
                )
            }
        }

        /// The weight of `day`: replaces the one staged for that day when `rule` says so.
        public func setWeight(day: LocalDate, kg: Double, measuredAt: Date, offsetSeconds: Int?, rule: StagedWeight.Rule) throws {
            let replace =
                switch rule {
                case .laterRowWins: "true"
                case .laterMeasurementWins: "excluded.instant >= weights.instant"
                }
            try db.cachedStatement(
                sql: """
                    INSERT INTO weights (day, kg, instant, offset) VALUES (?, ?, ?, ?)
                    ON CONFLICT (day) DO UPDATE SET kg = excluded.kg, instant = excluded.instant, offset = excluded.offset WHERE \(replace)
                    """
            ).execute(arguments: [day.iso, kg, measuredAt.timeIntervalSinceReferenceDate, offsetSeconds])
        }
    }

    /// Up to `limit` meals added after `seq` (0: from the first), with their position.
    public func meals(after seq: Int64, limit: Int) throws -> [(seq: Int64, meal: ImportedMeal)] {
        try queue.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT seq, id, name, kcal, protein, carbs, fat, fiber, instant, local_date, local_time, time_zone
                        FROM meals WHERE seq > ? ORDER BY seq LIMIT ?
                        """
                ),
                arguments: [seq, limit]
            ).map { row in
                guard let id = UUID(uuidString: row[1] as String), let date = LocalDate(iso: row[9] as String),
                    let time = TimeOfDay(string: row[10] as String)
                else {
                    throw StoreError.importRefused(reason: "the import's staging is damaged")
                }
                let entry = MealEntry(
                    restoring: row[2] as String,
                    kcal: row[3] as Int,
                    proteinG: row[4] as Double?,
                    carbsG: row[5] as Double?,
                    fatG: row[6] as Double?,
                    fiberG: row[7] as Double?,
                    instant: Date(timeIntervalSinceReferenceDate: row[8] as Double),
                    localDate: date,
                    localTime: time,
                    timeZoneIdentifier: row[11] as String
                )
                return (row[0] as Int64, ImportedMeal(id: id, entry: entry))
            }
        }
    }

    /// Up to `limit` staged weights of days after `day` (nil: from the first), by day.
    public func weights(after day: LocalDate?, limit: Int) throws -> [StagedWeight] {
        try queue.read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT day, kg, instant, offset FROM weights WHERE day > ? ORDER BY day LIMIT ?"),
                arguments: [day?.iso ?? "", limit]
            ).map { row in
                guard let date = LocalDate(iso: row[0] as String) else {
                    throw StoreError.importRefused(reason: "the import's staging is damaged")
                }
                return StagedWeight(
                    day: date,
                    kg: row[1] as Double,
                    measuredAt: Date(timeIntervalSinceReferenceDate: row[2] as Double),
                    offsetSeconds: row[3] as Int?
                )
            }
        }
    }
}

/// A meal whose amounts were added up in the staging (`ImportStaging.Writer.addToMeal`).
public struct StagedMealSum: Sendable {
    public struct Amounts: Sendable {
        public var kcal: Double?
        public var protein: Double?
        public var carbs: Double?
        public var fat: Double?
        public var fiber: Double?

        public init(kcal: Double? = nil, protein: Double? = nil, carbs: Double? = nil, fat: Double? = nil, fiber: Double? = nil) {
            self.kcal = kcal
            self.protein = protein
            self.carbs = carbs
            self.fat = fat
            self.fiber = fiber
        }
    }

    public let key: String
    public let instant: Date
    public let offsetSeconds: Int
    public let amounts: Amounts
    public let name: String?
}

/// A day's weight as staged: the kilograms as read, when it was measured, and the offset from
/// UTC it was measured at (nil: the import's time zone).
public struct StagedWeight: Sendable {
    /// Which of two weights of one day the staging keeps.
    public enum Rule: Sendable {
        /// The later row of the file (a diary's later weigh-in).
        case laterRowWins
        /// The later measurement; of two at the same instant, the later row.
        case laterMeasurementWins
    }

    public let day: LocalDate
    public let kg: Double
    public let measuredAt: Date
    public let offsetSeconds: Int?
}
