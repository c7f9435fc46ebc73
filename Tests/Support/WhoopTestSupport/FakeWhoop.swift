import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import WhoopAPI

/// A local server speaking WHOOP's documented API (OAuth authorize and token endpoints, v2 collections with
/// `limit` ≤ 25 and `nextToken`, the by-id reads, 401 for unknown tokens), with scripted 429s and 5xx errors.
/// Refresh tokens rotate as WHOOP's do: each works once, and the old one is refused afterwards.
public actor FakeWhoop {
    public private(set) var validAccess: Set<String> = []
    public private(set) var validRefresh: Set<String> = []
    public private(set) var issued = 0
    public private(set) var refreshes = 0
    /// Refresh grants answered with new tokens (a second refresh with a used token is not counted).
    public var refreshCount: Int { refreshes }
    /// Refresh grants refused (an unknown or already used refresh token).
    public private(set) var refusedRefreshes = 0
    public private(set) var recoveryRequests: [[String: String]] = []
    /// The path of every authorised API request, in order.
    public private(set) var requestedPaths: [String] = []
    /// Paths that answer 429 (with this Retry-After) or 500 for the next N calls.
    public private(set) var throttled: [String: (remaining: Int, retryAfter: String)] = [:]
    public private(set) var failing: [String: Int] = [:]
    public private(set) var revoked = false
    /// The `redirect_uri` of every code exchange (WHOOP requires the authorize request's).
    public private(set) var exchangeRedirects: [String] = []
    /// Whether the next consents are refused (`error=access_denied`).
    public private(set) var refusesConsent = false
    /// The WHOOP user the next tokens belong to (the profile's `user_id`).
    public private(set) var userID: Int64 = 10129
    private var users: [String: Int64] = [:]
    /// Each kind's records, newest first: WHOOP's id and the JSON object WHOOP would send.
    private var records: [String: [(id: String, json: String)]] = [:]

    /// `recoveryCount` days of data ending at `base`: each day a cycle, its sleep, its recovery
    /// (every tenth one not scored yet) and a workout.
    public init(recoveryCount: Int, base: Date = Date(timeIntervalSince1970: 1_795_000_000)) {
        let days = 0..<recoveryCount
        records[Kind.recovery] = days.map { index in
            let scored = index % 10 != 9
            return (
                String(1000 + index),
                Self.recoveryJSON(
                    cycleID: 1000 + Int64(index),
                    sleepID: Self.sleepID(index),
                    createdAt: base.addingTimeInterval(Double(-index) * 86400),
                    score: scored ? Double(40 + index % 50) : nil
                )
            )
        }
        records[Kind.sleep] = days.map { index in
            let end = base.addingTimeInterval(Double(-index) * 86400 - 1800)
            return (
                Self.sleepID(index),
                Self.sleepJSON(id: Self.sleepID(index), cycleID: 1000 + Int64(index), start: end.addingTimeInterval(-6.4 * 3600), end: end)
            )
        }
        records[Kind.cycle] = days.map { index in
            let start = base.addingTimeInterval(Double(-index) * 86400 - 1800 - 6.4 * 3600)
            return (
                String(1000 + index), Self.cycleJSON(id: 1000 + Int64(index), start: start, end: index == 0 ? nil : start.addingTimeInterval(86400))
            )
        }
        records[Kind.workout] = days.map { index in
            let id = "b0b0b0b0-0000-4000-8000-\(String(format: "%012d", index))"
            let start = base.addingTimeInterval(Double(-index) * 86400 + 4 * 3600)
            return (id, Self.workoutJSON(id: id, start: start, end: start.addingTimeInterval(3600)))
        }
    }

    static func sleepID(_ index: Int) -> String { "a1b2c3d4-0000-4000-8000-\(String(format: "%012d", index))" }

    private func page(_ records: [(id: String, json: String)], query: [String: String]) -> (HTTPResponse.Status, [String: String], String) {
        let limit = Int(query["limit"] ?? "10") ?? 10
        guard limit <= 25 else { return (.badRequest, [:], "") }
        let offset = Int(query["nextToken"] ?? "0") ?? 0
        let page = records.dropFirst(offset).prefix(limit)
        let next = offset + page.count < records.count ? #","next_token":"\#(offset + page.count)""# : ""
        return (.ok, [:], #"{"records":[\#(page.map(\.json).joined(separator: ","))]\#(next)}"#)
    }

    func issueTokens(for user: Int64) -> String {
        issued += 1
        validAccess.insert("access-\(issued)")
        validRefresh.insert("refresh-\(issued)")
        users["access-\(issued)"] = user
        users["refresh-\(issued)"] = user
        return
            #"{"access_token":"access-\#(issued)","expires_in":3600,"refresh_token":"refresh-\#(issued)","scope":"offline read:recovery","token_type":"bearer"}"#
    }

    func token(_ form: [String: String]) -> (HTTPResponse.Status, String) {
        if let remaining = failing["/oauth/oauth2/token"], remaining > 0 {
            failing["/oauth/oauth2/token"] = remaining - 1
            return (.serviceUnavailable, "")
        }
        if form["grant_type"] == "authorization_code" { exchangeRedirects.append(form["redirect_uri"] ?? "") }
        switch form["grant_type"] {
        case "authorization_code" where form["code"] == "good-code" && form["client_secret"] == "secret":
            return (.ok, issueTokens(for: userID))
        case "refresh_token":
            // Rotation: the refresh token is spent by this grant, so a second use is refused.
            guard let refresh = form["refresh_token"], validRefresh.remove(refresh) != nil, form["client_secret"] == "secret" else {
                refusedRefreshes += 1
                return (.badRequest, #"{"error":"invalid_grant"}"#)
            }
            refreshes += 1
            return (.ok, issueTokens(for: users[refresh] ?? userID))
        default:
            return (.badRequest, #"{"error":"invalid_request"}"#)
        }
    }

    /// The WHOOP user the tokens issued from now on belong to.
    public func setUser(_ id: Int64) { userID = id }

    public func expire(_ access: String) { validAccess.remove(access) }
    public func refuseConsent(_ refuse: Bool) { refusesConsent = refuse }

    /// The user's answer on WHOOP's consent page: back to `redirect_uri` with the code (or the
    /// refusal) and the state, as WHOOP's OAuth documentation describes.
    func authorize(_ query: [String: String]) -> (HTTPResponse.Status, String?) {
        guard query["response_type"] == "code", query["client_id"] != nil, let redirect = query["redirect_uri"],
            var components = URLComponents(string: redirect), let state = query["state"], state.count >= 8
        else {
            return (.badRequest, nil)
        }
        components.queryItems =
            (components.queryItems ?? [])
            + (refusesConsent
                ? [
                    URLQueryItem(name: "error", value: "access_denied"),
                    URLQueryItem(name: "error_description", value: "The user denied the request"),
                    URLQueryItem(name: "state", value: state),
                ]
                : [URLQueryItem(name: "code", value: "good-code"), URLQueryItem(name: "state", value: state)])
        return (.found, components.url?.absoluteString)
    }
    public func throttle(_ path: String, times: Int, retryAfter: String) { throttled[path] = (times, retryAfter) }
    public func fail(_ path: String, times: Int) { failing[path] = times }

    func api(path: String, query: [String: String], authorization: String?) -> (HTTPResponse.Status, [String: String], String) {
        guard let authorization, authorization.hasPrefix("Bearer "), validAccess.contains(String(authorization.dropFirst(7))) else {
            return (.unauthorized, [:], "")
        }
        requestedPaths.append(path)
        if let (remaining, retryAfter) = throttled[path], remaining > 0 {
            throttled[path] = (remaining - 1, retryAfter)
            return (.tooManyRequests, ["Retry-After": retryAfter], "")
        }
        if let remaining = failing[path], remaining > 0 {
            failing[path] = remaining - 1
            return (.internalServerError, [:], "")
        }
        let user = users[String(authorization.dropFirst(7))] ?? userID
        switch path {
        case "/developer/v2/recovery":
            recoveryRequests.append(query)
            return page(records[Kind.recovery] ?? [], query: query)
        case "/developer/v2/activity/sleep": return page(records[Kind.sleep] ?? [], query: query)
        case "/developer/v2/cycle": return page(records[Kind.cycle] ?? [], query: query)
        case "/developer/v2/activity/workout": return page(records[Kind.workout] ?? [], query: query)
        case "/developer/v2/user/profile/basic":
            return (.ok, [:], #"{"user_id":\#(user),"email":"jsmith123@whoop.com","first_name":"John","last_name":"Smith"}"#)
        case "/developer/v2/user/measurement/body":
            return (.ok, [:], #"{"height_meter":1.8288,"weight_kilogram":90.7185,"max_heart_rate":200}"#)
        case "/developer/v2/user/access":
            revoked = true
            return (.noContent, [:], "")
        default:
            guard let json = byID(path) else { return (.notFound, [:], "") }
            return (.ok, [:], json)
        }
    }

    /// `/v2/cycle/{id}`, `/v2/cycle/{id}/recovery`, `/v2/cycle/{id}/sleep`,
    /// `/v2/activity/sleep/{id}`, `/v2/activity/workout/{id}`.
    private func byID(_ path: String) -> String? {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 4, parts[0] == "developer", parts[1] == "v2" else { return nil }
        switch (parts[2], parts.count) {
        case ("cycle", 4): return record(Kind.cycle, id: parts[3])
        case ("cycle", 5) where parts[4] == "recovery": return record(Kind.recovery, id: parts[3])
        case ("cycle", 5) where parts[4] == "sleep":
            return records[Kind.sleep]?.first { Self.field("cycle_id", of: $0.json) == parts[3] }?.json
        case ("activity", 5) where parts[3] == "sleep": return record(Kind.sleep, id: parts[4])
        case ("activity", 5) where parts[3] == "workout": return record(Kind.workout, id: parts[4])
        default: return nil
        }
    }

    private func record(_ kind: String, id: String) -> String? {
        records[kind]?.first { $0.id == id }?.json
    }

    // MARK: Records

    /// The kinds of records, as the sync rows name them.
    public enum Kind {
        public static let recovery = "recovery", sleep = "sleep", cycle = "cycle", workout = "workout"
    }

    public struct InvalidRecord: Error, CustomStringConvertible {
        public let description: String
    }

    /// Replaces the records of every kind given (JSON objects as WHOOP sends them, newest
    /// first; a kind left nil keeps its records).
    public func setRecords(recoveries: [String]? = nil, sleeps: [String]? = nil, cycles: [String]? = nil, workouts: [String]? = nil) throws {
        for (kind, list) in [(Kind.recovery, recoveries), (Kind.sleep, sleeps), (Kind.cycle, cycles), (Kind.workout, workouts)] {
            guard let list else { continue }
            records[kind] = try list.map { (try Self.id(of: $0, kind: kind), $0) }
        }
    }

    /// Adds a record, or replaces the one with its id (as WHOOP does before an `*.updated` webhook).
    public func upsert(_ kind: String, json: String) throws {
        let id = try Self.id(of: json, kind: kind)
        var list = records[kind] ?? []
        if let index = list.firstIndex(where: { $0.id == id }) { list[index].json = json } else { list.insert((id, json), at: 0) }
        records[kind] = list
    }

    /// Deletes a record (as WHOOP does before a `*.deleted` webhook).
    public func remove(_ kind: String, id: String) {
        records[kind]?.removeAll { $0.id == id }
    }

    /// The JSON objects of a kind, newest first.
    public func records(_ kind: String) -> [String] { (records[kind] ?? []).map(\.json) }

    /// WHOOP's id of a record: a recovery's `cycle_id`, the others' `id`.
    static func id(of json: String, kind: String) throws -> String {
        guard let id = field(kind == Kind.recovery ? "cycle_id" : "id", of: json) else {
            throw InvalidRecord(description: "a \(kind) record without its id: \(json.prefix(200))")
        }
        return id
    }

    static func field(_ name: String, of json: String) -> String? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else { return nil }
        switch object[name] {
        case let text as String: return text
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }

    /// Serves the fake on a loopback port for the duration of `body`.
    public static func serve(_ fake: FakeWhoop, _ body: @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        router.post("/oauth/oauth2/token") { request, context -> Response in
            let buffer = try await request.body.collect(upTo: 1 << 16)
            var form: [String: String] = [:]
            for pair in String(buffer: buffer).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
                if parts.count == 2 { form[parts[0]] = parts[1] }
            }
            let (status, json) = await fake.token(form)
            return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
        }
        router.get("/oauth/oauth2/auth") { request, _ -> Response in
            var query: [String: String] = [:]
            for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
            let (status, location) = await fake.authorize(query)
            return Response(status: status, headers: location.map { [.location: $0] } ?? [:])
        }
        let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            var query: [String: String] = [:]
            for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
            let (status, headers, json) = await fake.api(path: request.uri.path, query: query, authorization: request.headers[.authorization])
            var fields: HTTPFields = [.contentType: "application/json"]
            if let retryAfter = headers["Retry-After"] { fields[.retryAfter] = retryAfter }
            return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: json)))
        }
        router.get("/developer/**", use: handler)
        router.delete("/developer/**", use: handler)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            guard let port = client.port else { return }
            try await body("http://127.0.0.1:\(port)")
        }
    }
}

