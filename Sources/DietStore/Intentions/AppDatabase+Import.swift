import DietCore
import Foundation
import GRDB
import SyncProtocol

/// A meal brought in from another app, with the id its import derived from the file (the
/// same on every re-import of that file).
public struct ImportedMeal: Hashable, Sendable {
    public let id: UUID
    public let entry: MealEntry

    public init(id: UUID, entry: MealEntry) {
        self.id = id
        self.entry = entry
    }
}

/// A day's weight brought in from another app: when it was measured decides which of two
/// weights of one day wins (the store's later-wins rule).
public struct ImportedWeight: Hashable, Sendable {
    public let entry: WeightEntry
    public let measuredAt: Date
    public let timeZone: TimeZone

    public init(entry: WeightEntry, measuredAt: Date, timeZone: TimeZone) {
        self.entry = entry
        self.measuredAt = measuredAt
        self.timeZone = timeZone
    }
}

/// What an import wrote, and what it found already there.
public struct ImportOutcome: Hashable, Sendable {
    /// Meals written now.
    public var mealsAdded = 0
    /// Meals whose id was already stored (an earlier import of the same file, even if deleted
    /// since): left as they are.
    public var mealsAlreadyThere = 0
    /// Days whose weight was written now.
    public var weightsAdded = 0
    /// Days whose stored weight was measured at or after the imported one: kept.
    public var weightsKept = 0

    public init() {}
}

/// A part of an import written in one transaction.
public struct ImportBatch: Sendable {
    public var meals: [ImportedMeal]
    public var weights: [ImportedWeight]

    public init(meals: [ImportedMeal] = [], weights: [ImportedWeight] = []) {
        self.meals = meals
        self.weights = weights
    }

    public var count: Int { meals.count + weights.count }
}

/// How an import shares the store with everyone else writing to it (the web app, the CLI, a
/// sync): it writes in batches of about `batchDuration` each, one transaction per batch, and
/// after each batch leaves the store's write lock free for `pause`, long enough for a writer of
/// another process to get it (SQLite's busy handler retries every 100 ms at most). A writer
/// of this process gets it anyway: the store's writes queue in order. So no write waits for an
/// import longer than about one batch.
public struct ImportPacing: Sendable {
    /// What a batch should take; the batch size follows the time the last one took.
    public var batchDuration: Duration
    /// The first batch's size, and the bounds of any batch's.
    public var firstBatch: Int
    public var maxBatch: Int
    /// The lock is left free this long between batches.
    public var pause: Duration

    public init(batchDuration: Duration = .milliseconds(400), firstBatch: Int = 500, maxBatch: Int = 20_000, pause: Duration = .milliseconds(110)) {
        self.batchDuration = batchDuration
        self.firstBatch = max(1, firstBatch)
        self.maxBatch = max(self.firstBatch, maxBatch)
        self.pause = pause
    }

    public static let `default` = ImportPacing()

    /// Writes batches this way: `next(limit)` gives the next batch of at most `limit` rows (nil
    /// at the end; empty ones are skipped), `write` writes one in a transaction; the lock is left
    /// free for `pause` between two, and each size follows the time the last one took.
    func run<Batch>(next: (Int) throws -> Batch?, rows: (Batch) -> Int, write: (Batch) throws -> Void) throws {
        var size = firstBatch
        var first = true
        let clock = ContinuousClock()
        while let batch = try next(size) {
            let count = rows(batch)
            if count == 0 { continue }
            if !first { Thread.sleep(forTimeInterval: pause / .seconds(1)) }
            first = false
            let started = clock.now
            try write(batch)
            size = nextSize(after: count, took: started.duration(to: clock.now))
        }
    }

    /// The size of the next batch after one of `rows` rows took `took`.
    func nextSize(after rows: Int, took: Duration) -> Int {
        let seconds = took / .seconds(1)
        guard rows > 0, seconds > 0 else { return maxBatch }
        let target = Double(rows) * (batchDuration / .seconds(1)) / seconds
        return min(maxBatch, max(1, Int(target.rounded(.down))))
    }
}

extension ImportOutcome {
    static func + (a: Self, b: Self) -> Self {
        var sum = a
        sum.mealsAdded += b.mealsAdded
        sum.mealsAlreadyThere += b.mealsAlreadyThere
        sum.weightsAdded += b.weightsAdded
        sum.weightsKept += b.weightsKept
        return sum
    }
}

