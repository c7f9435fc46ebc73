import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore

/// A local server speaking WHOOP's documented API (OAuth token endpoint, v2 collections with
/// `limit` ≤ 25 and `nextToken`, 401 for unknown tokens), with scripted 429s and 5xx errors.
actor FakeWhoop {
    var validAccess: Set<String> = []
    var validRefresh: Set<String> = []
    var issued = 0
    var refreshes = 0
    var recoveryRequests: [[String: String]] = []
    /// Paths that answer 429 (with this Retry-After) or 500 for the next N calls.
    var throttled: [String: (remaining: Int, retryAfter: String)] = [:]
    var failing: [String: Int] = [:]
    var revoked = false
    let recoveries: [String]

    init(recoveryCount: Int) {
        let base = Date(timeIntervalSince1970: 1_795_000_000)
        recoveries = (0..<recoveryCount).map { index in
            let created = base.addingTimeInterval(Double(-index) * 86400).formatted(.iso8601)
            let scored = index % 10 != 9
            let score = scored ? #","score":{"user_calibrating":false,"recovery_score":\#(40 + index % 50).0,"resting_heart_rate":55.5,"hrv_rmssd_milli":48.25}"# : ""
            return #"{"cycle_id":\#(1000 + index),"sleep_id":"ecfc6a15-4661-442f-a9a4-f160dd7afae\#(index % 10)","user_id":10129,"created_at":"\#(created)","updated_at":"\#(created)","score_state":"\#(scored ? "SCORED" : "PENDING_SCORE")"\#(score)}"#
        }
    }

    func issueTokens() -> String {
        issued += 1
        validAccess.insert("access-\(issued)")
        validRefresh.insert("refresh-\(issued)")
        return #"{"access_token":"access-\#(issued)","expires_in":3600,"refresh_token":"refresh-\#(issued)","scope":"offline read:recovery","token_type":"bearer"}"#
    }

    func token(_ form: [String: String]) -> (HTTPResponse.Status, String) {
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

    func expire(_ access: String) { validAccess.remove(access) }
    func throttle(_ path: String, times: Int, retryAfter: String) { throttled[path] = (times, retryAfter) }
    func fail(_ path: String, times: Int) { failing[path] = times }

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
            let limit = Int(query["limit"] ?? "10") ?? 10
            guard limit <= 25 else { return (.badRequest, [:], "") }
            let offset = Int(query["nextToken"] ?? "0") ?? 0
            let page = recoveries.dropFirst(offset).prefix(limit)
            let next = offset + page.count < recoveries.count ? #","next_token":"\#(offset + page.count)""# : ""
            return (.ok, [:], #"{"records":[\#(page.joined(separator: ","))]\#(next)}"#)
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
    static func serve(_ fake: FakeWhoop, _ body: @Sendable (String) async throws -> Void) async throws {
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
