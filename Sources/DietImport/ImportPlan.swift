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

/// What a file holds, read and checked in full before anything is written.
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

/// What an import did: the plan's counts and the store's outcome.
public struct ImportSummary: Sendable {
    public let format: ImportFormat
    public let outcome: ImportOutcome
    public let skipped: [SkipReason: Int]
    /// Rows of a w-diet JSON export restored (that format restores whole tables).
    public let restoredRows: Int?

    /// The lines a surface shows: what was imported, what was there already, what was left
    /// out and why. Counts only (recovery mode hides amounts, not how many rows came in).
    public func lines(_ l: Localizer) -> [String] {
        if let restoredRows { return [l.text("import.summary.restored", ["rows": .integer(restoredRows)])] }
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