extension AppDatabase {
    /// Writes imported meals and weights in batches (`ImportPacing`): each batch in ONE
    /// transaction, through the same records and outbox as logging them by hand, and, when
    /// anything was added, one `data_imported` event at the end (`format`: the source, e.g.
    /// `apple_health`) rather than one per meal.
    ///
    /// `next(limit)` gives the next batch of at most `limit` entries, or nil at the end; it is
    /// called outside the store's lock. `afterBatch` is told what was written so far after
    /// each committed batch (throwing from it stops the import there, as a crash would).
    ///
    /// Exactly once, also across batches and interrupted imports: a meal whose id exists
    /// (living or deleted) is left alone, so importing a file twice, or again after an import
    /// that stopped between batches, adds nothing twice, and a meal deleted after an import does
    /// not come back. A weight replaces the day's stored one only when it was measured later
    /// (the rule of `logWeight`), so an imported weight met again is kept as it is.
    @discardableResult
    public func importEntries(
        format: String,
        timeZone: TimeZone,
        pacing: ImportPacing = .default,
        afterBatch: ((ImportOutcome) throws -> Void)? = nil,
        next: (Int) throws -> ImportBatch?
    ) throws -> ImportOutcome {
        let now = clock.now()
        guard try reader.read({ try Self.settings($0) }) != nil else { throw StoreError.notOnboarded }
        var outcome = ImportOutcome()
        try pacing.run(next: next, rows: \.count) { batch in
            outcome = outcome + (try writer.write { db in try Self.write(batch, db, now: now) })
            try afterBatch?(outcome)
        }
        if outcome.mealsAdded + outcome.weightsAdded > 0 {
            try writer.write { db in
                try recordEvent(
                    .dataImported(format: format, meals: outcome.mealsAdded, weights: outcome.weightsAdded),
                    db,
                    now: now,
                    timeZone: timeZone
                )
            }
        }
        return outcome
    }

    /// Writes `meals` and `weights` as `importEntries(format:timeZone:pacing:afterBatch:next:)`
    /// does, in batches.
    @discardableResult
    public func importEntries(meals: [ImportedMeal], weights: [ImportedWeight], format: String, timeZone: TimeZone) throws -> ImportOutcome {
        var mealsLeft = meals[...]
        var weightsLeft = weights[...]
        return try importEntries(format: format, timeZone: timeZone) { limit in
            guard !mealsLeft.isEmpty || !weightsLeft.isEmpty else { return nil }
            let batch = ImportBatch(meals: Array(mealsLeft.prefix(limit)), weights: Array(weightsLeft.prefix(max(0, limit - mealsLeft.count))))
            mealsLeft = mealsLeft.dropFirst(batch.meals.count)
            weightsLeft = weightsLeft.dropFirst(batch.weights.count)
            return batch
        }
    }

    /// One batch, in the transaction of `db`, through the records and the outbox as logging by
    /// hand: each row stamped by this device's clock, which is read once and saved once per
    /// batch, with statements prepared once per connection (preparing them per row, and a GRDB
    /// `save`'s UPDATE before its INSERT, were most of an import's time).
    private static func write(_ batch: ImportBatch, _ db: Database, now: Date) throws -> ImportOutcome {
        guard try settings(db) != nil else { throw StoreError.notOnboarded }
        guard let device = try SyncState.value(.deviceID, in: db) else { throw StoreError.missingDeviceID }
        var clock = HybridLogicalClock(deviceID: device, last: try SyncState.value(.lastHLC, in: db).flatMap(HLC.init))
        let createdAt = StoreFormat.instant(now)
        let mealExists = try db.cachedStatement(sql: "SELECT 1 FROM meal_logs WHERE id = ?")
        var outcome = ImportOutcome()
        for meal in batch.meals {
            if try Int.fetchOne(mealExists, arguments: [meal.id.uuidString]) != nil {
                outcome.mealsAlreadyThere += 1
                continue
            }
            var record = MealRecord(id: meal.id, entry: meal.entry, createdAt: now)
            record.updatedHLC = clock.tick(now: now).description
            try record.insert(db)
            try enqueue(record, db, createdAt: createdAt)
            outcome.mealsAdded += 1
        }
        for weight in batch.weights {
            let stored = try WeightRecord.fetchOne(db, key: WeightRecord.id(for: weight.entry.date)).flatMap { $0.deleted ? nil : $0 }
            if let stored, let storedAt = StoreFormat.instant(stored.loggedAt), storedAt >= weight.measuredAt {
                outcome.weightsKept += 1
                continue
            }
            var record = WeightRecord(entry: weight.entry, at: weight.measuredAt, in: weight.timeZone)
            record.updatedHLC = clock.tick(now: now).description
            try record.save(db)
            try enqueue(record, db, createdAt: createdAt)
            outcome.weightsAdded += 1
        }
        if outcome.mealsAdded + outcome.weightsAdded > 0 { try SyncState.set(.lastHLC, clock.last.description, in: db) }
        return outcome
    }

    /// `Outbox.enqueue` with its statement prepared once.
    private static func enqueue<Record: SyncedRecord>(_ record: Record, _ db: Database, createdAt: String) throws {
        let row = try String(decoding: JSONEncoder.store.encode(record.payload()), as: UTF8.self)
        try db.cachedStatement(
            sql: """
                INSERT INTO sync_outbox (table_name, row_id, hlc, deleted, row, created_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (table_name, row_id) DO UPDATE SET
                  hlc = excluded.hlc, deleted = excluded.deleted, row = excluded.row, created_at = excluded.created_at,
                  rejected = NULL
                """
        ).execute(arguments: [Record.syncTable.rawValue, record.id.uuidString, record.updatedHLC, record.deleted, row, createdAt])
    }
}

extension AppDatabase {
    /// The id of an imported meal: derived from `key` (its source and a key stable within
    /// that source's file, e.g. `apple-health/<start>/<app>`), the same on every import.
    public static func importedMealID(_ key: String) -> UUID {
        NaturalKey.id(table: .mealLogs, key: "import/" + key)
    }
}
