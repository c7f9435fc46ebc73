import Foundation
import Logging
import WhoopAPI

extension ServerConfiguration {
    /// Reads the environment (the variables of the table on `ServerConfiguration`); throws
    /// naming the variable that is wrong or missing.
    public init(environment: [String: String]) throws {
        let reader = EnvironmentReader(environment: environment)
        guard let mode = Mode(rawValue: reader.value("WDIET_ENV") ?? "production") else {
            throw ConfigurationError.invalid("WDIET_ENV", "must be development or production")
        }
        let database = try DatabaseURL(
            parsing: reader.value("WDIET_DATABASE_URL") ?? "postgres://wdiet_app@127.0.0.1:5432/wdiet",
            variable: "WDIET_DATABASE_URL"
        )
        let migration = try DatabaseURL(
            parsing: reader.value("WDIET_MIGRATION_DATABASE_URL") ?? "postgres://postgres@127.0.0.1:5432/wdiet",
            variable: "WDIET_MIGRATION_DATABASE_URL"
        )
        let (host, port) = try Self.listenAddress(reader.value("WDIET_LISTEN") ?? "127.0.0.1:8090")
        var tokenKey = Self.developmentTokenKey
        if let text = reader.value("WDIET_TOKEN_KEY") {
            guard let key = Data(base64Encoded: text), key.count == 32 else {
                throw ConfigurationError.invalid("WDIET_TOKEN_KEY", "must be 32 bytes, base64-encoded")
            }
            tokenKey = key
        }
        let cost = try reader.integer("WDIET_BCRYPT_COST", in: 4...31) ?? 12
        self.init(
            mode: mode,
            databaseURL: database,
            migrationDatabaseURL: migration,
            jwtSecret: reader.value("WDIET_JWT_SECRET") ?? Self.developmentJWTSecret,
            tokenKey: tokenKey,
            host: host,
            port: port,
            bcryptCost: UInt8(cost),
            appleJWKS: try Self.appleJWKS(reader.value("WDIET_APPLE_JWKS")),
            appleAudience: reader.value("WDIET_APPLE_AUDIENCE")
        )
        try readLimits(reader)
        try readObservability(reader)
        try readWhoop(reader)
        try validate()
    }

    private mutating func readLimits(_ reader: EnvironmentReader) throws {
        if let count = try reader.integer("WDIET_BCRYPT_CONCURRENCY", in: 1...256) { bcrypt = BcryptPolicy(concurrency: Int(count)) }
        if let text = reader.value("WDIET_TRUSTED_PROXIES") {
            clientAddress.trustedProxies = try IPRange.list(text, variable: "WDIET_TRUSTED_PROXIES")
        }
        if let text = reader.value("WDIET_PROXY_HEADER") {
            guard let header = ClientAddressPolicy.Header(rawValue: text.lowercased()) else {
                throw ConfigurationError.invalid("WDIET_PROXY_HEADER", "must be X-Forwarded-For or Forwarded")
            }
            clientAddress.header = header
        }
        // A push body may hold up to 2 MiB: a smaller rate would refuse it for ever.
        if let bytes = try reader.integer("WDIET_USER_QUOTA_BYTES", in: 1...Int64.max) { quota.storedBytes = bytes }
        if let bytes = try reader.integer("WDIET_PUSH_BYTES_PER_MINUTE", in: (2 * 1024 * 1024)...Int64.max) { quota.pushBytesPerMinute = bytes }
        if let count = try reader.integer("WDIET_MAX_CONNECTIONS", in: 1...1_000_000) { connections.maxConnections = Int(count) }
        if let count = try reader.integer("WDIET_MAX_CONNECTIONS_PER_ADDRESS", in: 1...1_000_000) {
            connections.maxConnectionsPerAddress = Int(count)
        }
        if let count = try reader.integer("WDIET_DATABASE_CONNECTIONS", in: 1...1_000) { databaseConnections = Int(count) }
        if let seconds = try reader.integer("WDIET_IDLE_TIMEOUT", in: 1...86_400) { connections.idleTimeout = TimeInterval(seconds) }
        if let seconds = try reader.integer("WDIET_HEADER_TIMEOUT", in: 1...86_400) { connections.headerTimeout = TimeInterval(seconds) }
        if let seconds = try reader.integer("WDIET_BODY_TIMEOUT", in: 1...86_400) { connections.bodyTimeout = TimeInterval(seconds) }
    }

