import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore

/// A local server speaking WHOOP's documented API (OAuth authorize and token endpoints, v2 collections with
/// `limit` ≤ 25 and `nextToken`, 401 for unknown tokens), with scripted 429s and 5xx errors.
public actor FakeWhoop {
    public private(set) var validAccess: Set<String> = []
    public private(set) var validRefresh: Set<String> = []
    public private(set) var issued = 0
    public private(set) var refreshes = 0
    public private(set) var recoveryRequests: [[String: String]] = []
    /// Paths that answer 429 (with this Retry-After) or 500 for the next N calls.
    public private(set) var throttled: [String: (remaining: Int, retryAfter: String)] = [:]
    public private(set) var failing: [String: Int] = [:]
    public private(set) var revoked = false
    /// The `redirect_uri` of every code exchange (WHOOP requires the authorize request's).
    public private(set) var exchangeRedirects: [String] = []
    /// Whether the next consents are refused (`error=access_denied`).
    public private(set) var refusesConsent = false
    let recoveries: [String]
    let sleeps: [String]

    public init(recoveryCount: Int, base: Date = Date(timeIntervalSince1970: 1_795_000_000)) {
        recoveries = (0..<recoveryCount).map { index in
            let created = base.addingTimeInterval(Double(-index) * 86400).formatted(.iso8601)
            let scored = index % 10 != 9
            let score = scored ? #","score":{"user_calibrating":false,"recovery_score":\#(40 + index % 50).0,"resting_heart_rate":55.5,"hrv_rmssd_milli":48.25}"# : ""
            return #"{"cycle_id":\#(1000 + index),"sleep_id":"ecfc6a15-4661-442f-a9a4-f160dd7afae\#(index % 10)","user_id":10129,"created_at":"\#(created)","updated_at":"\#(created)","score_state":"\#(scored ? "SCORED" : "PENDING_SCORE")"\#(score)}"#
        }
        // Each night: 5.5 h asleep (3 h light, 1.25 h deep, 1.25 h REM), 86 % efficiency, 8.1 h needed.
        sleeps = (0..<recoveryCount).map { index in
            let end = base.addingTimeInterval(Double(-index) * 86400 - 1800)
            let start = end.addingTimeInterval(-6.4 * 3600)
            let format = Date.ISO8601FormatStyle()
            return #"{"id":"a1b2c3d4-0000-4000-8000-\#(String(format: "%012d", index))","cycle_id":\#(1000 + index),"user_id":10129,"created_at":"\#(end.formatted(format))","updated_at":"\#(end.formatted(format))","start":"\#(start.formatted(format))","end":"\#(end.formatted(format))","timezone_offset":"+01:00","nap":false,"score_state":"SCORED","score":{"stage_summary":{"total_in_bed_time_milli":23040000,"total_awake_time_milli":3240000,"total_no_data_time_milli":0,"total_light_sleep_time_milli":10800000,"total_slow_wave_sleep_time_milli":4500000,"total_rem_sleep_time_milli":4500000,"sleep_cycle_count":4,"disturbance_count":9},"sleep_needed":{"baseline_milli":29160000,"need_from_sleep_debt_milli":0,"need_from_recent_strain_milli":0,"need_from_recent_nap_milli":0},"respiratory_rate":15.5,"sleep_performance_percentage":68,"sleep_consistency_percentage":80,"sleep_efficiency_percentage":86}}"#
        }
    }

    private func page(_ records: [String], query: [String: String]) -> (HTTPResponse.Status, [String: String], String) {
        let limit = Int(query["limit"] ?? "10") ?? 10
        guard limit <= 25 else { return (.badRequest, [:], "") }
        let offset = Int(query["nextToken"] ?? "0") ?? 0
        let page = records.dropFirst(offset).prefix(limit)
        let next = offset + page.count < records.count ? #","next_token":"\#(offset + page.count)""# : ""
        return (.ok, [:], #"{"records":[\#(page.joined(separator: ","))]\#(next)}"#)
    }

    func issueTokens() -> String {
        issued += 1
        validAccess.insert("access-\(issued)")
        validRefresh.insert("refresh-\(issued)")
        return #"{"access_token":"access-\#(issued)","expires_in":3600,"refresh_token":"refresh-\#(issued)","scope":"offline read:recovery","token_type":"bearer"}"#
    }

    func token(_ form: [String: String]) -> (HTTPResponse.Status, String) {
        if let remaining = failing["/oauth/oauth2/token"], remaining > 0 {
            failing["/oauth/oauth2/token"] = remaining - 1
            return (.serviceUnavailable, "")
        }
        if form["grant_type"] == "authorization_code" { exchangeRedirects.append(form["redirect_uri"] ?? "") }
        switch form["grant_type"] {
        case "authorization_code" where form["code"] == "good-code" && form["client_secret"] == "secret":
            return (.ok, issueTokens())
        case "refresh_token":
            guard let refresh = form["refresh_token"], validRefresh.remove(refresh) != nil, form["client_secret"] == "secret" else {
                return (.badRequest, #"{"error":"invalid_grant"}"#)
            }
            refreshes += 1
            return (.ok, issueTokens())
        default:
            return (.badRequest, #"{"error":"invalid_request"}"#)
        }
    }

    public func expire(_ access: String) { validAccess.remove(access) }
    public func refuseConsent(_ refuse: Bool) { refusesConsent = refuse }

    /// The user's answer on WHOOP's consent page: back to `redirect_uri` with the code (or the
    /// refusal) and the state, as WHOOP's OAuth documentation describes.
    func authorize(_ query: [String: String]) -> (HTTPResponse.Status, String?) {
        guard query["response_type"] == "code", query["client_id"] != nil, let redirect = query["redirect_uri"],
              var components = URLComponents(string: redirect), let state = query["state"], state.count >= 8 else {
            return (.badRequest, nil)
        }
        components.queryItems = (components.queryItems ?? []) + (refusesConsent
            ? [URLQueryItem(name: "error", value: "access_denied"), URLQueryItem(name: "error_description", value: "The user denied the request"),
               URLQueryItem(name: "state", value: state)]
            : [URLQueryItem(name: "code", value: "good-code"), URLQueryItem(name: "state", value: state)])
        return (.found, components.url?.absoluteString)
    }
    public func throttle(_ path: String, times: Int, retryAfter: String) { throttled[path] = (times, retryAfter) }
    public func fail(_ path: String, times: Int) { failing[path] = times }

    func api(path: String, query: [String: String], authorization: String?) -> (HTTPResponse.Status, [String: String], String) {
        guard let authorization, authorization.hasPrefix("Bearer "), validAccess.contains(String(authorization.dropFirst(7))) else {
            return (.unauthorized, [:], "")
        }
        if let (remaining, retryAfter) = throttled[path], remaining > 0 {
            throttled[path] = (remaining - 1, retryAfter)
            return (.tooManyRequests, ["Retry-After": retryAfter], "")
        }
        if let remaining = failing[path], remaining > 0 {
            failing[path] = remaining - 1
            return (.internalServerError, [:], "")
        }
        switch path {
        case "/developer/v2/recovery":
            recoveryRequests.append(query)
            return page(recoveries, query: query)
        case "/developer/v2/activity/sleep":
            return page(sleeps, query: query)
        case "/developer/v2/user/profile/basic":
            return (.ok, [:], #"{"user_id":10129,"email":"jsmith123@whoop.com","first_name":"John","last_name":"Smith"}"#)
        case "/developer/v2/user/access":
            revoked = true
            return (.noContent, [:], "")
        default:
            return (.notFound, [:], "")
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
