import AsyncHTTPClient
import Foundation
import ReadyDay
import Testing
import WhoopTestSupport

@testable import WhoopAPI

/// Records saved tokens and waits, for assertions.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var _saved: [WhoopTokens] = []
    private var _waits: [Double] = []

    var saved: [WhoopTokens] { lock.withLock { _saved } }
    var waits: [Double] { lock.withLock { _waits } }

    func save(_ tokens: WhoopTokens) { lock.withLock { _saved.append(tokens) } }
    func wait(_ seconds: Double) { lock.withLock { _waits.append(seconds) } }
}

@Suite("WHOOP client against a local fake server")
struct WhoopClientTests {
    static func configuration(_ base: String) -> WhoopConfiguration {
        WhoopConfiguration(
            clientID: "client",
            clientSecret: "secret",
            redirectURI: "http://127.0.0.1:8765/whoop/callback",
            apiBase: base + "/developer",
            oauthBase: base + "/oauth/oauth2"
        )
    }

    static func client(_ base: String, tokens: WhoopTokens, recorder: Recorder) -> WhoopClient {
        WhoopClient(
            configuration: configuration(base),
            tokens: tokens,
            saveTokens: { recorder.save($0) },
            sleep: { recorder.wait($0) }
        )
    }

    @Test("the authorize URL carries the client, redirect, scopes and a random state of 8+ characters; the redirect is checked")
    func authorizeURL() throws {
        let configuration = Self.configuration("https://api.prod.whoop.com")
        let state = WhoopOAuth.makeState()
        #expect(state.count >= 8 && state != WhoopOAuth.makeState())
        let url = try #require(WhoopOAuth.authorizeURL(configuration, state: state))
        let items = Dictionary(
            uniqueKeysWithValues: (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }
        )
        #expect(url.absoluteString.hasPrefix("https://api.prod.whoop.com/oauth/oauth2/auth?"))
        #expect(items["response_type"] == "code" && items["client_id"] == "client" && items["state"] == state)
        #expect(items["scope"]?.contains("offline") == true && items["scope"]?.contains("read:recovery") == true)
        #expect(WhoopOAuth.authorizeURL(configuration, state: "short") == nil)

        #expect(try WhoopOAuth.code(fromRedirect: "http://127.0.0.1:8765/whoop/callback?code=abc&state=\(state)", expectedState: state) == "abc")
        #expect(throws: WhoopError.invalidRedirect("its state does not match this connection attempt")) {
            try WhoopOAuth.code(fromRedirect: "http://127.0.0.1:8765/whoop/callback?code=abc&state=other", expectedState: state)
        }
        #expect(throws: WhoopError.authorizationDenied("The user denied access")) {
            try WhoopOAuth.code(
                fromRedirect: "http://x/cb?error=access_denied&error_description=The%20user%20denied%20access&state=\(state)",
                expectedState: state
            )
        }
    }

    @Test("code exchange, then every page of recoveries (25 at a time) with start and end, mapped to ReadyDay")
    func exchangeAndPaginate() async throws {
        let fake = FakeWhoop(recoveryCount: 60)
        try await FakeWhoop.serve(fake) { base in
            let tokens = try await WhoopClient.exchange(code: "good-code", configuration: Self.configuration(base))
            #expect(tokens.refreshToken == "refresh-1")
            await #expect(throws: WhoopError.self) { try await WhoopClient.exchange(code: "bad", configuration: Self.configuration(base)) }
            let client = Self.client(base, tokens: tokens, recorder: Recorder())
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            let recoveries = try await client.recoveries(start: start, end: start.addingTimeInterval(90 * 86400))
            #expect(recoveries.count == 60)
            let requests = await fake.recoveryRequests
            #expect(requests.count == 3)
            #expect(requests.allSatisfy { $0["limit"] == "25" && $0["start"]?.hasPrefix("2026-09-21T") == true && $0["end"] != nil })
            #expect(requests.map { $0["nextToken"] } == [nil, "25", "50"])
            #expect(recoveries[0].domain.score == 40)
            #expect(recoveries[9].scoreState == .pendingScore && recoveries[9].domain.score == nil)
            #expect(recoveries[0].domain.zone == .yellow)
            let profile = try await client.profile()
            #expect(profile.firstName == "John")
        }
    }

    @Test("an expired access token is refreshed once, even by concurrent calls; the rotated tokens are saved first")
    func refreshOnce() async throws {
        let fake = FakeWhoop(recoveryCount: 3)
        try await FakeWhoop.serve(fake) { base in
            let first = try await WhoopClient.exchange(code: "good-code", configuration: Self.configuration(base))
            await fake.expire(first.accessToken)
            let recorder = Recorder()
            let client = Self.client(base, tokens: first, recorder: recorder)
            async let a = client.recoveries()
            async let b = client.profile()
            async let c = client.recoveries()
            _ = try await (a, b, c)
            #expect(await fake.refreshes == 1)
            #expect(recorder.saved.map(\.refreshToken) == ["refresh-2"])
            #expect(await client.tokens.accessToken == "access-2")
        }
    }

    @Test("a refresh token that no longer works asks the user to connect again")
    func reconnect() async throws {
        let fake = FakeWhoop(recoveryCount: 1)
        try await FakeWhoop.serve(fake) { base in
            let stale = WhoopTokens(accessToken: "gone", refreshToken: "refresh-unknown", expiresAt: Date().addingTimeInterval(3600), scope: "")
            let client = Self.client(base, tokens: stale, recorder: Recorder())
            await #expect(throws: WhoopError.reconnectNeeded) { try await client.recoveries() }
        }
    }

    @Test("429 waits for Retry-After and retries; a wait longer than a minute is reported; 5xx is retried with backoff")
    func rateLimitsAndServerErrors() async throws {
        let fake = FakeWhoop(recoveryCount: 2)
        try await FakeWhoop.serve(fake) { base in
            let tokens = try await WhoopClient.exchange(code: "good-code", configuration: Self.configuration(base))
            let recorder = Recorder()
            let client = Self.client(base, tokens: tokens, recorder: recorder)
            await fake.throttle("/developer/v2/recovery", times: 2, retryAfter: "3")
            #expect(try await client.recoveries().count == 2)
            #expect(recorder.waits == [3, 3])

            await fake.throttle("/developer/v2/recovery", times: 1, retryAfter: "3600")
            await #expect(throws: WhoopError.rateLimited(retryAfter: 3600)) { try await client.recoveries() }

            await fake.fail("/developer/v2/user/profile/basic", times: 2)
            #expect(try await client.profile().userID == 10129)
            #expect(recorder.waits.count == 4)
            await fake.fail("/developer/v2/user/profile/basic", times: 10)
            await #expect(throws: WhoopError.server(status: 500)) { try await client.profile() }
        }
    }

    @Test("revoking ends the connection at WHOOP")
    func revoke() async throws {
        let fake = FakeWhoop(recoveryCount: 0)
        try await FakeWhoop.serve(fake) { base in
            let tokens = try await WhoopClient.exchange(code: "good-code", configuration: Self.configuration(base))
            try await Self.client(base, tokens: tokens, recorder: Recorder()).revoke()
            #expect(await fake.revoked)
        }
    }
}

