import AsyncHTTPClient
import DietStore
import Foundation
import SyncProtocol
import WhoopAPI

/// This device's WHOOP connection, shared by `wdiet whoop …` and the web app: the app
/// registration (from the environment), the tokens in an owner-only file beside the database,
/// the pending connection attempt (its state, redirect address and start, also owner-only),
/// fetching recoveries and sleeps, and disconnecting.
public struct WhoopConnection: Sendable {
    /// Where WHOOP sends the browser back to `wdiet serve`.
    public static let callbackPath = "/briefing/whoop/callback"
    /// The CLI's redirect address when none is configured (the user pastes it back).
    public static let defaultRedirectURI = "http://127.0.0.1:8765/whoop/callback"
    /// How long a web connection attempt may take from "Connect" to WHOOP's redirect.
    public static let attemptLifetime: TimeInterval = 10 * 60
    /// The days fetched right after connecting.
    public static let initialDays = 30

    public let configuration: WhoopConfiguration
    /// Whether `WDIET_WHOOP_REDIRECT_URI` was set (else `configuration.redirectURI` is the default).
    public let redirectConfigured: Bool
    public let tokensPath: String
    public let pendingPath: String

    /// The connection of the store at `databasePath`; nil when the app registration
    /// (`WDIET_WHOOP_CLIENT_ID`, `WDIET_WHOOP_CLIENT_SECRET`) is not in `environment`.
    /// `WDIET_WHOOP_REDIRECT_URI`, `WDIET_WHOOP_API_URL` and `WDIET_WHOOP_OAUTH_URL` are optional.
    public init?(environment: [String: String], databasePath: String) {
        guard let id = environment["WDIET_WHOOP_CLIENT_ID"], !id.isEmpty,
            let secret = environment["WDIET_WHOOP_CLIENT_SECRET"], !secret.isEmpty
        else { return nil }
        let redirect = environment["WDIET_WHOOP_REDIRECT_URI"].flatMap { $0.isEmpty ? nil : $0 }
        var configuration = WhoopConfiguration(clientID: id, clientSecret: secret, redirectURI: redirect ?? Self.defaultRedirectURI)
        if let api = environment["WDIET_WHOOP_API_URL"], !api.isEmpty { configuration.apiBase = api }
        if let oauth = environment["WDIET_WHOOP_OAUTH_URL"], !oauth.isEmpty { configuration.oauthBase = oauth }
        self.configuration = configuration
        redirectConfigured = redirect != nil
        tokensPath = StoredBriefing.whoopTokensPath(databasePath: databasePath)
        pendingPath = databasePath + ".whoop-pending"
    }

    // MARK: Tokens

    public func loadTokens() -> WhoopTokens? {
        FileManager.default.contents(atPath: tokensPath).flatMap { try? JSONDecoder.api.decode(WhoopTokens.self, from: $0) }
    }

    public var isConnected: Bool { FileManager.default.fileExists(atPath: tokensPath) }

    public func saveTokens(_ tokens: WhoopTokens) throws {
        try PrivateFile.write(try JSONEncoder.api.encode(tokens), to: tokensPath)
    }

    /// A client that saves every refreshed token pair before using it.
    public func client(_ tokens: WhoopTokens) -> WhoopClient {
        WhoopClient(configuration: configuration, tokens: tokens, http: Self.http, saveTokens: { [self] fresh in try saveTokens(fresh) })
    }

    /// The process's HTTP client for WHOOP: a refused connection (no network, WHOOP down)
    /// fails at once instead of being retried until the request's deadline, so the page or
    /// command says "cannot be reached" without a 20-second wait. Lives as long as the process.
    static let http: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    // MARK: Connecting

    /// One connection attempt: the state WHOOP must send back, the redirect address the code
    /// is bound to (the token exchange repeats it), and when it started.
    public struct Attempt: Codable, Hashable, Sendable {
        public let state: String
        public let redirectURI: String
        public let startedAt: Date
    }

