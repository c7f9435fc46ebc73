import DietCore
import Foundation

/// The 120-day journey fixture (`Tests/DietCoreTests/Fixtures/journey-120_*.json`, written by
/// `scripts/dev/make-scenario`), shared by the core and store replay tests.
public enum JourneyFixture {
    public static let folder = RepositoryFolder.url("Tests/DietCoreTests/Fixtures")

    public static func input() throws -> JourneyInput {
        try JSONDecoder().decode(JourneyInput.self, from: Data(contentsOf: folder.appendingPathComponent("journey-120_input.json")))
    }

    public static func expected() throws -> JourneyExpected {
        try JSONDecoder().decode(JourneyExpected.self, from: Data(contentsOf: folder.appendingPathComponent("journey-120_expected.json")))
    }
}

/// The input of a scenario fixture (`Fixtures/<case>_input.json`), as written by
/// `scripts/dev/make-scenario`.
public struct JourneyInput: Decodable, Sendable {
    public let description: String
    public let profile: Profile
    public let startDate: LocalDate
    public let timeZone: String
    public let evaluateAt: TimeOfDay
    public let days: [Day]

    public struct Day: Decodable, Sendable {
        public let date: LocalDate
        public let meals: [Meal]
        public let weightKg: Double?

        enum CodingKeys: String, CodingKey {
            case date, meals
            case weightKg = "weight_kg"
        }
    }

    public struct Meal: Decodable, Sendable {
        public let name: String
        public let time: TimeOfDay
        public let kcal: Int
        public let proteinG: Double?
        public let carbsG: Double?
        public let fatG: Double?

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
public struct JourneyExpected: Codable, Equatable, Sendable {
    public let days: [Day]

    public struct Day: Codable, Equatable, Sendable {
        public let date: LocalDate
        public let programmeDay: Int
        public let phase: Phase
        public let dayInPhase: Int
        public let targetKcal: Int
        public let proteinGoalG: Double
        public let carbsGoalG: Double
        public let fatGoalG: Double
        public let eatenKcal: Int
        public let smileys: [String: Smiley]
        public let streak: Int
        public let streakLit: Bool
        public let rollingAverageKg: Double?

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