@Suite("WHOOP data and webhooks")
struct WhoopDataTests {
    @Test("the documented sleep example decodes and maps to ReadyDay's sleep")
    func sleepExample() throws {
        let json = #"""
            {"id":"ecfc6a15-4661-442f-a9a4-f160dd7afae8","cycle_id":93845,"v1_id":93845,"user_id":10129,
             "created_at":"2022-04-24T11:25:44.774Z","updated_at":"2022-04-24T14:25:44.774Z","start":"2022-04-24T02:25:44.774Z",
             "end":"2022-04-24T10:25:44.774Z","timezone_offset":"-05:00","nap":false,"score_state":"SCORED",
             "score":{"stage_summary":{"total_in_bed_time_milli":30272735,"total_awake_time_milli":1403507,"total_no_data_time_milli":0,
               "total_light_sleep_time_milli":14905851,"total_slow_wave_sleep_time_milli":6630370,"total_rem_sleep_time_milli":5879573,
               "sleep_cycle_count":3,"disturbance_count":12},
              "sleep_needed":{"baseline_milli":27395716,"need_from_sleep_debt_milli":352230,"need_from_recent_strain_milli":208595,
               "need_from_recent_nap_milli":-12312},
              "respiratory_rate":16.11328125,"sleep_performance_percentage":98,"sleep_consistency_percentage":90,"sleep_efficiency_percentage":91.69533}}
            """#
        let sleep = try JSONDecoder.whoop.decode(WhoopSleep.self, from: Data(json.utf8))
        let domain = try #require(sleep.domain)
        #expect(domain.asleep == 27_415.794)
        #expect(abs((domain.efficiency ?? 0) - 0.9169533) < 1e-9)
        #expect(domain.need == 27_944.229)
    }

    @Test("a webhook signed with the client secret over timestamp + body is accepted once: the trace log decides duplicates")
    func webhook() async throws {
        let verifier = WhoopWebhookVerifier(clientSecret: "secret")
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let timestamp = String(Int64(now.timeIntervalSince1970 * 1000))
        let body = Array(
            #"{"user_id":10129,"id":"ecfc6a15-4661-442f-a9a4-f160dd7afae8","type":"recovery.updated","trace_id":"e369c784-5100-49e8-8098-75d35c47b31b"}"#
                .utf8
        )
        let signature = WhoopWebhookVerifier.signature(timestamp: timestamp, body: body, clientSecret: "secret")

        let traces = SetTraceLog()
        let first = try await verifier.accept(signature: signature, timestamp: timestamp, body: body, traces: traces, now: now)
        guard case .first(let event) = first else {
            Issue.record("the first delivery was \(first)")
            return
        }
        #expect(event.type == "recovery.updated" && event.userID == 10129)
        #expect(try await verifier.accept(signature: signature, timestamp: timestamp, body: body, traces: traces, now: now) == .duplicate(event))
        #expect(await traces.windows == [WhoopWebhookVerifier.replayWindow, WhoopWebhookVerifier.replayWindow])
        #expect(WhoopWebhookVerifier.replayWindow >= 2 * WhoopWebhookVerifier.tolerance)

        let fresh = WhoopWebhookVerifier(clientSecret: "secret")
        var tampered = body
        tampered[12] = UInt8(ascii: "8")
        #expect(throws: WebhookError.badSignature) { try fresh.verify(signature: signature, timestamp: timestamp, body: tampered, now: now) }
        let otherSecret = WhoopWebhookVerifier.signature(timestamp: timestamp, body: body, clientSecret: "not-secret")
        #expect(throws: WebhookError.badSignature) { try fresh.verify(signature: otherSecret, timestamp: timestamp, body: body, now: now) }
        #expect(throws: WebhookError.staleTimestamp) {
            try fresh.verify(signature: signature, timestamp: timestamp, body: body, now: now.addingTimeInterval(600))
        }
        #expect(throws: WebhookError.missingSignature) { try fresh.verify(signature: nil, timestamp: timestamp, body: body, now: now) }
        #expect(throws: WebhookError.badSignature) { try fresh.verify(signature: "%%%", timestamp: timestamp, body: body, now: now) }
        let junk = Array("not json".utf8)
        let junkSignature = WhoopWebhookVerifier.signature(timestamp: timestamp, body: junk, clientSecret: "secret")
        #expect(throws: WebhookError.malformedBody) { try fresh.verify(signature: junkSignature, timestamp: timestamp, body: junk, now: now) }
        let long = Array(#"{"user_id":1,"id":"x","type":"sleep.updated","trace_id":"\#(String(repeating: "t", count: 201))"}"#.utf8)
        let longSignature = WhoopWebhookVerifier.signature(timestamp: timestamp, body: long, clientSecret: "secret")
        #expect(throws: WebhookError.malformedBody) { try fresh.verify(signature: longSignature, timestamp: timestamp, body: long, now: now) }
    }
}

/// A trace log in memory, for the verifier's own tests (the server's is PostgreSQL).
actor SetTraceLog: WebhookTraceLog {
    private var seen: Set<String> = []
    private(set) var windows: [TimeInterval] = []

    func recordFirstDelivery(of traceID: String, within window: TimeInterval) async throws -> Bool {
        windows.append(window)
        return seen.insert(traceID).inserted
    }
}
