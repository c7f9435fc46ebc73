import Foundation

/// Paths of the account API, shared by client and server.
public enum AccountPaths {
    public static let signup = "/v1/auth/signup"
    public static let login = "/v1/auth/login"
    public static let apple = "/v1/auth/apple"
    public static let refresh = "/v1/auth/refresh"
    public static let logout = "/v1/auth/logout"
    public static let devices = "/v1/devices"
    public static let export = "/v1/account/export"
    public static let account = "/v1/account"
}

/// `POST /v1/auth/signup` and `POST /v1/auth/login` body.
public struct PasswordCredentials: Hashable, Sendable, Codable {
    public let email: String
    public let password: String
    /// Shown in the list of signed-in devices ("Anna's laptop").
    public let deviceName: String

    public init(email: String, password: String, deviceName: String) {
        self.email = email
        self.password = password
        self.deviceName = deviceName
    }

    enum CodingKeys: String, CodingKey {
        case email, password
        case deviceName = "device_name"
    }
}

/// `POST /v1/auth/apple` body: the identity token from Sign in with Apple.
public struct AppleSignIn: Hashable, Sendable, Codable {
    public let identityToken: String
    public let deviceName: String

    public init(identityToken: String, deviceName: String) {
        self.identityToken = identityToken
        self.deviceName = deviceName
    }

    enum CodingKeys: String, CodingKey {
        case identityToken = "identity_token"
        case deviceName = "device_name"
    }
}

/// `POST /v1/auth/refresh` body.
public struct RefreshRequest: Hashable, Sendable, Codable {
    public let refreshToken: String

    public init(refreshToken: String) {
        self.refreshToken = refreshToken
    }

    enum CodingKeys: String, CodingKey {
        case refreshToken = "refresh_token"
    }
}

/// A signed-in session: a short-lived access token and the refresh token that replaces it
/// (each refresh token works once).
public struct TokenResponse: Hashable, Sendable, Codable {
    public let userID: UUID
    public let sessionID: UUID
    public let accessToken: String
    /// Seconds the access token is valid.
    public let expiresIn: Int
    public let refreshToken: String

    public init(userID: UUID, sessionID: UUID, accessToken: String, expiresIn: Int, refreshToken: String) {
        self.userID = userID
        self.sessionID = sessionID
        self.accessToken = accessToken
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case sessionID = "session_id"
        case accessToken = "access_token"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
    }
}

/// One signed-in device, as `GET /v1/devices` lists them.
public struct DeviceSession: Hashable, Sendable, Codable {
    public let id: UUID
    public let deviceName: String
    public let createdAt: Date
    public let lastUsedAt: Date
    /// The session of the request that listed it.
    public let current: Bool

    public init(id: UUID, deviceName: String, createdAt: Date, lastUsedAt: Date, current: Bool) {
        self.id = id
        self.deviceName = deviceName
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.current = current
    }

    enum CodingKeys: String, CodingKey {
        case id, current
        case deviceName = "device_name"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
    }
}

/// `GET /v1/account/export`: everything the server holds of the user.
public struct AccountExport: Hashable, Sendable, Codable {
    public struct Row: Hashable, Sendable, Codable {
        public let table: SyncTable
        public let id: UUID
        public let hlc: HLC
        public let deleted: Bool
        public let row: JSONValue

        public init(table: SyncTable, id: UUID, hlc: HLC, deleted: Bool, row: JSONValue) {
            self.table = table
            self.id = id
            self.hlc = hlc
            self.deleted = deleted
            self.row = row
        }
    }

    public let userID: UUID
    public let email: String?
    public let createdAt: Date
    public let devices: [DeviceSession]
    public let rows: [Row]

    public init(userID: UUID, email: String?, createdAt: Date, devices: [DeviceSession], rows: [Row]) {
        self.userID = userID
        self.email = email
        self.createdAt = createdAt
        self.devices = devices
        self.rows = rows
    }

    enum CodingKeys: String, CodingKey {
        case email, devices, rows
        case userID = "user_id"
        case createdAt = "created_at"
    }
}

/// The body of every error response: a stable code for programs and a message for people.
public struct APIErrorBody: Hashable, Sendable, Codable {
    public struct Detail: Hashable, Sendable, Codable {
        public let code: String
        public let message: String

        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    public let error: Detail

    public init(code: String, message: String) {
        error = Detail(code: code, message: message)
    }
}

extension JSONEncoder {
    /// The API's encoding: ISO 8601 dates.
    public static var api: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension JSONDecoder {
    /// The API's decoding: ISO 8601 dates.
    public static var api: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
