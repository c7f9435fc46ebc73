import Foundation

// The rest of WHOOP's documented responses. The app reads none of them today; they are here so
// every answer WHOOP documents has a type that decodes it (the OpenAPI payload tests hold them
// to the document), ready when a feature needs one.

/// `GET /v1/activity-mapping/{activityV1Id}`: the v2 UUID of a v1 activity id.
public struct WhoopActivityMapping: Codable, Hashable, Sendable {
    public let v2ActivityID: String

    enum CodingKeys: String, CodingKey {
        case v2ActivityID = "v2_activity_id"
    }
}

/// `GET /v2/activity/sleep/{sleepId}/stream`: the raw signals of a sleep. Every field is optional
/// in the document.
public struct WhoopSleepStream: Codable, Hashable, Sendable {
    public struct Point: Codable, Hashable, Sendable {
        public let timestamp: Date?
        public let heartRate: Int?
        public let skinTemperature: Double?
        public let boardTemperature: Double?
        public let batteryTemperature: Double?
        public let isSleeping: Bool?
        public let isCharging: Bool?

        enum CodingKeys: String, CodingKey {
            case timestamp
            case heartRate = "hr"
            case skinTemperature = "skin_temp"
            case boardTemperature = "board_temp"
            case batteryTemperature = "battery_temp"
            case isSleeping = "is_sleeping"
            case isCharging = "is_charging"
        }
    }

    public let stream: [Point]?
    public let algorithmVersion: String?

    enum CodingKeys: String, CodingKey {
        case stream
        case algorithmVersion = "algorithm_version"
    }
}

/// `POST /v2/partner/token` (trusted partners only).
public struct WhoopPartnerToken: Codable, Hashable, Sendable {
    public let accessToken: String?
    public let expiresIn: Int?
    public let tokenType: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case expiresIn = "expires_in"
        case tokenType = "token_type"
    }
}

/// A lab service request of a partner (`GET /v2/partner/service-request/{id}`). `status` and
/// `intent` are FHIR codes, kept as text.
public struct WhoopServiceRequest: Codable, Hashable, Sendable {
    public let id: String
    public let status: String
    public let intent: String
    public let code: String
    public let taskBusinessStatus: String?
    public let taskDescription: String?

    enum CodingKeys: String, CodingKey {
        case id, status, intent, code
        case taskBusinessStatus = "task_business_status"
        case taskDescription = "task_description"
    }
}

/// A lab requisition of a partner (`GET /v2/partner/requisition/{id}`).
public struct WhoopLabRequisition: Codable, Hashable, Sendable {
    /// `PatientCore`: an id, and the Unilabs details when the patient is one of theirs (`oneOf`).
    public struct Patient: Codable, Hashable, Sendable {
        public let id: String
        public let firstName: String?
        public let lastName: String?
        /// A calendar date, `YYYY-MM-DD`.
        public let birthDate: String?
        public let gender: String?
        public let email: String?
        public let phone: String?
        public let nationality: String?
        public let emiratesID: String?
        public let passportNumber: String?

        enum CodingKeys: String, CodingKey {
            case id, gender, email, phone, nationality
            case firstName = "first_name"
            case lastName = "last_name"
            case birthDate = "birth_date"
            case emiratesID = "emirates_id"
            case passportNumber = "passport_no"
        }
    }

    /// `Appointment`, with the Unilabs slot and address when present (`oneOf`).
    public struct Appointment: Codable, Hashable, Sendable {
        public struct Address: Codable, Hashable, Sendable {
            public let building: String
            public let area: String
            public let emirate: String
            public let landmark: String?
            public let flatNumber: String?

            enum CodingKeys: String, CodingKey {
                case building, area, emirate, landmark
                case flatNumber = "flat_no"
            }
        }

        public let serviceRequestIDs: [String]
        public let startTime: Date
        public let slotID: String?
        public let collectionAddress: Address?

        enum CodingKeys: String, CodingKey {
            case serviceRequestIDs = "service_request_ids"
            case startTime = "start_time"
            case slotID = "slot_id"
            case collectionAddress = "collection_address"
        }
    }

    public let id: String
    public let createdAt: Date
    public let updatedAt: Date
    public let serviceRequests: [WhoopServiceRequest]
    public let patient: Patient
    public let appointments: [Appointment]

    enum CodingKeys: String, CodingKey {
        case id, patient, appointments
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case serviceRequests = "service_requests"
    }
}
