/// The lowest calorie target the app ever sets (docs/rules.md §2).
public enum SafetyFloor {
    public static func kcal(for sex: Sex) -> Int {
        switch sex {
        case .male: 1500
        case .female, .other: 1200
        }
    }
}
