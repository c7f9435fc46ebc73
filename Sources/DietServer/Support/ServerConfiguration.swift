import Foundation
import Logging
import WhoopAPI

/// Everything the server reads from its environment (`init(environment:)`), with safe
/// defaults. Production is the default: the development secrets from the source are refused
/// unless `WDIET_ENV=development` asks for them.
///
/// | Variable | Default |
/// |---|---|
/// | `WDIET_DATABASE_URL` | `postgres://wdiet_app@127.0.0.1:5432/wdiet` (the non-owner app role) |
/// | `WDIET_MIGRATION_DATABASE_URL` | `postgres://postgres@127.0.0.1:5432/wdiet` (the owner, start-up only) |
/// | `WDIET_ENV` | `production`; `development` allows the development secrets below |
/// | `WDIET_JWT_SECRET` | required in production (at least 32 bytes) |
/// | `WDIET_TOKEN_KEY` | required in production; 32 bytes base64 |
/// | `WDIET_LISTEN` | `127.0.0.1:8090` |
/// | `WDIET_BCRYPT_COST` | 12 |
/// | `WDIET_BCRYPT_CONCURRENCY` | the number of cores: bcrypt hashes computed at once |
/// | `WDIET_TRUSTED_PROXIES` | none; addresses or CIDR ranges whose forwarding header is believed |
/// | `WDIET_PROXY_HEADER` | `X-Forwarded-For`; or `Forwarded` (RFC 7239) |
/// | `WDIET_USER_QUOTA_BYTES` | 104857600 (100 MiB of stored rows per user) |
/// | `WDIET_PUSH_BYTES_PER_MINUTE` | 10485760 (10 MiB of pushed rows per user and minute) |
/// | `WDIET_MAX_CONNECTIONS` | 512 open connections; past it new ones wait to be accepted |
/// | `WDIET_MAX_CONNECTIONS_PER_ADDRESS` | 32 open connections from one client address (the TCP peer: behind a proxy, the proxy's, which is exempt when in `WDIET_TRUSTED_PROXIES`); past it a new one is closed at once |
/// | `WDIET_DATABASE_CONNECTIONS` | twice the number of cores, plus one: connections to PostgreSQL this instance opens at most |
/// | `WDIET_IDLE_TIMEOUT` | 30 s: an idle connection is closed |
/// | `WDIET_HEADER_TIMEOUT` | 10 s: request headers not complete this long after the connection opened (or a later request's first bytes arrived) are cut |
/// | `WDIET_BODY_TIMEOUT` | 60 s: a request body not complete this long after its headers is cut |
/// | `WDIET_APPLE_JWKS` | none (Sign in with Apple disabled); a JWKS document or a path to one |
/// | `WDIET_APPLE_AUDIENCE` | none; the app's bundle id |
/// | `WDIET_METRICS_TOKEN` | none; a bearer token (at least 16 characters) that may read `/metrics` from anywhere |
/// | `WDIET_METRICS_ALLOW` | `127.0.0.0/8,::1`; peers that may read `/metrics` without the token (`none`: no peer), only for requests no proxy relayed (no `X-Forwarded-For`, `Forwarded` or `X-Real-IP`) |
/// | `WDIET_LOG_FORMAT` | `text`; `json` writes one JSON object per line (`time`, `level`, `label`, `message`, `metadata`) |
/// | `WDIET_LOG_LEVEL` | `info`; `debug` … `critical` (not `trace`: the database driver logs row contents there) |
/// | `WDIET_WHOOP_CLIENT_ID`, `WDIET_WHOOP_CLIENT_SECRET` | none (WHOOP disabled: its endpoints answer 503) |
/// | `WDIET_WHOOP_REDIRECT_URI` | required with WHOOP: this server's public `…/v1/whoop/callback` address |
/// | `WDIET_WHOOP_API_URL`, `WDIET_WHOOP_OAUTH_URL` | WHOOP's production addresses (tests use a local fake) |
/// | `WDIET_WHOOP_REFRESH_INTERVAL` | 60 s between runs of the token-refresh job |
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
    public var bcrypt = BcryptPolicy()
    public var clientAddress = ClientAddressPolicy()
    public var quota = QuotaPolicy()
    public var connections = ConnectionPolicy()
    /// Connections to PostgreSQL this instance opens at most: by default two per core and one
    /// more (PostgreSQL's own rule of thumb for a pool, counting this machine's cores; set it
    /// when the database runs on other hardware). Fewer busy backends do more: with 50 devices
    /// pushing at once on 2 cores, 3 to 6 connections answered 1,650–1,830 pushes/s with p99
    /// 38–45 ms, 10 answered 1,710–1,770/s (p99 49–51 ms) and 14 answered 1,515–1,565/s (p99
    /// 59–62 ms), the backends crowding each other out. Pushes of one user wait for their
    /// turn in memory (`UserTurns`), not on a connection.
    public var databaseConnections = 2 * max(1, ProcessInfo.processInfo.activeProcessorCount) + 1
    /// Who may read `/metrics`.
    public var metrics = MetricsPolicy()
    public var logFormat = LogFormat.text
    public var logLevel = Logger.Level.info
    /// The app's WHOOP registration; nil disables WHOOP on this server.
    public var whoop: WhoopConfiguration?
    /// How often each instance looks for WHOOP tokens that expire soon.
    public var whoopRefreshInterval: TimeInterval = 60

    public static let developmentJWTSecret = "wdiet-development-jwt-secret-not-for-production"
    public static let developmentTokenKey = Data(repeating: 0x42, count: 32)

    public init(
        mode: Mode = .production,
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

    /// Outside development, refuses the development secrets and short JWT secrets; always
    /// refuses settings that cannot work together.
    public func validate() throws {
        if appleJWKS != nil, appleAudience == nil {
            throw ConfigurationError.invalid("WDIET_APPLE_AUDIENCE", "must be set when WDIET_APPLE_JWKS is")
        }
        guard mode == .production else { return }
        if jwtSecret == Self.developmentJWTSecret || jwtSecret.utf8.count < 32 {
            throw ConfigurationError.invalid(
                "WDIET_JWT_SECRET",
                "must be set to a secret of at least 32 bytes (or WDIET_ENV=development for local use)"
            )
        }
        if tokenKey == Self.developmentTokenKey {
            throw ConfigurationError.invalid("WDIET_TOKEN_KEY", "must be set (or WDIET_ENV=development for local use)")
        }
    }
}

