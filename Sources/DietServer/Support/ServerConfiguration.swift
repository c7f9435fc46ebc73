import Foundation

/// Everything the server reads from its environment, with safe local defaults.
///
/// | Variable | Default |
/// |---|---|
/// | `WDIET_DATABASE_URL` | `postgres://wdiet_app@127.0.0.1:5432/wdiet` (the non-owner app role) |
/// | `WDIET_MIGRATION_DATABASE_URL` | `postgres://postgres@127.0.0.1:5432/wdiet` (the owner, start-up only) |
/// | `WDIET_JWT_SECRET` | a development secret (refused in production) |
/// | `WDIET_TOKEN_KEY` | a development key, 32 bytes base64 (refused in production) |
/// | `WDIET_LISTEN` | `127.0.0.1:8090` |
/// | `WDIET_ENV` | `development`; `production` refuses the default secrets |
/// | `WDIET_BCRYPT_COST` | 12 |
/// | `WDIET_APPLE_JWKS` | none (Sign in with Apple disabled); a JWKS document or a path to one |
/// | `WDIET_APPLE_AUDIENCE` | none; the app's bundle id |
public struct ServerConfiguration: Sendable {
    public enum Mode: String, Sendable {
        case development, production
    }

    public var mode: Mode
    public var databaseURL: DatabaseURL
    public var migrationDatabaseURL: DatabaseURL
    public var jwtSecret: String
    /// AES-GCM key for tokens of third parties kept at rest (WHOOP); 32 bytes.
    public var tokenKey: Data
    public var host: String
    public var port: Int
    public var bcryptCost: UInt8
    public var appleJWKS: String?
    public var appleAudience: String?
    public var accessTokenLifetime: TimeInterval = 15 * 60
    public var refreshTokenLifetime: TimeInterval = 60 * 24 * 3600
    public var rateLimit = RateLimitPolicy()

    public static let developmentJWTSecret = "wdiet-development-jwt-secret-not-for-production"
    public static let developmentTokenKey = Data(repeating: 0x42, count: 32)

    public init(
        mode: Mode = .development,
        databaseURL: DatabaseURL,
        migrationDatabaseURL: DatabaseURL,
        jwtSecret: String = ServerConfiguration.developmentJWTSecret,
        tokenKey: Data = ServerConfiguration.developmentTokenKey,
        host: String = "127.0.0.1",
        port: Int = 8090,
        bcryptCost: UInt8 = 12,
        appleJWKS: String? = nil,
        appleAudience: String? = nil
    ) {
        self.mode = mode
        self.databaseURL = databaseURL
        self.migrationDatabaseURL = migrationDatabaseURL
        self.jwtSecret = jwtSecret
        self.tokenKey = tokenKey
        self.host = host
        self.port = port
        self.bcryptCost = bcryptCost
        self.appleJWKS = appleJWKS
        self.appleAudience = appleAudience
    }

    /// Reads the environment; throws naming the variable that is wrong.
    public init(environment: [String: String]) throws {
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let mode = Mode(rawValue: value("WDIET_ENV") ?? "development") else {
            throw ConfigurationError.invalid("WDIET_ENV", "must be development or production")
        }
        let database = try DatabaseURL(parsing: value("WDIET_DATABASE_URL") ?? "postgres://wdiet_app@127.0.0.1:5432/wdiet",
                                       variable: "WDIET_DATABASE_URL")
        let migration = try DatabaseURL(
            parsing: value("WDIET_MIGRATION_DATABASE_URL") ?? "postgres://postgres@127.0.0.1:5432/wdiet",
            variable: "WDIET_MIGRATION_DATABASE_URL")
        let (host, port) = try Self.listenAddress(value("WDIET_LISTEN") ?? "127.0.0.1:8090")
        var tokenKey = Self.developmentTokenKey
        if let text = value("WDIET_TOKEN_KEY") {
            guard let key = Data(base64Encoded: text), key.count == 32 else {
                throw ConfigurationError.invalid("WDIET_TOKEN_KEY", "must be 32 bytes, base64-encoded")
            }
            tokenKey = key
        }
        let cost = value("WDIET_BCRYPT_COST").map { UInt8($0) } ?? 12
        guard let cost, (4...31).contains(cost) else {
            throw ConfigurationError.invalid("WDIET_BCRYPT_COST", "must be a whole number from 4 to 31")
        }
        var jwks = value("WDIET_APPLE_JWKS")
        if let text = jwks, !text.hasPrefix("{") {
            guard let data = FileManager.default.contents(atPath: text) else {
                throw ConfigurationError.invalid("WDIET_APPLE_JWKS", "is neither a JWKS document nor a readable file")
            }
            jwks = String(decoding: data, as: UTF8.self)
        }
        self.init(mode: mode, databaseURL: database, migrationDatabaseURL: migration,
                  jwtSecret: value("WDIET_JWT_SECRET") ?? Self.developmentJWTSecret, tokenKey: tokenKey,
                  host: host, port: port, bcryptCost: cost, appleJWKS: jwks, appleAudience: value("WDIET_APPLE_AUDIENCE"))
        try validate()
    }

    /// Production refuses development secrets and short JWT secrets.
    public func validate() throws {
        guard mode == .production else { return }
        if jwtSecret == Self.developmentJWTSecret || jwtSecret.utf8.count < 32 {
            throw ConfigurationError.invalid("WDIET_JWT_SECRET", "must be set to a secret of at least 32 bytes in production")
        }
        if tokenKey == Self.developmentTokenKey {
            throw ConfigurationError.invalid("WDIET_TOKEN_KEY", "must be set in production")
        }
        if appleJWKS != nil, appleAudience == nil {
            throw ConfigurationError.invalid("WDIET_APPLE_AUDIENCE", "must be set when WDIET_APPLE_JWKS is")
        }
    }

    static func listenAddress(_ text: String) throws -> (String, Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (0...65535).contains(port), colon != text.startIndex
        else { throw ConfigurationError.invalid("WDIET_LISTEN", "must be HOST:PORT, e.g. 127.0.0.1:8090") }
        return (String(text[..<colon]), port)
    }
}

/// Settings of the sign-in rate limit.
public struct RateLimitPolicy: Sendable {
    public var window: TimeInterval = 15 * 60
    public var failuresPerAccount = 5
    public var failuresPerAddress = 20
}

/// A `postgres://user:password@host:port/database` address.
public struct DatabaseURL: Sendable, Hashable {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String

    public init(host: String, port: Int, username: String, password: String?, database: String) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
    }

    public init(parsing text: String, variable: String) throws {
        guard let components = URLComponents(string: text), ["postgres", "postgresql"].contains(components.scheme),
              let host = components.host, !host.isEmpty, let user = components.user, !user.isEmpty
        else { throw ConfigurationError.invalid(variable, "must be postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else { throw ConfigurationError.invalid(variable, "names no database") }
        self.init(host: host, port: components.port ?? 5432, username: user, password: components.password,
                  database: database)
    }
}

public enum ConfigurationError: Error, CustomStringConvertible, Equatable {
    case invalid(String, String)

    public var description: String {
        switch self {
        case let .invalid(variable, problem): "\(variable) \(problem)"
        }
    }
}