// MARK: Records as WHOOP sends them, and webhooks as WHOOP posts them

extension FakeWhoop {
    static func instant(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) }

    /// A v2 recovery; scored when `score` is given.
    public static func recoveryJSON(cycleID: Int64, sleepID: String, userID: Int64 = 10129, createdAt: Date, score: Double?) -> String {
        let scored =
            score.map { #","score":{"user_calibrating":false,"recovery_score":\#($0),"resting_heart_rate":55.5,"hrv_rmssd_milli":48.25}"# } ?? ""
        return
            #"{"cycle_id":\#(cycleID),"sleep_id":"\#(sleepID)","user_id":\#(userID),"created_at":"\#(instant(createdAt))","updated_at":"\#(instant(createdAt))","score_state":"\#(score == nil ? "PENDING_SCORE" : "SCORED")"\#(scored)}"#
    }

    /// A scored v2 sleep: 5.5 h asleep (3 h light, 1.25 h deep, 1.25 h REM), 86 % efficiency, 8.1 h needed.
    public static func sleepJSON(id: String, cycleID: Int64, userID: Int64 = 10129, start: Date, end: Date) -> String {
        #"{"id":"\#(id)","cycle_id":\#(cycleID),"user_id":\#(userID),"created_at":"\#(instant(end))","updated_at":"\#(instant(end))","start":"\#(instant(start))","end":"\#(instant(end))","timezone_offset":"+01:00","nap":false,"score_state":"SCORED","score":{"stage_summary":{"total_in_bed_time_milli":23040000,"total_awake_time_milli":3240000,"total_no_data_time_milli":0,"total_light_sleep_time_milli":10800000,"total_slow_wave_sleep_time_milli":4500000,"total_rem_sleep_time_milli":4500000,"sleep_cycle_count":4,"disturbance_count":9},"sleep_needed":{"baseline_milli":29160000,"need_from_sleep_debt_milli":0,"need_from_recent_strain_milli":0,"need_from_recent_nap_milli":0},"respiratory_rate":15.5,"sleep_performance_percentage":68,"sleep_consistency_percentage":80,"sleep_efficiency_percentage":86}}"#
    }

    /// A scored v2 cycle; without `end` while it is still running.
    public static func cycleJSON(id: Int64, userID: Int64 = 10129, start: Date, end: Date?, strain: Double = 12.5) -> String {
        let ending = end.map { #","end":"\#(instant($0))""# } ?? ""
        return
            #"{"id":\#(id),"user_id":\#(userID),"created_at":"\#(instant(start))","updated_at":"\#(instant(start))","start":"\#(instant(start))"\#(ending),"timezone_offset":"+01:00","score_state":"SCORED","score":{"strain":\#(strain),"kilojoule":8288.297,"average_heart_rate":68,"max_heart_rate":141}}"#
    }

    /// A scored v2 workout.
    public static func workoutJSON(
        id: String,
        userID: Int64 = 10129,
        start: Date,
        end: Date,
        sport: String = "running",
        strain: Double = 8.25
    ) -> String {
        #"{"id":"\#(id)","user_id":\#(userID),"created_at":"\#(instant(end))","updated_at":"\#(instant(end))","start":"\#(instant(start))","end":"\#(instant(end))","timezone_offset":"+01:00","sport_name":"\#(sport)","score_state":"SCORED","score":{"strain":\#(strain),"average_heart_rate":123,"max_heart_rate":146,"kilojoule":1569.34,"percent_recorded":100,"distance_meter":1772.77,"zone_durations":{"zone_zero_milli":300000,"zone_one_milli":600000,"zone_two_milli":900000,"zone_three_milli":900000,"zone_four_milli":600000,"zone_five_milli":300000}}}"#
    }

    /// What WHOOP would POST to a webhook URL: the v2 body (`id` is a UUID; for `recovery.*`
    /// the UUID of the recovery's sleep) and the `X-WHOOP-Signature` (base64 HMAC-SHA256 with
    /// the client secret over the timestamp followed by the body) and its timestamp in ms.
    public static func signedWebhook(
        type: String,
        id: String,
        userID: Int64 = 10129,
        secret: String,
        timestamp: Date = Date(),
        traceID: String = UUID().uuidString
    ) -> (headers: HTTPFields, body: ByteBuffer) {
        let body = #"{"user_id":\#(userID),"id":"\#(id)","type":"\#(type)","trace_id":"\#(traceID)"}"#
        let milliseconds = String(Int64((timestamp.timeIntervalSince1970 * 1000).rounded()))
        let signature = WhoopWebhookVerifier.signature(timestamp: milliseconds, body: Array(body.utf8), clientSecret: secret)
        var headers: HTTPFields = [.contentType: "application/json"]
        for (name, value) in [("X-WHOOP-Signature", signature), ("X-WHOOP-Signature-Timestamp", milliseconds)] {
            if let name = HTTPField.Name(name) { headers[name] = value }
        }
        return (headers, ByteBuffer(string: body))
    }
}
