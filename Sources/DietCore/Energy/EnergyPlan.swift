import Foundation

/// The user's energy numbers on one day: BMR, TDEE, maintenance and the target of each kind,
/// each able to explain how it was calculated.
public struct EnergyPlan: Hashable, Sendable {
    public let profile: Profile
    /// The latest logged weight, else the onboarding weight.
    public let weightKg: Double
    public let age: Int
    public let bmr: Double
    public let tdee: Double
    /// An adaptive estimate the user accepted (docs/rules.md §3a), replacing TDEE as maintenance.
    public let acceptedMaintenanceKcal: Int?

    public init(profile: Profile, latestWeightKg: Double? = nil, on date: LocalDate, acceptedMaintenanceKcal: Int? = nil) {
        self.profile = profile
        self.weightKg = latestWeightKg ?? profile.weightKg
        self.age = profile.age(on: date)
        self.bmr = Energy.bmr(sex: profile.sex, weightKg: weightKg, heightCm: profile.heightCm, age: age)
        self.tdee = Energy.tdee(bmr: bmr, activity: profile.activityLevel)
        self.acceptedMaintenanceKcal = acceptedMaintenanceKcal
    }

    /// Maintenance calories: the accepted adaptive estimate, else TDEE.
    public var maintenanceKcal: Int {
        acceptedMaintenanceKcal ?? Energy.wholeKcal(tdee)
    }

    public var floorKcal: Int { SafetyFloor.kcal(for: profile.sex) }

    /// The calorie target of `kind` before the floor.
    public func rawKcal(_ kind: TargetKind) -> Int {
        switch kind {
        case .maintenance: maintenanceKcal
        case .deficit: Energy.wholeKcal(Double(maintenanceKcal) * (1 - profile.deficit))
        case .surplus: maintenanceKcal + Energy.surplusKcal
        }
    }

    /// The target of `kind`: locked goals if the user set them, else computed and floored,
    /// with macro goals from the current weight.
    public func targets(_ kind: TargetKind) -> DailyTargets {
        if let locked = profile.lockedGoals[kind] {
            return DailyTargets(
                kind: kind,
                kcal: locked.kcal,
                proteinG: locked.proteinG,
                carbsG: locked.carbsG,
                fatG: locked.fatG,
                floorApplied: false,
                locked: true
            )
        }
        let raw = rawKcal(kind)
        let kcal = max(raw, floorKcal)
        let macros = MacroGoals(kcal: kcal, weightKg: weightKg, heightCm: profile.heightCm)
        return DailyTargets(
            kind: kind,
            kcal: kcal,
            proteinG: macros.proteinG,
            carbsG: macros.carbsG,
            fatG: macros.fatG,
            floorApplied: raw < floorKcal,
            locked: false
        )
    }

    /// The target kind of a day outside the MATADOR cycle (goals maintain and gain).
    public var staticKind: TargetKind {
        switch profile.goal {
        case .lose, .maintain: .maintenance
        case .gain: .surplus
        }
    }
}