    /// Starts an attempt: a fresh random state (192 bits) kept in the pending file, replacing
    /// any earlier attempt. Returns WHOOP's authorize address.
    public func begin(redirectURI: String? = nil, now: Date) throws -> URL {
        let attempt = Attempt(state: WhoopOAuth.makeState(), redirectURI: redirectURI ?? configuration.redirectURI, startedAt: now)
        var bound = configuration
        bound.redirectURI = attempt.redirectURI
        guard let url = WhoopOAuth.authorizeURL(bound, state: attempt.state) else { throw WhoopError.invalidRedirect("no state") }
        try PrivateFile.write(try JSONEncoder.api.encode(attempt), to: pendingPath)
        return url
    }

    /// The waiting attempt, if any.
    public func pendingAttempt() -> Attempt? {
        FileManager.default.contents(atPath: pendingPath).flatMap { try? JSONDecoder.api.decode(Attempt.self, from: $0) }
    }

    /// Why WHOOP's redirect cannot complete a connection; nothing is stored.
    public enum AttemptProblem: Error, Hashable, Sendable {
        /// The redirect carries no state.
        case missingState
        /// No attempt waits: never started, already completed (a reused redirect) or cancelled.
        case noAttempt
        /// The state is not the waiting attempt's (a forged or stale redirect); the attempt stays.
        case mismatch
        /// The attempt is older than its lifetime; it is removed.
        case expired
    }

    /// Checks `state` against the waiting attempt and, when it matches, uses it up (single
    /// use, before anything else happens). A mismatch leaves the attempt waiting, so a forged
    /// redirect cannot cancel the user's real one.
    public func takeAttempt(state: String?, now: Date, lifetime: TimeInterval? = attemptLifetime) throws(AttemptProblem) -> Attempt {
        guard let state, !state.isEmpty else { throw .missingState }
        guard let attempt = pendingAttempt() else { throw .noAttempt }
        guard Self.constantTimeEqual(state, attempt.state) else { throw .mismatch }
        try? FileManager.default.removeItem(atPath: pendingPath)
        if let lifetime, now.timeIntervalSince(attempt.startedAt) > lifetime || now < attempt.startedAt.addingTimeInterval(-60) {
            throw .expired
        }
        return attempt
    }

    /// Exchanges WHOOP's code (of `attempt`) for tokens and stores them (0600).
    public func exchange(code: String, attempt: Attempt) async throws -> WhoopTokens {
        var bound = configuration
        bound.redirectURI = attempt.redirectURI
        let tokens = try await WhoopClient.exchange(code: code, configuration: bound, http: Self.http)
        try saveTokens(tokens)
        return tokens
    }

    // MARK: Data

    /// What one fetch brought: records of each kind.
    public struct Fetched: Hashable, Sendable {
        public var recoveries = 0
        public var sleeps = 0
        public var cycles = 0
        public var workouts = 0
    }

    /// Fetches `days` of recoveries, sleeps, cycles and workouts into the store as synced rows
    /// (queued for upload, so the account's other devices brief from them too); returns their
    /// counts. An exclusive lock on a file beside the tokens keeps two processes (or two
    /// requests) from refreshing with the same (rotating) refresh token; it is waited for
    /// without blocking a thread.
    public func sync(_ store: AppDatabase, days: Int, now: Date) async throws -> Fetched {
        let lock = open(tokensPath + ".lock", O_CREAT | O_RDWR, 0o600)
        defer {
            if lock >= 0 {
                flock(lock, LOCK_UN)
                close(lock)
            }
        }
        if lock >= 0 {
            while flock(lock, LOCK_EX | LOCK_NB) != 0 { try await Task.sleep(for: .milliseconds(50)) }
        }
        guard let tokens = loadTokens() else { throw WhoopError.reconnectNeeded }
        let client = client(tokens)
        let start = now.addingTimeInterval(-Double(days) * 86400)
        let recoveries = try await client.recoveries(start: start, end: now).map(WhoopSyncedRecord.init)
        let sleeps = try await client.sleeps(start: start, end: now).map(WhoopSyncedRecord.init)
        // Cycles and workouts are extra (the briefing reads recovery and sleep): an app
        // registered without their scopes, or a WHOOP without them, still connects.
        let cycles = try await Self.optional { try await client.cycles(start: start, end: now).map(WhoopSyncedRecord.init) }
        let workouts = try await Self.optional { try await client.workouts(start: start, end: now).map(WhoopSyncedRecord.init) }
        try store.saveWhoopRecords((recoveries + sleeps + cycles + workouts).compactMap(Self.input))
        return Fetched(recoveries: recoveries.count, sleeps: sleeps.count, cycles: cycles.count, workouts: workouts.count)
    }

