import Foundation

/// The user's profile (docs/rules.md §2). Every instance is valid: the initializer checks each field and
/// throws a `ValidationError` naming the first one that is wrong.
public struct Profile: Hashable, Sendable, Codable {
    public var sex: Sex
    /// Age in whole years at onboarding; with a birth date, `age(on:)` stays current.
    public var age: Int
    public var birthDate: LocalDate?
    public var heightCm: Double
    /// The onboarding weight; macro goals use the latest weight entry once one exists.
    public var weightKg: Double
    public var activityLevel: ActivityLevel
    public var goal: Goal
    public var eatingWindow: EatingWindow
    public var language: Language
    public var units: UnitSystem
    /// Share of maintenance cut on diet days, 0.10–0.35 (default 0.30; the study preset 0.33).
    public var deficit: Double
    public var cyclePreset: CyclePreset
    /// Custom targets that replace the computed ones, per target kind ("lock goals").
    public var lockedGoals: [TargetKind: LockedGoals]
    /// The weight the user aims for (docs/rules.md §2), shown with its expected date while the goal is
    /// lose or gain; nil: none set.
    public var goalWeightKg: Double?

    public static let ageRange = 18...99
    public static let heightRange = 100.0...250.0
    public static let weightRange = 30.0...200.0
    public static let deficitRange = 0.10...0.35
    public static let defaultDeficit = 0.30
    public static let studyDeficit = 0.33

    public init(
        sex: Sex,
        age: Int,
        birthDate: LocalDate? = nil,
        heightCm: Double,
        weightKg: Double,
        activityLevel: ActivityLevel,
        goal: Goal,
        eatingWindow: EatingWindow = .standard,
        language: Language = .en,
        units: UnitSystem = .metric,
        deficit: Double = Profile.defaultDeficit,
        cyclePreset: CyclePreset = .openEnded,
        lockedGoals: [TargetKind: LockedGoals] = [:],
        goalWeightKg: Double? = nil
    ) throws(ValidationError) {
        self.sex = sex
        self.age = age
        self.birthDate = birthDate
        self.heightCm = heightCm
        self.weightKg = weightKg
        self.activityLevel = activityLevel
        self.goal = goal
        self.eatingWindow = eatingWindow
        self.language = language
        self.units = units
        self.deficit = cyclePreset == .study ? Profile.studyDeficit : deficit
        self.cyclePreset = cyclePreset
        self.lockedGoals = lockedGoals
        self.goalWeightKg = goalWeightKg
        try validate()
        self.weightKg = Profile.roundedWeight(weightKg)
        self.goalWeightKg = goalWeightKg.map(Profile.roundedWeight)
    }

    /// Checks every field; a decoded or edited profile goes through the same rules.
    public func validate() throws(ValidationError) {
        try Profile.check(age: age)
        try Profile.check(heightCm: heightCm)
        try Profile.check(weightKg: weightKg)
        if let goalWeightKg { try Profile.check(weightKg: goalWeightKg, field: .goalWeight) }
        guard Profile.deficitRange.contains(deficit.roundedTo(3)) else {
            throw ValidationError(field: .deficit, allowed: .range(min: 0.10, max: 0.35, digits: 2, unit: nil), received: "\(deficit)")
        }
        for (_, goals) in lockedGoals.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try goals.validate(floor: SafetyFloor.kcal(for: sex))
        }
    }

    /// The age in whole years on `date`: from the birth date when known.
    public func age(on date: LocalDate) -> Int {
        guard let birthDate else { return age }
        return Profile.age(birthDate: birthDate, on: date)
    }

    public static func age(birthDate: LocalDate, on date: LocalDate) -> Int {
        let hadBirthday = (date.month, date.day) >= (birthDate.month, birthDate.day)
        return date.year - birthDate.year - (hadBirthday ? 0 : 1)
    }

    public static func check(age: Int) throws(ValidationError) {
        guard ageRange.contains(age) else {
            throw ValidationError(field: .age, allowed: .range(min: 18, max: 99, digits: 0, unit: nil), received: "\(age)")
        }
    }

    public static func check(heightCm: Double) throws(ValidationError) {
        guard heightCm.isFinite, heightRange.contains(heightCm) else {
            throw ValidationError(field: .height, allowed: .range(min: 100, max: 250, digits: 0, unit: "cm"), received: heightCm.plain)
        }
    }

    /// 30.0–200.0 kg in 0.1 kg steps.
    public static func check(weightKg: Double, field: ValidationError.Field = .weight) throws(ValidationError) {
        let tenths = (weightKg * 10).rounded()
        guard weightKg.isFinite, weightRange.contains(weightKg), abs(weightKg * 10 - tenths) < 1e-6 else {
            throw ValidationError(
                field: field,
                allowed: .steps(min: 30, max: 200, step: 0.1, digits: 1, unit: "kg"),
                received: weightKg.plain
            )
        }
    }

    /// A goal weight as the goal asks it (docs/rules.md §2): 30.0–200.0 kg, below the current weight to
    /// lose, above it to gain; with the goal maintain there is none to set.
    public static func check(goalWeightKg: Double, goal: Goal, currentKg: Double) throws(ValidationError) {
        try check(weightKg: goalWeightKg, field: .goalWeight)
        let current = Message.Argument.decimal(currentKg, digits: 1)
        switch goal {
        case .lose where goalWeightKg >= roundedWeight(currentKg):
            throw ValidationError(
                field: .goalWeight,
                allowed: .rule(Message("allowed.goalWeight.below", ["current": current])),
                received: goalWeightKg.plain
            )
        case .gain where goalWeightKg <= roundedWeight(currentKg):
            throw ValidationError(
                field: .goalWeight,
                allowed: .rule(Message("allowed.goalWeight.above", ["current": current])),
                received: goalWeightKg.plain
            )
        case .maintain:
            throw ValidationError(field: .goalWeight, allowed: .rule(Message("allowed.goalWeight.maintain")), received: goalWeightKg.plain)
        default:
            return
        }
    }

    /// A weight on the 0.1 kg grid, free of binary noise (72.50000001 → 72.5).
    public static func roundedWeight(_ kg: Double) -> Double {
        (kg * 10).rounded() / 10
    }
}