/// Limits on sign-in and sign-up attempts. Failed sign-ins count per account and address
/// together (so a stranger's guesses do not lock the owner out elsewhere), per address, and
/// per account across all addresses as a generous last line.
public struct RateLimitPolicy: Sendable {
    public var window: TimeInterval = 15 * 60
    public var failuresPerAccountAndAddress = 5
    public var failuresPerAddress = 20
    public var failuresPerAccount = 100
    public var signupWindow: TimeInterval = 3600
    public var signupsPerAddress = 10

    public init() {}
}

/// How much bcrypt work runs at once. Sign-ins wait before sign-ups; a sign-up finding
/// `maxQueued` others waiting, or anyone waiting longer than `maxWait` seconds, gets 503.
public struct BcryptPolicy: Sendable {
    public var concurrency: Int
    public var maxQueued: Int
    public var maxWait: TimeInterval

    public init(concurrency: Int = max(1, ProcessInfo.processInfo.activeProcessorCount), maxQueued: Int? = nil, maxWait: TimeInterval = 5) {
        self.concurrency = concurrency
        self.maxQueued = maxQueued ?? 4 * concurrency
        self.maxWait = maxWait
    }
}

/// Per-user storage: the bytes of stored rows, and the bytes pushed per minute.
public struct QuotaPolicy: Sendable {
    public var storedBytes: Int64 = 100 * 1024 * 1024
    public var pushBytesPerMinute: Int64 = 10 * 1024 * 1024

    public init() {}
}

/// Open connections and how long a slow client may hold one.
public struct ConnectionPolicy: Sendable {
    public var maxConnections = 512
    /// Open connections from one client address (the TCP peer; a trusted proxy has no cap of
    /// its own): one address cannot take every connection for itself.
    public var maxConnectionsPerAddress = 32
    /// An idle connection is closed after this.
    public var idleTimeout: TimeInterval = 30
    /// Request headers must be complete this long after the connection opened, or after the
    /// first bytes of a later request on it arrived.
    public var headerTimeout: TimeInterval = 10
    /// A request body must be complete this long after its headers.
    public var bodyTimeout: TimeInterval = 60

    public init() {}
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
        self.init(
            host: host,
            port: components.port ?? 5432,
            username: user,
            password: components.password,
            database: database
        )
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
