import Foundation

/// Energy arithmetic of docs/rules.md §2: Mifflin–St Jeor BMR, TDEE, and the energy of macros.
public enum Energy {
    public static let kcalPerGramProtein = 4.0
    public static let kcalPerGramCarbs = 4.0
    public static let kcalPerGramFat = 9.0
    /// The goal "gain" eats this much above maintenance.
    public static let surplusKcal = 500

    /// The sex term `s` of Mifflin–St Jeor; "other" takes the midpoint of male and female.
    public static func sexConstant(_ sex: Sex) -> Double {
        switch sex {
        case .male: 5
        case .female: -161
        case .other: -78
        }
    }

    /// `10·kg + 6.25·cm − 5·age + s`.
    public static func bmr(sex: Sex, weightKg: Double, heightCm: Double, age: Int) -> Double {
        10 * weightKg + 6.25 * heightCm - 5 * Double(age) + sexConstant(sex)
    }

    public static func tdee(bmr: Double, activity: ActivityLevel) -> Double {
        bmr * activity.factor
    }

    /// `4·P + 4·C + 9·F`.
    public static func kcal(proteinG: Double, carbsG: Double, fatG: Double) -> Double {
        kcalPerGramProtein * proteinG + kcalPerGramCarbs * carbsG + kcalPerGramFat * fatG
    }

    /// Rounds to whole kcal, half away from zero, after removing binary noise, so that
    /// 2,895 × 0.7 = 2,026.5 rounds to 2,027 although the product is 2,026.4999… in binary.
    public static func wholeKcal(_ value: Double) -> Int {
        Int(value.roundedTo(6).rounded())
    }
}
