import Foundation

/// A day's calorie target and macro goals, with the facts needed to explain them.
public struct DailyTargets: Hashable, Sendable, Codable {
    public let kind: TargetKind
    public let kcal: Int
    public let proteinG: Double
    public let carbsG: Double
    public let fatG: Double
    /// The computed target was below the safety floor and was raised to it.
    public let floorApplied: Bool
    /// The user's locked goals replaced the computed ones.
    public let locked: Bool

    public init(kind: TargetKind, kcal: Int, proteinG: Double, carbsG: Double, fatG: Double, floorApplied: Bool, locked: Bool) {
        self.kind = kind
        self.kcal = kcal
        self.proteinG = proteinG
        self.carbsG = carbsG
        self.fatG = fatG
        self.floorApplied = floorApplied
        self.locked = locked
    }

    enum CodingKeys: String, CodingKey {
        case kind, kcal
        case proteinG = "protein_g"
        case carbsG = "carbs_g"
        case fatG = "fat_g"
        case floorApplied = "floor_applied"
        case locked
    }
}

/// Macro goals from a calorie target, a body weight and the height (docs/rules.md §2). Protein follows
/// lean mass, so it is counted from a reference weight: the weight, but at most that of BMI 25
/// at the user's height. Protein 2.0 g per reference kg; fat the larger of 25 % of the day's
/// energy and 0.6 g per reference kg; carbohydrate the remaining energy, never negative.
public struct MacroGoals: Hashable, Sendable, Codable {
    public let proteinG: Double
    public let carbsG: Double
    public let fatG: Double
    /// The weight protein and fat were counted from.
    public let referenceKg: Double

    /// The reference weight: `weightKg`, at most the weight of BMI 25 at `heightCm`, in tenths
    /// of a kilogram (25 × m² in tenths is cm² ÷ 40, exact for whole centimetres).
    public static func referenceKg(weightKg: Double, heightCm: Double) -> Double {
        Double(referenceTenths(weightKg: weightKg, heightCm: heightCm)) / 10
    }

    static func referenceTenths(weightKg: Double, heightCm: Double) -> Int {
        let capTenths = Int((heightCm * heightCm / 40).rounded())
        return min(Int((weightKg * 10).rounded()), capTenths)
    }

    /// Computed in tenths of a gram with integers, so halves round up exactly (39.375 g →
    /// 39.4 g) instead of by the accident of binary floating point.
    public init(kcal: Int, weightKg: Double, heightCm: Double) {
        let referenceTenths = MacroGoals.referenceTenths(weightKg: weightKg, heightCm: heightCm)
        let proteinTenths = 2 * referenceTenths
        let fatTenths = max(MacroGoals.fatTenthsByWeight(referenceTenths), MacroGoals.fatTenthsByEnergy(kcal))
        let remainderTenthKcal = kcal * 10 - 4 * proteinTenths - 9 * fatTenths
        let carbsTenths = max(0, (remainderTenthKcal + 2) / 4)
        referenceKg = Double(referenceTenths) / 10
        proteinG = Double(proteinTenths) / 10
        fatG = Double(fatTenths) / 10
        carbsG = Double(carbsTenths) / 10
    }

    /// 0.6 g per reference kg, in tenths: reference tenths × 6 ÷ 10, halves up.
    static func fatTenthsByWeight(_ referenceTenths: Int) -> Int { (referenceTenths * 6 + 5) / 10 }

    /// 25 % of the energy ÷ 9 kcal per gram, in tenths: kcal × 5 ÷ 18, halves up.
    static func fatTenthsByEnergy(_ kcal: Int) -> Int { (kcal * 10 + 18) / 36 }

    /// Whether fat was set by its share of the day's energy (else by the reference weight).
    public func fatFromEnergy(kcal: Int) -> Bool {
        MacroGoals.fatTenthsByEnergy(kcal) >= MacroGoals.fatTenthsByWeight(Int((referenceKg * 10).rounded()))
    }

    enum CodingKeys: String, CodingKey {
        case proteinG = "protein_g"
        case carbsG = "carbs_g"
        case fatG = "fat_g"
        case referenceKg = "reference_kg"
    }
}