    private mutating func readObservability(_ reader: EnvironmentReader) throws {
        if let token = reader.value("WDIET_METRICS_TOKEN") {
            guard token.count >= 16 else { throw ConfigurationError.invalid("WDIET_METRICS_TOKEN", "must have at least 16 characters") }
            metrics.token = token
        }
        if let text = reader.value("WDIET_METRICS_ALLOW") {
            metrics.allowed = text.lowercased() == "none" ? [] : try IPRange.list(text, variable: "WDIET_METRICS_ALLOW")
        }
        if let text = reader.value("WDIET_LOG_FORMAT") {
            guard let format = LogFormat(rawValue: text.lowercased()) else {
                throw ConfigurationError.invalid("WDIET_LOG_FORMAT", "must be text or json")
            }
            logFormat = format
        }
        if let text = reader.value("WDIET_LOG_LEVEL") {
            guard let level = Logger.Level(rawValue: text.lowercased()), level != .trace else {
                throw ConfigurationError.invalid("WDIET_LOG_LEVEL", "must be debug, info, notice, warning, error or critical")
            }
            logLevel = level
        }
    }

    private mutating func readWhoop(_ reader: EnvironmentReader) throws {
        if let seconds = try reader.integer("WDIET_WHOOP_REFRESH_INTERVAL", in: 1...86_400) { whoopRefreshInterval = TimeInterval(seconds) }
        guard let id = reader.value("WDIET_WHOOP_CLIENT_ID") else { return }
        guard let secret = reader.value("WDIET_WHOOP_CLIENT_SECRET") else {
            throw ConfigurationError.invalid("WDIET_WHOOP_CLIENT_SECRET", "must be set when WDIET_WHOOP_CLIENT_ID is")
        }
        guard let redirect = reader.value("WDIET_WHOOP_REDIRECT_URI"), let url = URL(string: redirect),
            ["http", "https"].contains(url.scheme ?? ""), url.host?.isEmpty == false
        else {
            throw ConfigurationError.invalid("WDIET_WHOOP_REDIRECT_URI", "must be this server's public http(s) address of /v1/whoop/callback")
        }
        var configuration = WhoopConfiguration(clientID: id, clientSecret: secret, redirectURI: redirect)
        if let api = reader.value("WDIET_WHOOP_API_URL") { configuration.apiBase = api }
        if let oauth = reader.value("WDIET_WHOOP_OAUTH_URL") { configuration.oauthBase = oauth }
        whoop = configuration
    }

    private static func appleJWKS(_ text: String?) throws -> String? {
        guard let text, !text.hasPrefix("{") else { return text }
        guard let data = FileManager.default.contents(atPath: text) else {
            throw ConfigurationError.invalid("WDIET_APPLE_JWKS", "is neither a JWKS document nor a readable file")
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func listenAddress(_ text: String) throws -> (String, Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port), colon != text.startIndex
        else { throw ConfigurationError.invalid("WDIET_LISTEN", "must be HOST:PORT, e.g. 127.0.0.1:8090") }
        return (String(text[..<colon]), port)
    }
}

/// Reads variables, treating an empty one as unset.
private struct EnvironmentReader {
    let environment: [String: String]

    func value(_ name: String) -> String? {
        environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    func integer(_ name: String, in range: ClosedRange<Int64>) throws -> Int64? {
        guard let text = value(name) else { return nil }
        guard let number = Int64(text), range.contains(number) else {
            throw ConfigurationError.invalid(name, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