    private static func optional(_ fetch: () async throws -> [WhoopSyncedRecord]) async throws -> [WhoopSyncedRecord] {
        do {
            return try await fetch()
        } catch WhoopError.notFound {
            return []
        } catch WhoopError.authorizationDenied {
            return []
        }
    }

    /// The store's form of a synced record.
    public static func input(_ record: WhoopSyncedRecord) -> WhoopRecordInput? {
        WhoopRecordKind(rawValue: record.kind).map {
            WhoopRecordInput(kind: $0, whoopID: record.whoopID, recordedAt: record.recordedAt, json: record.json)
        }
    }

    /// Revokes access at WHOOP (best effort: offline, the local connection still ends), then
    /// removes the tokens and the pending attempt, and turns every WHOOP record this device
    /// fetched into a tombstone, so the account's other devices forget them too at their next
    /// sync. Returns false when nothing was connected.
    @discardableResult
    public func disconnect(_ store: AppDatabase) async throws -> Bool {
        guard let tokens = loadTokens() else { return false }
        try? await client(tokens).revoke()
        try FileManager.default.removeItem(atPath: tokensPath)
        try? FileManager.default.removeItem(atPath: tokensPath + ".lock")
        try? FileManager.default.removeItem(atPath: pendingPath)
        try store.clearWhoop()
        return true
    }

    /// Why a call to WHOOP failed, for a surface's own words.
    public enum Failure: Sendable {
        /// WHOOP refused the code or the app's credentials.
        case rejected
        case unreachable
        case server
        case rateLimited
        /// The refresh token no longer works.
        case reconnect
        case invalid

        public init(_ error: any Error) {
            self =
                switch error as? WhoopError {
                case .authorizationDenied?: .rejected
                case .unreachable?: .unreachable
                case .server?: .server
                case .rateLimited?: .rateLimited
                case .reconnectNeeded?: .reconnect
                default: .invalid
                }
        }
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8)
        let right = Array(b.utf8)
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// Owner-only files: written to a temporary file created 0600, then renamed over the old one,
/// so a crash leaves the old or the new file, never half of one, never a readable one.
enum PrivateFile {
    static func write(_ data: Data, to path: String) throws {
        let temporary = path + ".tmp-\(getpid())-\(UUID().uuidString)"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary]) }
        let written = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        fsync(descriptor)
        close(descriptor)
        guard written == data.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}

/// The account's WHOOP connection as this device last heard of it, kept beside the database
/// (owner-only) so the briefing knows it without asking the server: a connection through the
/// account was started (`connected` false) or the server said it is connected. Removed on
/// disconnect.
public struct WhoopAccountMark: Codable, Hashable, Sendable {
    public var startedAt: Date
    public var connected: Bool
    /// The address the connection was started with (single use, short lived), so a surface
    /// can offer it again while waiting.
    public var authorizeURL: String?

    public init(startedAt: Date, connected: Bool, authorizeURL: String? = nil) {
        self.startedAt = startedAt
        self.connected = connected
        self.authorizeURL = authorizeURL
    }

    /// Still waiting for the account's WHOOP connection at `now`: confirmed connected, or
    /// started less than the server's state lifetime (10 minutes) ago.
    public func isWaiting(now: Date) -> Bool {
        connected || now.timeIntervalSince(startedAt) < WhoopConnection.attemptLifetime
    }

    public static func path(databasePath: String) -> String { databasePath + ".whoop-account.json" }

    public static func load(databasePath: String) -> WhoopAccountMark? {
        FileManager.default.contents(atPath: path(databasePath: databasePath)).flatMap { try? JSONDecoder.api.decode(Self.self, from: $0) }
    }

    public func save(databasePath: String) throws {
        try PrivateFile.write(try JSONEncoder.api.encode(self), to: Self.path(databasePath: databasePath))
    }

    public static func remove(databasePath: String) {
        try? FileManager.default.removeItem(atPath: path(databasePath: databasePath))
    }
}
