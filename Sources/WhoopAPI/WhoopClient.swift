import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One user's WHOOP connection. An actor, so the refreshes of this user are serialised: WHOOP
/// rotates refresh tokens, and two refreshes with the same token would end the connection.
public actor WhoopClient {
    public let configuration: WhoopConfiguration
    public private(set) var tokens: WhoopTokens
    private let http: HTTPClient
    /// Called with every new token pair before it is used, so a crash cannot lose it.
    private let saveTokens: @Sendable (WhoopTokens) async throws -> Void
    private let now: @Sendable () -> Date
    private let sleep: @Sendable (Double) async throws -> Void
    /// The longest wait for a 429 before giving up.
    public var maxRateLimitWait: Double = 60
    public var serverErrorRetries = 3

    public init(
        configuration: WhoopConfiguration,
        tokens: WhoopTokens,
        http: HTTPClient = .shared,
        saveTokens: @escaping @Sendable (WhoopTokens) async throws -> Void,
        now: @escaping @Sendable () -> Date = Date.init,
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(nanoseconds: UInt64($0 * 1e9)) }
    ) {
        self.configuration = configuration
        self.tokens = tokens
        self.http = http
        self.saveTokens = saveTokens
        self.now = now
        self.sleep = sleep
    }

    // MARK: OAuth

    /// Exchanges the authorization code for the first tokens.
    public static func exchange(
        code: String,
        configuration: WhoopConfiguration,
        http: HTTPClient = .shared,
        now: Date = Date()
    ) async throws -> WhoopTokens {
        try await tokenRequest(
            [
                ("grant_type", "authorization_code"), ("code", code), ("client_id", configuration.clientID),
                ("client_secret", configuration.clientSecret), ("redirect_uri", configuration.redirectURI),
            ],
            configuration: configuration,
            http: http,
            now: now,
            previousRefresh: nil
        )
    }

    private var refreshing: Task<Void, any Error>?

    /// Gets a new access token with the refresh token (which WHOOP replaces with a new one).
    /// Callers arriving while a refresh runs wait for it instead of sending the same refresh
    /// token again (the actor alone would interleave them at the network call).
    public func refresh() async throws {
        if let refreshing {
            try await refreshing.value
            return
        }
        let task = Task { try await self.performRefresh() }
        refreshing = task
        defer { refreshing = nil }
        try await task.value
    }

    private func performRefresh() async throws {
        guard let refreshToken = tokens.refreshToken else { throw WhoopError.reconnectNeeded }
        let fresh = try await Self.tokenRequest(
            [
                ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", configuration.clientID),
                ("client_secret", configuration.clientSecret), ("scope", "offline"),
            ],
            configuration: configuration,
            http: http,
            now: now(),
            previousRefresh: refreshToken
        )
        try await saveTokens(fresh)
        tokens = fresh
    }

    /// Ends the connection at WHOOP.
    public func revoke() async throws {
        _ = try await send(.DELETE, "/v2/user/access", query: [])
    }

    private static func tokenRequest(
        _ fields: [(String, String)],
        configuration: WhoopConfiguration,
        http: HTTPClient,
        now: Date,
        previousRefresh: String?
    ) async throws -> WhoopTokens {
        var request = HTTPClientRequest(url: configuration.oauthBase + "/token")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: WhoopOAuth.form(fields)))
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: .seconds(20))
        } catch {
            throw WhoopError.unreachable
        }
        let body = try await response.body.collect(upTo: 1 << 20)
        switch response.status.code {
        case 200:
            struct TokenBody: Decodable {
                let access_token: String
                let expires_in: Int
                let refresh_token: String?
                let scope: String?
            }
            guard let decoded = try? JSONDecoder().decode(TokenBody.self, from: Data(body.readableBytesView)) else {
                throw WhoopError.invalidResponse("the token response is not valid")
            }
            return WhoopTokens(
                accessToken: decoded.access_token,
                refreshToken: decoded.refresh_token ?? previousRefresh,
                expiresAt: now.addingTimeInterval(TimeInterval(decoded.expires_in)),
                scope: decoded.scope ?? ""
            )
        case 400, 401:
            throw previousRefresh == nil ? WhoopError.authorizationDenied("the code was refused") : WhoopError.reconnectNeeded
        default:
            throw WhoopError.server(status: Int(response.status.code))
        }
    }

    // MARK: Data

    public func recoveries(start: Date? = nil, end: Date? = nil) async throws -> [WhoopRecovery] {
        try await collection("/v2/recovery", start: start, end: end)
    }

    public func sleeps(start: Date? = nil, end: Date? = nil) async throws -> [WhoopSleep] {
        try await collection("/v2/activity/sleep", start: start, end: end)
    }

    public func cycles(start: Date? = nil, end: Date? = nil) async throws -> [WhoopCycle] {
        try await collection("/v2/cycle", start: start, end: end)
    }

    public func workouts(start: Date? = nil, end: Date? = nil) async throws -> [WhoopWorkout] {
        try await collection("/v2/activity/workout", start: start, end: end)
    }

    public func profile() async throws -> WhoopProfile {
        try Self.decode(WhoopProfile.self, try await send(.GET, "/v2/user/profile/basic", query: []))
    }

    public func bodyMeasurement() async throws -> WhoopBodyMeasurement {
        try Self.decode(WhoopBodyMeasurement.self, try await send(.GET, "/v2/user/measurement/body", query: []))
    }

    /// One cycle by its id (`GET /v2/cycle/{cycleId}`); `WhoopError.notFound` when WHOOP has none.
    public func cycle(id: Int64) async throws -> WhoopCycle {
        try Self.decode(WhoopCycle.self, try await send(.GET, "/v2/cycle/\(id)", query: []))
    }

    /// The recovery of a cycle (`GET /v2/cycle/{cycleId}/recovery`).
    public func recovery(cycleID: Int64) async throws -> WhoopRecovery {
        try Self.decode(WhoopRecovery.self, try await send(.GET, "/v2/cycle/\(cycleID)/recovery", query: []))
    }

    /// The recovery scored after a sleep: v2 webhooks name a recovery by its sleep's UUID, and
    /// WHOOP offers recoveries by cycle only, so this reads the sleep for its cycle first.
    public func recovery(sleepID: String) async throws -> WhoopRecovery {
        try await recovery(cycleID: try await sleep(id: sleepID).cycleID)
    }

    /// One sleep by its UUID (`GET /v2/activity/sleep/{sleepId}`).
    public func sleep(id: String) async throws -> WhoopSleep {
        try Self.decode(WhoopSleep.self, try await send(.GET, "/v2/activity/sleep/\(try Self.pathSegment(id))", query: []))
    }

    /// One workout by its UUID (`GET /v2/activity/workout/{workoutId}`).
    public func workout(id: String) async throws -> WhoopWorkout {
        try Self.decode(WhoopWorkout.self, try await send(.GET, "/v2/activity/workout/\(try Self.pathSegment(id))", query: []))
    }

    /// An id that can stand in a path as it is: WHOOP's v2 ids are UUIDs, and an id from a
    /// webhook body must not reach another path (`../user/access`).
    static func pathSegment(_ id: String) throws(WhoopError) -> String {
        let allowed = Set("0123456789abcdefABCDEF-")
        guard (1...64).contains(id.count), id.allSatisfy({ allowed.contains($0) }) else { throw .notFound }
        return id
    }

    /// Every page of a collection (25 records a page, WHOOP's maximum).
    private func collection<Record: Decodable & Sendable>(_ path: String, start: Date?, end: Date?) async throws -> [Record] {
        var query: [(String, String)] = [("limit", "25")]
        let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        if let start { query.append(("start", start.formatted(format))) }
        if let end { query.append(("end", end.formatted(format))) }
        var records: [Record] = []
        var next: String?
        for _ in 0..<400 {
            let page = try Self.decode(WhoopPage<Record>.self, try await send(.GET, path, query: query + (next.map { [("nextToken", $0)] } ?? [])))
            records += page.records
            guard let token = page.nextToken, !token.isEmpty, token != next else { return records }
            next = token
        }
        return records
    }

    /// One request with the current access token: refreshed ahead of expiry and once on 401;
    /// 429 waits Retry-After (or the rate-limit reset) when short enough; 5xx retries with backoff.
    private func send(_ method: HTTPMethod, _ path: String, query: [(String, String)]) async throws -> ByteBuffer {
        if tokens.expiresAt < now().addingTimeInterval(60) { try await refresh() }
        var refreshed = false
        var serverErrors = 0
        while true {
            var components = URLComponents(string: configuration.apiBase + path)
            if !query.isEmpty { components?.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
            guard let url = components?.url?.absoluteString else { throw WhoopError.invalidResponse("bad path \(path)") }
            var request = HTTPClientRequest(url: url)
            request.method = method
            let usedToken = tokens.accessToken
            request.headers.add(name: "Authorization", value: "Bearer \(usedToken)")
            let response: HTTPClientResponse
            do {
                response = try await http.execute(request, timeout: .seconds(30))
            } catch {
                throw WhoopError.unreachable
            }
            let body = try await response.body.collect(upTo: 16 << 20)
            switch response.status.code {
            case 200..<300:
                return body
            case 401 where !refreshed:
                refreshed = true
                // Another call may have refreshed meanwhile: only refresh if the token is the one refused.
                if tokens.accessToken == usedToken { try await refresh() }
            case 401:
                throw WhoopError.reconnectNeeded
            case 404:
                throw WhoopError.notFound
            case 429:
                let wait = Self.retryAfter(response.headers)
                guard wait <= maxRateLimitWait else { throw WhoopError.rateLimited(retryAfter: Int(wait.rounded(.up))) }
                try await sleep(wait)
            case 500...:
                serverErrors += 1
                guard serverErrors <= serverErrorRetries else { throw WhoopError.server(status: Int(response.status.code)) }
                try await sleep(Double.random(in: 0...min(8, 0.5 * pow(2, Double(serverErrors)))))
            default:
                throw WhoopError.server(status: Int(response.status.code))
            }
        }
    }

    /// Seconds to wait: `Retry-After`, else `X-RateLimit-Reset`, else a minute.
    static func retryAfter(_ headers: HTTPHeaders) -> Double {
        for name in ["Retry-After", "X-RateLimit-Reset"] {
            if let value = headers.first(name: name).flatMap(Double.init), value >= 0 { return value }
        }
        return 60
    }

    static func decode<T: Decodable>(_ type: T.Type, _ body: ByteBuffer) throws -> T {
        do {
            return try JSONDecoder.whoop.decode(T.self, from: Data(body.readableBytesView))
        } catch {
            throw WhoopError.invalidResponse("\(T.self): \(error)")
        }
    }
}
