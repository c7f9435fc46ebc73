import DietCore
import Foundation

/// Time zones the tests use by name.
public enum Zones {
    public static let berlin = zone("Europe/Berlin")
    public static let newYork = zone("America/New_York")
    public static let losAngeles = zone("America/Los_Angeles")
    public static let auckland = zone("Pacific/Auckland")
    public static let utc = zone("UTC")

    public static func zone(_ identifier: String) -> TimeZone {
        guard let zone = TimeZone(identifier: identifier) else {
            preconditionFailure("unknown time zone \(identifier)")
        }
        return zone
    }
}

extension LocalDate {
    /// A date literal for tests: `.ymd(2026, 3, 29)`; traps on an impossible date.
    public static func ymd(_ year: Int, _ month: Int, _ day: Int) -> LocalDate {
        guard let date = LocalDate(year: year, month: month, day: day) else {
            preconditionFailure("invalid date \(year)-\(month)-\(day)")
        }
        return date
    }
}

extension TimeOfDay {
    /// A time literal for tests: `.hm(23, 59)`.
    public static func hm(_ hour: Int, _ minute: Int = 0) -> TimeOfDay {
        guard let time = TimeOfDay(hour: hour, minute: minute) else {
            preconditionFailure("invalid time \(hour):\(minute)")
        }
        return time
    }
}

extension FixedClock {
    /// A clock at `hour:minute:second` local time on `date` in `zone`.
    public static func at(_ date: LocalDate, _ hour: Int, _ minute: Int = 0, _ second: Int = 0, in zone: TimeZone) -> FixedClock {
        FixedClock(date.instant(at: .hm(hour, minute), in: zone).addingTimeInterval(Double(second)))
    }
}

extension Profile {
    /// Alice: female, 34, 168 cm, 72.5 kg, light activity, losing weight (the README example).
    public static var alice: Profile {
        sample(sex: .female, age: 34, heightCm: 168, weightKg: 72.5, activity: .light, goal: .lose)
    }

    /// Bob: male, 45, 182 cm, 95.0 kg, moderate activity, losing weight.
    public static var bob: Profile {
        sample(sex: .male, age: 45, heightCm: 182, weightKg: 95.0, activity: .moderate, goal: .lose)
    }

    /// Kim: other, 28, 175 cm, 80.0 kg, sedentary, maintaining, German.
    public static var kim: Profile {
        sample(sex: .other, age: 28, heightCm: 175, weightKg: 80.0, activity: .sedentary, goal: .maintain, language: .de)
    }

    /// Small: female, 70, 150 cm, 45.0 kg, sedentary, losing: every target hits the floor.
    public static var small: Profile {
        sample(sex: .female, age: 70, heightCm: 150, weightKg: 45.0, activity: .sedentary, goal: .lose)
    }

    public static func sample(
        sex: Sex,
        age: Int,
        heightCm: Double,
        weightKg: Double,
        activity: ActivityLevel,
        goal: Goal,
        language: Language = .en
    ) -> Profile {
        do {
            return try Profile(
                sex: sex,
                age: age,
                heightCm: heightCm,
                weightKg: weightKg,
                activityLevel: activity,
                goal: goal,
                language: language
            )
        } catch {
            preconditionFailure("invalid sample profile: \(error)")
        }
    }
}
