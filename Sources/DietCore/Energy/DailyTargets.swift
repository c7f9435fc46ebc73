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

/// Macro goals from a calorie target and a body weight (SPEC §2): protein 2.0 g/kg,
/// fat 1.0 g/kg, carbohydrate the remainder, never negative.
public struct MacroGoals: Hashable, Sendable, Codable {
    public let proteinG: Double
    public let carbsG: Double
    public let fatG: Double

    public static let proteinPerKg = 2.0
    public static let fatPerKg = 1.0

    /// Computed in tenths of a gram with integers, so halves round away from zero exactly
    /// (39.375 g → 39.4 g) instead of by the accident of binary floating point.
    public init(kcal: Int, weightKg: Double) {
        let weightTenths = Int((weightKg * 10).rounded())
        let proteinTenths = Int((MacroGoals.proteinPerKg * Double(weightTenths)).rounded())
        let fatTenths = Int((MacroGoals.fatPerKg * Double(weightTenths)).rounded())
        let remainderTenthKcal = kcal * 10 - 4 * proteinTenths - 9 * fatTenths
        let carbsTenths = max(0, (remainderTenthKcal + 2) / 4)
        proteinG = Double(proteinTenths) / 10
        fatG = Double(fatTenths) / 10
        carbsG = Double(carbsTenths) / 10
    }

    enum CodingKeys: String, CodingKey {
        case proteinG = "protein_g"
        case carbsG = "carbs_g"
        case fatG = "fat_g"
    }
}
