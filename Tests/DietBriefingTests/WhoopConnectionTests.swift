import DietBriefing
import DietCore
import DietStore
import Foundation
import Hummingbird
import HummingbirdTesting
import ReadyDay
import Testing

/// The WHOOP connection both surfaces share: configuration from the environment, the pending
/// attempt (random, single use, expiring, owner-only), the code exchange, fetching the
/// collections page by page, and disconnecting — against a small WHOOP on loopback.
@Suite("WHOOP connection shared by the CLI and the web app", .serialized)
struct WhoopConnectionTests {
    static let start = Date(timeIntervalSince1970: 1_767_600_000)  // 2026-01-05 08:00 UTC

    /// A folder with a fresh store; removed afterwards.
    static func withStore(_ body: (String, AppDatabase) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-whoop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("w-diet.sqlite").path
        try await body(path, try AppDatabase.open(path: path))
    }

    static func environment(_ base: String = "http://127.0.0.1:9") -> [String: String] {
        [
            "WDIET_WHOOP_CLIENT_ID": "client", "WDIET_WHOOP_CLIENT_SECRET": "secret",
            "WDIET_WHOOP_API_URL": base + "/developer", "WDIET_WHOOP_OAUTH_URL": base + "/oauth/oauth2",
        ]
    }

    @Test("without the app's ID and secret there is no connection; the redirect address defaults to the CLI's")
    func configuration() {
        #expect(WhoopConnection(environment: [:], databasePath: "/tmp/x.sqlite") == nil)
        #expect(WhoopConnection(environment: ["WDIET_WHOOP_CLIENT_ID": "client"], databasePath: "/tmp/x.sqlite") == nil)
        let connection = WhoopConnection(environment: Self.environment(), databasePath: "/tmp/x.sqlite")
        #expect(connection?.configuration.redirectURI == WhoopConnection.defaultRedirectURI && connection?.redirectConfigured == false)
        #expect(connection?.tokensPath == "/tmp/x.sqlite.whoop.json")
        let configured = WhoopConnection(
            environment: Self.environment().merging(["WDIET_WHOOP_REDIRECT_URI": "https://me.example/briefing/whoop/callback"]) { $1 },
            databasePath: "/tmp/x.sqlite"
        )
        #expect(configured?.configuration.redirectURI == "https://me.example/briefing/whoop/callback" && configured?.redirectConfigured == true)
    }

