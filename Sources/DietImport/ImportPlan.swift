import DietCore
import DietStore
import Foundation

/// The formats `Importer` recognises, from the content of a file (never its name).
public enum ImportFormat: String, Hashable, Sendable, CaseIterable {
    case wdietJSON = "wdiet-json"
    case appleHealthXML = "apple-health-xml"
    case appleHealthZip = "apple-health-zip"
    case cronometerServings = "cronometer-servings"
    case cronometerDailySummary = "cronometer-daily-summary"
    case cronometerBiometrics = "cronometer-biometrics"
    case myFitnessPalNutrition = "myfitnesspal-nutrition"
    case myFitnessPalMeasurement = "myfitnesspal-measurement"

    /// The format's name in the user's language ("Apple Health (export.zip)").
    public func name(_ l: Localizer) -> String { l.text("import.format.\(rawValue)") }
}

/// Why an entry of a file was left out (counted, never a refusal): the file is fine, the
/// value is one the app does not keep.
public enum SkipReason: String, Hashable, Sendable, CaseIterable, Comparable, Error {
    /// A weight outside 30–200 kg.
    case weightOutOfRange = "weight-out-of-range"
    /// A meal outside 1–9999 kcal or with more than 999 g of a macro.
    case mealOutOfRange = "meal-out-of-range"
    /// Macros or a food without calories (water, black coffee, a protein sample alone).
    case noCalories = "no-calories"
    /// A measurement other than body weight (Cronometer's biometrics: blood pressure, …).
    case otherMeasurement = "other-measurement"

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// What a file holds, read and checked in full before anything is written (`Importer.plan`).
public struct ImportPlan: Sendable {
    public let format: ImportFormat
    public var meals: [ImportedMeal] = []
    public var weights: [ImportedWeight] = []
    public var skipped: [SkipReason: Int] = [:]

    public init(format: ImportFormat) {
        self.format = format
    }

    mutating func skip(_ reason: SkipReason) { skipped[reason, default: 0] += 1 }
}

/// A file read into its staging, given out in batches for the store to write: the meals in
/// the order they were staged, then the weights by day. A weight the app cannot keep (outside
/// 30–200 kg) is counted as skipped when its batch is made.
final class StagedImport {
    let staging: ImportStaging
    private(set) var skipped: [SkipReason: Int]
    let timeZone: TimeZone
    private var mealsAfter: Int64 = 0
    private var mealsDone = false
    private var weightsAfter: LocalDate?
    private var weightsDone = false

    init(staging: ImportStaging, skipped: [SkipReason: Int], timeZone: TimeZone) {
        self.staging = staging
        self.skipped = skipped
        self.timeZone = timeZone
    }

    /// The next batch of at most `limit` entries, nil after the last.
    func next(limit: Int) throws -> ImportBatch? {
        var batch = ImportBatch()
        if !mealsDone {
            let page = try staging.meals(after: mealsAfter, limit: limit)
            batch.meals = page.map(\.meal)
            if let last = page.last { mealsAfter = last.seq }
            if page.count < limit { mealsDone = true }
        }
        while !weightsDone && batch.count < limit {
            let page = try staging.weights(after: weightsAfter, limit: limit - batch.count)
            if let last = page.last { weightsAfter = last.day }
            if page.count < limit - batch.count { weightsDone = true }
            for weight in page {
                guard let entry = try? WeightEntry(date: weight.day, kg: Units.tenths(weight.kg)) else {
                    skipped[.weightOutOfRange, default: 0] += 1
                    continue
                }
                let zone = weight.offsetSeconds.flatMap { TimeZone(secondsFromGMT: $0) } ?? timeZone
                batch.weights.append(ImportedWeight(entry: entry, measuredAt: weight.measuredAt, timeZone: zone))
            }
        }
        if batch.count == 0 && mealsDone && weightsDone { return nil }
        return batch
    }
}

/// What an import did: the plan's counts and the store's outcome.
public struct ImportSummary: Sendable {
    public let format: ImportFormat
    public let outcome: ImportOutcome
    public let skipped: [SkipReason: Int]
    /// What the restore of a w-diet JSON export wrote (that format restores whole tables).
    public let restore: RestoreOutcome?

    public init(format: ImportFormat, outcome: ImportOutcome, skipped: [SkipReason: Int], restore: RestoreOutcome? = nil) {
        self.format = format
        self.outcome = outcome
        self.skipped = skipped
        self.restore = restore
    }

    /// The lines a surface shows: what was imported, what was there already, what was left
    /// out and why. Counts only (recovery mode hides amounts, not how many rows came in).
    public func lines(_ l: Localizer) -> [String] {
        if let restore {
            var lines = [l.text("import.summary.restored", ["count": .integer(restore.restored)])]
            if restore.alreadyThere > 0 { lines.append(l.text("import.summary.alreadyThere", ["count": .integer(restore.alreadyThere)])) }
            return lines
        }
        var lines = [
            l.text(
                "import.summary.imported",
                [
                    "format": .text(format.name(l)), "meals": .integer(outcome.mealsAdded), "weights": .integer(outcome.weightsAdded),
                ]
            )
        ]
        let present = outcome.mealsAlreadyThere + outcome.weightsKept
        if present > 0 { lines.append(l.text("import.summary.alreadyThere", ["count": .integer(present)])) }
        for (reason, count) in skipped.sorted(by: { $0.key < $1.key }) where count > 0 {
            lines.append(l.text("import.summary.skipped.\(reason.rawValue)", ["count": .integer(count)]))
        }
        return lines
    }
}
