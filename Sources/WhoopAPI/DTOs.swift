import Foundation

/// `score_state`: only SCORED records carry a score.
public enum ScoreState: String, Codable, Sendable {
    case scored = "SCORED"
    case pendingScore = "PENDING_SCORE"
    case unscorable = "UNSCORABLE"
}

/// A page of a collection: `records` and the `next_token` of the next page, if any. WHOOP's
/// document makes neither required, so a page without `records` is an empty page.
public struct WhoopPage<Record: Decodable & Sendable>: Decodable, Sendable {
    public let records: [Record]
    public let nextToken: String?

    enum CodingKeys: String, CodingKey {
        case records
        case nextToken = "next_token"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        records = try container.decodeIfPresent([Record].self, forKey: .records) ?? []
        nextToken = try container.decodeIfPresent(String.self, forKey: .nextToken)
    }
}

public struct WhoopRecovery: Codable, Hashable, Sendable {
    public struct Score: Codable, Hashable, Sendable {
        public let userCalibrating: Bool
        public let recoveryScore: Double
        public let restingHeartRate: Double
        public let hrvRmssdMilli: Double
        public let spo2Percentage: Double?
        public let skinTempCelsius: Double?

        enum CodingKeys: String, CodingKey {
            case userCalibrating = "user_calibrating"
            case recoveryScore = "recovery_score"
            case restingHeartRate = "resting_heart_rate"
            case hrvRmssdMilli = "hrv_rmssd_milli"
            case spo2Percentage = "spo2_percentage"
            case skinTempCelsius = "skin_temp_celsius"
        }
    }

    public let cycleID: Int64
    public let sleepID: String
    public let userID: Int64
    public let createdAt: Date
    public let updatedAt: Date
    public let scoreState: ScoreState
    public let score: Score?

    enum CodingKeys: String, CodingKey {
        case cycleID = "cycle_id"
        case sleepID = "sleep_id"
        case userID = "user_id"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case scoreState = "score_state"
        case score
    }
}

public struct WhoopSleep: Codable, Hashable, Sendable {
    public struct StageSummary: Codable, Hashable, Sendable {
        public let totalInBedTimeMilli: Int
        public let totalAwakeTimeMilli: Int
        public let totalNoDataTimeMilli: Int
        public let totalLightSleepTimeMilli: Int
        public let totalSlowWaveSleepTimeMilli: Int
        public let totalRemSleepTimeMilli: Int
        public let sleepCycleCount: Int
        public let disturbanceCount: Int

        enum CodingKeys: String, CodingKey {
            case totalInBedTimeMilli = "total_in_bed_time_milli"
            case totalAwakeTimeMilli = "total_awake_time_milli"
            case totalNoDataTimeMilli = "total_no_data_time_milli"
            case totalLightSleepTimeMilli = "total_light_sleep_time_milli"
            case totalSlowWaveSleepTimeMilli = "total_slow_wave_sleep_time_milli"
            case totalRemSleepTimeMilli = "total_rem_sleep_time_milli"
            case sleepCycleCount = "sleep_cycle_count"
            case disturbanceCount = "disturbance_count"
        }
    }

    public struct SleepNeeded: Codable, Hashable, Sendable {
        public let baselineMilli: Int64
        public let needFromSleepDebtMilli: Int64
        public let needFromRecentStrainMilli: Int64
        public let needFromRecentNapMilli: Int64

        enum CodingKeys: String, CodingKey {
            case baselineMilli = "baseline_milli"
            case needFromSleepDebtMilli = "need_from_sleep_debt_milli"
            case needFromRecentStrainMilli = "need_from_recent_strain_milli"
            case needFromRecentNapMilli = "need_from_recent_nap_milli"
        }

        /// The sleep the user needed before this sleep (the sum of the parts).
        public var totalMilli: Int64 { baselineMilli + needFromSleepDebtMilli + needFromRecentStrainMilli + needFromRecentNapMilli }
    }

    public struct Score: Codable, Hashable, Sendable {
        public let stageSummary: StageSummary
        public let sleepNeeded: SleepNeeded
        public let respiratoryRate: Double?
        public let sleepPerformancePercentage: Double?
        public let sleepConsistencyPercentage: Double?
        public let sleepEfficiencyPercentage: Double?

        enum CodingKeys: String, CodingKey {
            case stageSummary = "stage_summary"
            case sleepNeeded = "sleep_needed"
            case respiratoryRate = "respiratory_rate"
            case sleepPerformancePercentage = "sleep_performance_percentage"
            case sleepConsistencyPercentage = "sleep_consistency_percentage"
            case sleepEfficiencyPercentage = "sleep_efficiency_percentage"
        }
    }