    @Test("an attempt's state is random, kept owner-only, used once, and expires; a wrong state leaves the attempt waiting")
    func attempts() async throws {
        try await Self.withStore { path, _ in
            let connection = try #require(WhoopConnection(environment: Self.environment(), databasePath: path))
            // Given a started attempt bound to this server's callback
            let url = try connection.begin(redirectURI: "http://127.0.0.1:8080/briefing/whoop/callback", now: Self.start)
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            let state = try #require(items.first { $0.name == "state" }?.value)
            #expect(url.absoluteString.hasPrefix("http://127.0.0.1:9/oauth/oauth2/auth?"))
            #expect(items.first { $0.name == "redirect_uri" }?.value == "http://127.0.0.1:8080/briefing/whoop/callback")
            #expect(items.first { $0.name == "scope" }?.value?.split(separator: " ").contains("read:recovery") == true)
            #expect(state.count >= 22 && state.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })  // ≥ 128 bits
            let permissions = try FileManager.default.attributesOfItem(atPath: connection.pendingPath)[.posixPermissions] as? NSNumber
            #expect(permissions?.intValue == 0o600)
            let second = try connection.begin(redirectURI: "http://127.0.0.1:8080/briefing/whoop/callback", now: Self.start)
            #expect(URLComponents(url: second, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value != state)
            let current = try #require(connection.pendingAttempt())

            // Then a missing or wrong state is refused and the attempt still waits
            #expect(throws: WhoopConnection.AttemptProblem.missingState) { try connection.takeAttempt(state: nil, now: Self.start) }
            #expect(throws: WhoopConnection.AttemptProblem.mismatch) { try connection.takeAttempt(state: state, now: Self.start) }
            #expect(connection.pendingAttempt() == current)
            // The right state is taken once; again, nothing waits
            let taken = try connection.takeAttempt(state: current.state, now: Self.start.addingTimeInterval(60))
            #expect(taken.redirectURI == "http://127.0.0.1:8080/briefing/whoop/callback")
            #expect(throws: WhoopConnection.AttemptProblem.noAttempt) { try connection.takeAttempt(state: current.state, now: Self.start) }
            // An attempt older than ten minutes has expired, and is gone
            _ = try connection.begin(now: Self.start)
            let late = try #require(connection.pendingAttempt())
            #expect(throws: WhoopConnection.AttemptProblem.expired) {
                try connection.takeAttempt(state: late.state, now: Self.start.addingTimeInterval(WhoopConnection.attemptLifetime + 1))
            }
            #expect(connection.pendingAttempt() == nil)
        }
    }

    @Test("the code is exchanged with the attempt's redirect address, tokens are stored 0600, every page is fetched, disconnect revokes and forgets")
    func connectSyncDisconnect() async throws {
        let whoop = LocalWhoop(records: 30)
        try await LocalWhoop.serve(whoop) { base in
            try await Self.withStore { path, store in
                let connection = try #require(WhoopConnection(environment: Self.environment(base), databasePath: path))
                _ = try connection.begin(redirectURI: "http://127.0.0.1:8080/briefing/whoop/callback", now: Self.start)
                let attempt = try connection.takeAttempt(state: connection.pendingAttempt()?.state, now: Self.start)
                // A refused code stores nothing
                await #expect(throws: (any Error).self) { _ = try await connection.exchange(code: "bad-code", attempt: attempt) }
                #expect(!connection.isConnected)
                // When the good code is exchanged
                _ = try await connection.exchange(code: "good-code", attempt: attempt)
                #expect(
                    await whoop.redirectURIs == ["http://127.0.0.1:8080/briefing/whoop/callback", "http://127.0.0.1:8080/briefing/whoop/callback"]
                )
                let permissions = try FileManager.default.attributesOfItem(atPath: connection.tokensPath)[.posixPermissions] as? NSNumber
                #expect(permissions?.intValue == 0o600)
                // Then 30 days come in two pages of each collection
                let counts = try await connection.sync(store, days: 30, now: Self.start)
                #expect(counts.recoveries == 30 && counts.sleeps == 30)
                #expect(await whoop.pages == 4)
                #expect(try store.whoopRecordCount() == 60)
                let day = try #require(LocalDate(year: 2026, month: 1, day: 5))
                let briefing = try StoredBriefing.make(
                    store: store,
                    databasePath: path,
                    day: day,
                    today: day,
                    now: Self.start,
                    timeZone: TimeZone(identifier: "Europe/Berlin")!
                )
                #expect(briefing.briefing.recovery?.score == 55 && !briefing.hasNoSources)
                // And disconnecting revokes at WHOOP and forgets everything here
                #expect(try await connection.disconnect(store))
                #expect(await whoop.revoked)
                #expect(!connection.isConnected && !FileManager.default.fileExists(atPath: connection.tokensPath))
                #expect(try store.whoopRecordCount() == 0)
                #expect(try await connection.disconnect(store) == false)
            }
        }
    }

    @Test("a window's reason reads as one sentence in the user's language")
    func reasonSentence() throws {
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let day = try #require(LocalDate(year: 2026, month: 1, day: 5))
        func at(_ hour: Int, _ minute: Int = 0) -> Date { day.instant(at: TimeOfDay(minutesSinceMidnight: hour * 60 + minute), in: zone) }
        let events = [
            CalendarEvent(title: "Lunch talk", start: at(11), end: at(12)), CalendarEvent(title: "Quarterly review", start: at(14), end: at(16)),
        ]
        let windows = WorkoutWindowFinder.windows(
            on: day,
            events: events,
            zone: .yellow,
            preferences: WorkoutPreferences(),
            timeZone: zone,
            now: at(5),
            recoveryScore: 55
        )
        let middle = try #require(windows.first { $0.start == at(12, 30) })
        #expect(
            BriefingText.reason(middle.reason, localizer: Localizer(.en))
                == "the free gap between “Lunch talk” and “Quarterly review”, after your 30-minute preparation, in your preferred hours 06:00–21:00; moderate because recovery is yellow (55 %)"
        )
        #expect(BriefingText.reason(middle.reason, localizer: Localizer(.de)).hasPrefix("die freie Lücke zwischen „Lunch talk“"))
        let first = try #require(windows.first)
        #expect(
            BriefingText.reason(first.reason, localizer: Localizer(.en))
                == "the free time before “Lunch talk”, the longest of the day, in your preferred hours 06:00–21:00; moderate because recovery is yellow (55 %)"
        )
        let last = try #require(windows.last)
        #expect(
            BriefingText.reason(last.reason, localizer: Localizer(.es)).hasPrefix(
                "el tiempo libre después de «Quarterly review», después de tus 30 minutos"
            )
        )
    }
}

