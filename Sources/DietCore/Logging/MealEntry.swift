import Foundation

/// A logged meal as the domain sees it (docs/rules.md §4): validated on creation.
///
/// The instant is stored with the local date and time zone it was logged in, so a meal stays
/// on the day the user ate it even after they travel.
public struct MealEntry: Hashable, Sendable, Codable {
    public var name: String
    public var kcal: Int
    public var proteinG: Double?
    public var carbsG: Double?
    public var fatG: Double?
    public var fiberG: Double?
    public var instant: Date
    public var localDate: LocalDate
    public var localTime: TimeOfDay
    public var timeZoneIdentifier: String
    /// The eating moment (meal slot, 1-based) the meal was logged to; nil: by its time.
    public var moment: Int?

    public static let kcalRange = 1...9999
    public static let gramRange = 0.0...999.0

    /// Validates every field; the name is trimmed of surrounding white space and may hold no
    /// control character (`TextRules`).
    public init(
        name: String,
        kcal: Int,
        proteinG: Double? = nil,
        carbsG: Double? = nil,
        fatG: Double? = nil,
        fiberG: Double? = nil,
        at instant: Date,
        in timeZone: TimeZone,
        moment: Int? = nil
    ) throws(ValidationError) {
        let trimmed = try TextRules.name(name, field: .mealName)
        if let moment, !(1...EatingWindow.allowedMoments.upperBound).contains(moment) {
            throw ValidationError(
                field: .eatingMoment,
                allowed: .range(
                    min: 1,
                    max: Double(EatingWindow.allowedMoments.upperBound),
                    digits: 0,
                    unit: nil
                ),
                received: "\(moment)"
            )
        }
        guard MealEntry.kcalRange.contains(kcal) else {
            throw ValidationError(field: .calories, allowed: .range(min: 1, max: 9999, digits: 0, unit: "kcal"), received: "\(kcal)")
        }
        for (field, grams) in [(ValidationError.Field.protein, proteinG), (.carbs, carbsG), (.fat, fatG), (.fiber, fiberG)] {
            if let grams, !(grams.isFinite && MealEntry.gramRange.contains(grams)) {
                throw ValidationError(field: field, allowed: .range(min: 0, max: 999, digits: 0, unit: "g"), received: grams.plain)
            }
        }
        self.name = trimmed
        self.kcal = kcal
        self.proteinG = proteinG
        self.carbsG = carbsG
        self.fatG = fatG
        self.fiberG = fiberG
        self.instant = instant
        self.localDate = LocalDate(instant, in: timeZone)
        self.localTime = TimeOfDay(instant, in: timeZone)
        self.timeZoneIdentifier = timeZone.identifier
        self.moment = moment
    }

    /// A meal read back from storage, where it was validated on the way in.
    public init(
        restoring name: String,
        kcal: Int,
        proteinG: Double?,
        carbsG: Double?,
        fatG: Double?,
        fiberG: Double?,
        instant: Date,
        localDate: LocalDate,
        localTime: TimeOfDay,
        timeZoneIdentifier: String,
        moment: Int? = nil
    ) {
        self.name = name
        self.kcal = kcal
        self.proteinG = proteinG
        self.carbsG = carbsG
        self.fatG = fatG
        self.fiberG = fiberG
        self.instant = instant
        self.localDate = localDate
        self.localTime = localTime
        self.timeZoneIdentifier = timeZoneIdentifier
        self.moment = moment
    }

    /// Whether all three macros were given.
    public var hasMacros: Bool { proteinG != nil && carbsG != nil && fatG != nil }

    enum CodingKeys: String, CodingKey {
        case name, kcal
        case proteinG = "protein_g"
        case carbsG = "carbs_g"
        case fatG = "fat_g"
        case fiberG = "fiber_g"
        case instant
        case localDate = "local_date"
        case localTime = "local_time"
        case timeZoneIdentifier = "time_zone"
        case moment
    }
}

/// One weight per local date (docs/rules.md §4).
public struct WeightEntry: Hashable, Sendable, Codable {
    public var date: LocalDate
    public var kg: Double

    /// Validates 30.0–200.0 kg in 0.1 kg steps.
    public init(date: LocalDate, kg: Double) throws(ValidationError) {
        try Profile.check(weightKg: kg)
        self.date = date
        self.kg = Profile.roundedWeight(kg)
    }

    enum CodingKeys: String, CodingKey {
        case date, kg
    }
}

extension MealEntry {
    /// The name of a meal logged by its calories alone (docs/rules.md §4): "Quick add" in `language`.
    public static func quickAddName(_ language: Language) -> String {
        Localizer(language).text("meal.quickAdd")
    }

    /// A quick add (docs/rules.md §4): calories are enough; the name defaults to `quickAddName`, macros
    /// stay optional.
    public static func quickAdd(
        kcal: Int,
        name: String? = nil,
        proteinG: Double? = nil,
        carbsG: Double? = nil,
        fatG: Double? = nil,
        fiberG: Double? = nil,
        at instant: Date,
        in timeZone: TimeZone,
        moment: Int? = nil,
        language: Language
    ) throws(ValidationError) -> MealEntry {
        let given = name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return try MealEntry(
            name: given.isEmpty ? quickAddName(language) : given,
            kcal: kcal,
            proteinG: proteinG,
            carbsG: carbsG,
            fatG: fatG,
            fiberG: fiberG,
            at: instant,
            in: timeZone,
            moment: moment
        )
    }
}
