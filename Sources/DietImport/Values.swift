import DietCore
import Foundation

/// Units of the files people import, converted to the app's kg, kcal and g. A value no body
/// or meal can have (a negative amount, 9999 kg) means the file is wrong: refused, not skipped.
enum Units {
    /// The heaviest weight a scale could report for a person; above it the file is wrong.
    static let impossibleKg = 700.0
    /// More than a single sample or meal could hold, in kcal and in grams.
    static let impossibleKcal = 100_000.0, impossibleGrams = 100_000.0

    /// A weight to the 0.1 kg the app keeps (a scale in lb gives 161.2 lb = 73.11…).
    static func tenths(_ kg: Double) -> Double { (kg * 10).rounded() / 10 }

    static func kilograms(_ value: Double, unit: String, shown: String) throws(ImportError) -> Double {
        let kg: Double
        switch unit.trimmingCharacters(in: .whitespaces).lowercased() {
        case "kg", "kgs", "kilogram", "kilograms": kg = value
        case "lb", "lbs", "pound", "pounds": kg = value * 0.453_592_37
        case "g": kg = value / 1000
        case "st", "stone": kg = value * 6.350_293_18
        default: throw ImportError(line: nil, .unknownUnit(unit))
        }
        guard kg.isFinite, kg > 0, kg <= impossibleKg else { throw ImportError(line: nil, .impossible(.weight, value: "\(shown) \(unit)")) }
        return kg
    }

    static func kilocalories(_ value: Double, unit: String, shown: String) throws(ImportError) -> Double {
        let kcal: Double
        switch unit.trimmingCharacters(in: .whitespaces) {
        case "kcal", "Cal", "Kcal", "KCAL", "kcals": kcal = value
        case "kJ", "kj", "KJ": kcal = value / 4.184
        case "cal": kcal = value / 1000
        default: throw ImportError(line: nil, .unknownUnit(unit))
        }
        guard kcal.isFinite, kcal >= 0, kcal <= impossibleKcal else { throw ImportError(line: nil, .impossible(.energy, value: "\(shown) \(unit)")) }
        return kcal
    }

    static func grams(_ value: Double, unit: String, shown: String) throws(ImportError) -> Double {
        let grams: Double
        switch unit.trimmingCharacters(in: .whitespaces) {
        case "g": grams = value
        case "mg": grams = value / 1000
        case "mcg", "µg": grams = value / 1_000_000
        case "oz": grams = value * 28.349_523_125
        case "kg": grams = value * 1000
        default: throw ImportError(line: nil, .unknownUnit(unit))
        }
        guard grams.isFinite, grams >= 0, grams <= impossibleGrams else {
            throw ImportError(line: nil, .impossible(.grams, value: "\(shown) \(unit)"))
        }
        return grams
    }

    static func convert(_ value: Double, unit: String, for kind: HealthImport.Kind, shown: String) throws(ImportError) -> Double {
        switch kind {
        case .bodyMass: try kilograms(value, unit: unit, shown: shown)
        case .energy: try kilocalories(value, unit: unit, shown: shown)
        case .protein, .carbs, .fat, .fiber: try grams(value, unit: unit, shown: shown)
        }
    }
}

/// A meal's amounts as a file gave them; `entry` makes the app's meal or says why it is left out.
struct MealValues {
    var kcal: Double?
    var protein: Double?
    var carbs: Double?
    var fat: Double?
    var fiber: Double?

    func entry(name: String, fallbackName: String, at instant: Date, in timeZone: TimeZone) -> Result<MealEntry, SkipReason> {
        entry(name: name, fallbackName: fallbackName, at: Moment(instant, in: timeZone))
    }

    /// The meal at `moment`, checked as `MealEntry` checks a meal; the local date and time come
    /// from the moment (worked out once per moment, not once per meal).
    func entry(name: String, fallbackName: String, at moment: Moment) -> Result<MealEntry, SkipReason> {
        guard let kcal, kcal.rounded() >= 1 else { return .failure(.noCalories) }
        guard kcal.rounded() <= Double(MealEntry.kcalRange.upperBound) else { return .failure(.mealOutOfRange) }
        let grams = [protein, carbs, fat, fiber].map { $0.map { ($0 * 10).rounded() / 10 } }
        guard grams.allSatisfy({ ($0 ?? 0) <= MealEntry.gramRange.upperBound && ($0 ?? 0) >= MealEntry.gramRange.lowerBound }) else {
            return .failure(.mealOutOfRange)
        }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        for candidate in [String(trimmed.prefix(80)), fallbackName] where !candidate.isEmpty {
            if let checked = try? TextRules.name(candidate, field: .mealName) {
                return .success(
                    MealEntry(
                        restoring: checked,
                        kcal: Int(kcal.rounded()),
                        proteinG: grams[0],
                        carbsG: grams[1],
                        fatG: grams[2],
                        fiberG: grams[3],
                        instant: moment.instant,
                        localDate: moment.localDate,
                        localTime: moment.localTime,
                        timeZoneIdentifier: moment.timeZone.identifier
                    )
                )
            }
        }
        return .failure(.mealOutOfRange)
    }
}

/// An instant with its local date and time in a time zone.
struct Moment {
    let instant: Date
    let timeZone: TimeZone
    let localDate: LocalDate
    let localTime: TimeOfDay

    init(_ instant: Date, in timeZone: TimeZone) {
        self.instant = instant
        self.timeZone = timeZone
        localDate = LocalDate(instant, in: timeZone)
        localTime = TimeOfDay(instant, in: timeZone)
    }
}

/// The moments of a diary's days and times in one time zone, each worked out once (a calendar
/// computation costs more than the rest of a row); bounded, as a diary has about a dozen
/// moments a day and goes day by day.
struct MomentCache {
    let timeZone: TimeZone
    private var known: [Int: Moment] = [:]

    init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    mutating func moment(_ day: LocalDate, minutes: Int) -> Moment {
        let key = day.dayNumber * 1440 + minutes
        if let moment = known[key] { return moment }
        if known.count >= 4096 { known.removeAll(keepingCapacity: true) }
        let moment = Moment(day.instant(at: TimeOfDay(minutesSinceMidnight: minutes), in: timeZone), in: timeZone)
        known[key] = moment
        return moment
    }
}
