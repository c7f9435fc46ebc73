import Foundation

/// A meal logged in recovery mode (docs/rules.md §8): what was eaten, without an amount; hunger before
/// and fullness after on the five-step scale; an optional feeling. Validated on creation.
///
/// Like `MealEntry`, it keeps its instant with the local date, time and zone it was logged in.
public struct MindfulMealEntry: Hashable, Sendable, Codable {
    /// What was eaten: 1–80 characters, trimmed, no control characters (`TextRules.name`).
    public var name: String
    public var hunger: HungerScale
    public var fullness: HungerScale
    public var feeling: MealFeeling?
    public var instant: Date
    public var localDate: LocalDate
    public var localTime: TimeOfDay
    public var timeZoneIdentifier: String
    /// The eating moment (1-based) it was logged to; nil: by its time.
    public var moment: Int?

    /// Validates the name and the moment; hunger, fullness and feeling are valid by their type.
    public init(
        name: String,
        hunger: HungerScale,
        fullness: HungerScale,
        feeling: MealFeeling? = nil,
        at instant: Date,
        in timeZone: TimeZone,
        moment: Int? = nil
    ) throws(ValidationError) {
        self.name = try TextRules.name(name, field: .mealName)
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
        self.hunger = hunger
        self.fullness = fullness
        self.feeling = feeling
        self.instant = instant
        self.localDate = LocalDate(instant, in: timeZone)
        self.localTime = TimeOfDay(instant, in: timeZone)
        self.timeZoneIdentifier = timeZone.identifier
        self.moment = moment
    }

    /// Validates what a person typed: the name, hunger and fullness as a number 1–5 or a word
    /// in any of the three languages, and an optional feeling. Errors name the field and list
    /// the words of `language`.
    public init(
        name: String,
        hunger: String?,
        fullness: String?,
        feeling: String? = nil,
        at instant: Date,
        in timeZone: TimeZone,
        moment: Int? = nil,
        language: Language = .en
    ) throws(ValidationError) {
        let checkedName = try TextRules.name(name, field: .mealName)
        try self.init(
            name: checkedName,
            hunger: HungerScale.parse(hunger, field: .hunger, language: language),
            fullness: HungerScale.parse(fullness, field: .fullness, language: language),
            feeling: MealFeeling.parse(feeling, language: language),
            at: instant,
            in: timeZone,
            moment: moment
        )
    }

    /// A mindful meal read back from storage, where it was validated on the way in.
    public init(
        restoring name: String,
        hunger: HungerScale,
        fullness: HungerScale,
        feeling: MealFeeling?,
        instant: Date,
        localDate: LocalDate,
        localTime: TimeOfDay,
        timeZoneIdentifier: String,
        moment: Int?
    ) {
        self.name = name
        self.hunger = hunger
        self.fullness = fullness
        self.feeling = feeling
        self.instant = instant
        self.localDate = localDate
        self.localTime = localTime
        self.timeZoneIdentifier = timeZoneIdentifier
        self.moment = moment
    }

    enum CodingKeys: String, CodingKey {
        case name, hunger, fullness, feeling, instant, moment
        case localDate = "local_date"
        case localTime = "local_time"
        case timeZoneIdentifier = "time_zone"
    }
}

extension EatingWindow {
    /// The moment a mindful meal is shown under: its own, kept within today's moments, else by time.
    public func moment(of meal: MindfulMealEntry) -> Int {
        clampedMoment(meal.moment) ?? moment(at: meal.localTime)
    }
}