/// WHOOP's documented OAuth token endpoint, the v2 recovery and sleep collections (at most 25
/// a page, `nextToken`) and access revocation, for one user.
actor LocalWhoop {
    let recoveries: [String]
    let sleeps: [String]
    private(set) var redirectURIs: [String] = []
    private(set) var pages = 0
    private(set) var revoked = false

    init(records: Int) {
        let base = WhoopConnectionTests.start.addingTimeInterval(-3600)
        let format = Date.ISO8601FormatStyle()
        recoveries = (0..<records).map { index in
            let created = base.addingTimeInterval(Double(-index) * 86400).formatted(format)
            return
                #"{"cycle_id":\#(1000 + index),"sleep_id":"ecfc6a15-4661-442f-a9a4-f160dd7afae1","user_id":10129,"created_at":"\#(created)","updated_at":"\#(created)","score_state":"SCORED","score":{"user_calibrating":false,"recovery_score":\#(55 + index % 3).0,"resting_heart_rate":55.5,"hrv_rmssd_milli":48.25}}"#
        }
        sleeps = (0..<records).map { index in
            let end = base.addingTimeInterval(Double(-index) * 86400)
            let start = end.addingTimeInterval(-7 * 3600)
            return
                #"{"id":"a1b2c3d4-0000-4000-8000-\#(String(format: "%012d", index))","cycle_id":\#(1000 + index),"user_id":10129,"created_at":"\#(end.formatted(format))","updated_at":"\#(end.formatted(format))","start":"\#(start.formatted(format))","end":"\#(end.formatted(format))","timezone_offset":"+01:00","nap":false,"score_state":"SCORED","score":{"stage_summary":{"total_in_bed_time_milli":25200000,"total_awake_time_milli":1800000,"total_no_data_time_milli":0,"total_light_sleep_time_milli":12600000,"total_slow_wave_sleep_time_milli":5400000,"total_rem_sleep_time_milli":5400000,"sleep_cycle_count":4,"disturbance_count":9},"sleep_needed":{"baseline_milli":28800000,"need_from_sleep_debt_milli":0,"need_from_recent_strain_milli":0,"need_from_recent_nap_milli":0},"respiratory_rate":15.5,"sleep_performance_percentage":80,"sleep_consistency_percentage":80,"sleep_efficiency_percentage":92}}"#
        }
    }

    func token(_ form: [String: String]) -> (HTTPResponse.Status, String) {
        redirectURIs.append(form["redirect_uri"] ?? "")
        guard form["grant_type"] == "authorization_code", form["code"] == "good-code", form["client_secret"] == "secret" else {
            return (.badRequest, #"{"error":"invalid_grant"}"#)
        }
        return (
            .ok, #"{"access_token":"access-1","expires_in":3600,"refresh_token":"refresh-1","scope":"offline read:recovery","token_type":"bearer"}"#
        )
    }

    func api(_ method: HTTPRequest.Method, path: String, query: [String: String], authorization: String?) -> (HTTPResponse.Status, String) {
        guard authorization == "Bearer access-1", !revoked else { return (.unauthorized, "") }
        let records: [String]
        switch (method, path) {
        case (.delete, "/developer/v2/user/access"):
            revoked = true
            return (.noContent, "")
        case (.get, "/developer/v2/recovery"): records = recoveries
        case (.get, "/developer/v2/activity/sleep"): records = sleeps
        default: return (.notFound, "")
        }
        let limit = Int(query["limit"] ?? "10") ?? 10
        guard limit <= 25 else { return (.badRequest, "") }
        pages += 1
        let offset = Int(query["nextToken"] ?? "0") ?? 0
        let page = records.dropFirst(offset).prefix(limit)
        let next = offset + page.count < records.count ? #","next_token":"\#(offset + page.count)""# : ""
        return (.ok, #"{"records":[\#(page.joined(separator: ","))]\#(next)}"#)
    }

    static func serve(_ whoop: LocalWhoop, _ body: @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        router.post("/oauth/oauth2/token") { request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 1 << 16)
            var form: [String: String] = [:]
            for pair in String(buffer: buffer).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
                if parts.count == 2 { form[parts[0]] = parts[1] }
            }
            let (status, json) = await whoop.token(form)
            return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
        }
        let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            var query: [String: String] = [:]
            for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
            let (status, json) = await whoop.api(request.method, path: request.uri.path, query: query, authorization: request.headers[.authorization])
            return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
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