/// Custom calorie and macro-gram targets the user locks ("lock goals", docs/rules.md §3a): they stay
/// fixed when the weight changes.
public struct LockedGoals: Hashable, Sendable, Codable {
    public var kcal: Int
    public var proteinG: Double
    public var carbsG: Double
    public var fatG: Double

    public static let maxKcal = 6000
    public static let gramRange = 0.0...999.0

    public init(kcal: Int, proteinG: Double, carbsG: Double, fatG: Double) {
        self.kcal = kcal
        self.proteinG = proteinG
        self.carbsG = carbsG
        self.fatG = fatG
    }

    /// Calories between the safety floor and 6,000 kcal; grams 0–999.
    public func validate(floor: Int) throws(ValidationError) {
        guard (floor...LockedGoals.maxKcal).contains(kcal) else {
            throw ValidationError(
                field: .lockedCalories,
                allowed: .range(min: Double(floor), max: Double(LockedGoals.maxKcal), digits: 0, unit: "kcal"),
                received: "\(kcal)"
            )
        }
        for (field, grams) in [(ValidationError.Field.lockedProtein, proteinG), (.lockedCarbs, carbsG), (.lockedFat, fatG)] {
            guard grams.isFinite, LockedGoals.gramRange.contains(grams) else {
                throw ValidationError(field: field, allowed: .range(min: 0, max: 999, digits: 0, unit: "g"), received: grams.plain)
            }
        }
    }
}

extension Double {
    /// The shortest plain rendering: 72.5, 250, 0.3.
    var plain: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int(self)) }
        return String(self)
    }

    func roundedTo(_ digits: Int) -> Double {
        let scale = pow(10, Double(digits))
        return (self * scale).rounded() / scale
    }
}

extension Profile {
    enum CodingKeys: String, CodingKey {
        case sex, age
        case birthDate = "birth_date"
        case heightCm = "height_cm"
        case weightKg = "weight_kg"
        case activityLevel = "activity_level"
        case goal
        case eatingWindow = "eating_window"
        case language, units, deficit
        case cyclePreset = "cycle_preset"
        case lockedGoals = "locked_goals"
        case goalWeightKg = "goal_weight_kg"
    }

    /// Decoding applies the same validation as the initializer.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            sex: c.decode(Sex.self, forKey: .sex),
            age: c.decode(Int.self, forKey: .age),
            birthDate: c.decodeIfPresent(LocalDate.self, forKey: .birthDate),
            heightCm: c.decode(Double.self, forKey: .heightCm),
            weightKg: c.decode(Double.self, forKey: .weightKg),
            activityLevel: c.decode(ActivityLevel.self, forKey: .activityLevel),
            goal: c.decode(Goal.self, forKey: .goal),
            eatingWindow: c.decodeIfPresent(EatingWindow.self, forKey: .eatingWindow) ?? .standard,
            language: c.decodeIfPresent(Language.self, forKey: .language) ?? .en,
            units: c.decodeIfPresent(UnitSystem.self, forKey: .units) ?? .metric,
            deficit: c.decodeIfPresent(Double.self, forKey: .deficit) ?? Profile.defaultDeficit,
            cyclePreset: c.decodeIfPresent(CyclePreset.self, forKey: .cyclePreset) ?? .openEnded,
            lockedGoals: c.decodeIfPresent([TargetKind: LockedGoals].self, forKey: .lockedGoals) ?? [:],
            goalWeightKg: c.decodeIfPresent(Double.self, forKey: .goalWeightKg)
        )
    }
}

extension LockedGoals {
    enum CodingKeys: String, CodingKey {
        case kcal
        case proteinG = "protein_g"
        case carbsG = "carbs_g"
        case fatG = "fat_g"
    }
}

extension TargetKind: CodingKeyRepresentable {}
