import Foundation

public enum Sex: String, CaseIterable, Codable, Sendable {
    case male, female, other
}

/// The five activity levels with their TDEE multipliers (docs/rules.md §2).
public enum ActivityLevel: String, CaseIterable, Codable, Sendable {
    case sedentary, light, moderate, active
    case veryActive = "very_active"

    public var factor: Double {
        switch self {
        case .sedentary: 1.2
        case .light: 1.375
        case .moderate: 1.55
        case .active: 1.725
        case .veryActive: 1.9
        }
    }
}

public enum Goal: String, CaseIterable, Codable, Sendable {
    case lose, maintain, gain
}

public enum UnitSystem: String, CaseIterable, Codable, Sendable {
    case metric, imperial
}

/// How long the MATADOR programme runs (docs/rules.md §3).
public enum CyclePreset: String, CaseIterable, Codable, Sendable {
    /// Diet and maintenance blocks alternate until the user changes goal.
    case openEnded = "open_ended"
    /// Byrne et al. 2018: habit week, 8 restriction blocks alternating with 7 balance blocks
    /// at a 0.33 deficit, then maintenance.
    case study
}

/// Which calorie target a day gets.
public enum TargetKind: String, CaseIterable, Codable, Sendable {
    /// A MATADOR diet block: maintenance × (1 − deficit).
    case deficit
    /// The habit week, a balance block, the "maintain" goal, the end of the study programme.
    case maintenance
    /// The "gain" goal: TDEE + 500.
    case surplus
}