    public let id: String
    public let cycleID: Int64
    /// The id of the previous API generation (gone after 2025-09-01).
    public let v1ID: Int64?
    public let userID: Int64
    public let createdAt: Date
    public let updatedAt: Date
    public let start: Date
    public let end: Date
    public let timezoneOffset: String
    public let nap: Bool
    public let scoreState: ScoreState
    public let score: Score?

    enum CodingKeys: String, CodingKey {
        case id, start, end, nap, score
        case cycleID = "cycle_id"
        case v1ID = "v1_id"
        case userID = "user_id"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case timezoneOffset = "timezone_offset"
        case scoreState = "score_state"
    }
}

public struct WhoopCycle: Codable, Hashable, Sendable {
    public struct Score: Codable, Hashable, Sendable {
        public let strain: Double
        public let kilojoule: Double
        public let averageHeartRate: Int
        public let maxHeartRate: Int

        enum CodingKeys: String, CodingKey {
            case strain, kilojoule
            case averageHeartRate = "average_heart_rate"
            case maxHeartRate = "max_heart_rate"
        }
    }

    public let id: Int64
    public let userID: Int64
    public let createdAt: Date
    public let updatedAt: Date
    public let start: Date
    /// nil while the cycle is still running.
    public let end: Date?
    public let timezoneOffset: String
    public let scoreState: ScoreState
    public let score: Score?

    enum CodingKeys: String, CodingKey {
        case id, start, end, score
        case userID = "user_id"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case timezoneOffset = "timezone_offset"
        case scoreState = "score_state"
    }
}

public struct WhoopWorkout: Codable, Hashable, Sendable {
    /// Milliseconds in each heart-rate zone.
    public struct ZoneDurations: Codable, Hashable, Sendable {
        public let zoneZeroMilli: Int64
        public let zoneOneMilli: Int64
        public let zoneTwoMilli: Int64
        public let zoneThreeMilli: Int64
        public let zoneFourMilli: Int64
        public let zoneFiveMilli: Int64

        enum CodingKeys: String, CodingKey {
            case zoneZeroMilli = "zone_zero_milli"
            case zoneOneMilli = "zone_one_milli"
            case zoneTwoMilli = "zone_two_milli"
            case zoneThreeMilli = "zone_three_milli"
            case zoneFourMilli = "zone_four_milli"
            case zoneFiveMilli = "zone_five_milli"
        }
    }

    public struct Score: Codable, Hashable, Sendable {
        public let strain: Double
        public let averageHeartRate: Int
        public let maxHeartRate: Int
        public let kilojoule: Double
        public let percentRecorded: Double
        public let distanceMeter: Double?
        public let altitudeGainMeter: Double?
        public let altitudeChangeMeter: Double?
        public let zoneDurations: ZoneDurations

        enum CodingKeys: String, CodingKey {
            case strain, kilojoule
            case averageHeartRate = "average_heart_rate"
            case maxHeartRate = "max_heart_rate"
            case percentRecorded = "percent_recorded"
            case distanceMeter = "distance_meter"
            case altitudeGainMeter = "altitude_gain_meter"
            case altitudeChangeMeter = "altitude_change_meter"
            case zoneDurations = "zone_durations"
        }
    }

    public let id: String
    /// The id of the previous API generation (gone after 2025-09-01).
    public let v1ID: Int64?
    public let userID: Int64
    public let createdAt: Date
    public let updatedAt: Date
    public let start: Date
    public let end: Date
    public let timezoneOffset: String
    public let sportName: String
    /// The sport's id of the previous API generation (gone after 2025-09-01).
    public let sportID: Int?
    public let scoreState: ScoreState
    public let score: Score?

    enum CodingKeys: String, CodingKey {
        case id, start, end, score
        case v1ID = "v1_id"
        case userID = "user_id"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case timezoneOffset = "timezone_offset"
        case sportName = "sport_name"
        case sportID = "sport_id"
        case scoreState = "score_state"
    }
}

public struct WhoopProfile: Codable, Hashable, Sendable {
    public let userID: Int64
    public let email: String
    public let firstName: String
    public let lastName: String

    enum CodingKeys: String, CodingKey {
        case email
        case userID = "user_id"
        case firstName = "first_name"
        case lastName = "last_name"
    }
}

public struct WhoopBodyMeasurement: Codable, Hashable, Sendable {
    public let heightMeter: Double
    public let weightKilogram: Double
    public let maxHeartRate: Int

    enum CodingKeys: String, CodingKey {
        case heightMeter = "height_meter"
        case weightKilogram = "weight_kilogram"
        case maxHeartRate = "max_heart_rate"
    }
}

extension JSONDecoder {
    /// WHOOP's dates: ISO 8601, with or without fractional seconds.
    static var whoop: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
            if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date: \(text)")
        }
        return decoder
    }
}
