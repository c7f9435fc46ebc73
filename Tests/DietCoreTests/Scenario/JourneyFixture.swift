import DietCore
import Foundation

/// The input of a scenario fixture (`Fixtures/<case>_input.json`), as written by
/// `scripts/dev/make-scenario`.
struct JourneyInput: Decodable {
    let description: String
    let profile: Profile
    let startDate: LocalDate
    let timeZone: String
    let evaluateAt: TimeOfDay
    let days: [Day]

    struct Day: Decodable {
        let date: LocalDate
        let meals: [Meal]
        let weightKg: Double?

        enum CodingKeys: String, CodingKey {
            case date, meals
            case weightKg = "weight_kg"
        }
    }

    struct Meal: Decodable {
        let name: String
        let time: TimeOfDay
        let kcal: Int
        let proteinG: Double?
        let carbsG: Double?
        let fatG: Double?

        enum CodingKeys: String, CodingKey {
            case name, time, kcal
            case proteinG = "protein_g"
            case carbsG = "carbs_g"
            case fatG = "fat_g"
        }
    }

    enum CodingKeys: String, CodingKey {
        case description, profile, days
        case startDate = "start_date"
        case timeZone = "time_zone"
        case evaluateAt = "evaluate_at"
    }
}

/// The expected daily outputs (`Fixtures/<case>_expected.json`).
struct JourneyExpected: Codable, Equatable {
    let days: [Day]

    struct Day: Codable, Equatable {
        let date: LocalDate
        let programmeDay: Int
        let phase: Phase
        let dayInPhase: Int
        let targetKcal: Int
        let proteinGoalG: Double
        let carbsGoalG: Double
        let fatGoalG: Double
        let eatenKcal: Int
        let smileys: [String: Smiley]
        let streak: Int
        let streakLit: Bool
        let rollingAverageKg: Double?

        enum CodingKeys: String, CodingKey {
            case date, phase, smileys, streak
            case programmeDay = "programme_day"
            case dayInPhase = "day_in_phase"
            case targetKcal = "target_kcal"
            case proteinGoalG = "protein_goal_g"
            case carbsGoalG = "carbs_goal_g"
            case fatGoalG = "fat_goal_g"
            case eatenKcal = "eaten_kcal"
            case streakLit = "streak_lit"
            case rollingAverageKg = "rolling_average_kg"
        }
    }
}

enum Fixtures {
    static func load<T: Decodable>(_ name: String, as type: T.Type) throws -> T {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Fixtures/\(name).json"])
        }
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }
}
