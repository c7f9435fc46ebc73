import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import SyncProtocol
import Testing

@testable import DietServer

/// A scrape of `/metrics`: each sample line (`name{labels} value`) by its series.
struct Scrape {
    let text: String
    let samples: [String: Double]

    init(_ text: String) {
        self.text = text
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
        self.samples = samples
    }

    /// The value of a series, 0 when it has not been recorded (the registry is shared by every
    /// test of the process, so tests compare before with after).
    func value(_ series: String) -> Double { samples[series] ?? 0 }

    /// The series of `name` whose labels include every one of `labels` (`key="value"`).
    func series(_ name: String, with labels: [String]) -> [String] {
        samples.keys.filter { key in key.hasPrefix(name + "{") && labels.allSatisfy { key.contains($0) } }.sorted()
    }

    func sum(_ name: String, with labels: [String]) -> Double {
        series(name, with: labels).reduce(0) { $0 + value($1) }
    }
}

extension TestClientProtocol {
    func scrape(token: String) async throws -> Scrape {
        let response = try await execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(token)"])
        try #require(response.status == .ok)
        #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
        return Scrape(String(buffer: response.body))
    }
}

@Suite("Prometheus metrics")
struct MetricsTests {
    static let token = "metrics-token-for-the-tests"

    @Test("a push and a failed sign-in move their counters; durations are recorded by route pattern, never by raw path")
    func requestsAndSignInFailures() async throws {
        try await ServerHarness.withServer(configure: { $0.metrics.token = Self.token }) { _, client in
            // Given an account and a scrape before.
            let tokens = try await client.signup("anna@example.org")
            let before = try await client.scrape(token: Self.token)
            let pushRoute = #"http_route="/v1/sync/push""#

            // When it pushes, fails to sign in twice, revokes a device by id and asks for a path no route has.
            let meal = Changes.meal(UUID(), name: "Porridge", kcal: 320, at: Changes.now)
            #expect(
                try await client.send(
                    .post,
                    SyncPaths.push,
                    token: tokens.accessToken,
                    json: PushRequest(deviceID: "laptop", changes: [meal])
                ).status == .ok
            )
            #expect(try await client.login("anna@example.org", password: "not the password").status == .unauthorized)
            #expect(try await client.login("nobody@example.org").status == .unauthorized)
            let device = UUID()
            #expect(try await client.send(.delete, AccountPaths.devices + "/\(device)", token: tokens.accessToken).status == .notFound)
            let stray = UUID()
            #expect(try await client.send(.get, "/no/such/\(stray)").status == .notFound)
            let after = try await client.scrape(token: Self.token)

            // Then the push is counted with its applied change, the failures by reason, the push's duration under its route.
            #expect(after.value("wdiet_sync_pushes_total") - before.value("wdiet_sync_pushes_total") >= 1)
            let applied = #"wdiet_sync_push_changes_total{outcome="applied"}"#
            #expect(after.value(applied) - before.value(applied) >= 1)
            let wrong = #"wdiet_auth_signin_failures_total{reason="wrong_password"}"#
            let unknown = #"wdiet_auth_signin_failures_total{reason="unknown_account"}"#
            #expect(after.value(wrong) - before.value(wrong) >= 1)
            #expect(after.value(unknown) - before.value(unknown) >= 1)
            let pushCount = "http_server_request_duration_seconds_count"
            #expect(
                after.sum(pushCount, with: [pushRoute, #"http_response_status_code="200""#])
                    - before.sum(pushCount, with: [pushRoute, #"http_response_status_code="200""#]) >= 1
            )
            #expect(!after.series("http_server_request_duration_seconds_bucket", with: [pushRoute, #"le="0.005""#]).isEmpty)
            // The 401 of a sign-in is timed too (errors become responses inside the timing).
            #expect(!after.series(pushCount, with: [#"http_route="/v1/auth/login""#, #"http_response_status_code="401""#]).isEmpty)
            #expect(!after.series(pushCount, with: [#"http_route="NotFound""#]).isEmpty)
            #expect(!after.text.contains(device.uuidString) && !after.text.contains(stray.uuidString))
            #expect(after.series(pushCount, with: [#"http_route="/v1/devices/"#]).count >= 1)
        }
    }

    @Test("pushes, pulls, refused changes and WHOOP jobs are exported under their names")
    func serverCounters() async throws {
        try await ServerHarness.withServer(configure: { $0.metrics.token = Self.token }) { _, client in
            let before = try await client.scrape(token: Self.token)
            ServerMetrics.push(applied: 3, ignored: 1, rejected: 2)
            ServerMetrics.pull(changes: 5)
            ServerMetrics.whoopJob("refresh", outcome: "failed")
            let after = try await client.scrape(token: Self.token)
            let moved = { (series: String) in after.value(series) - before.value(series) }
            #expect(moved("wdiet_sync_pushes_total") >= 1)
            #expect(moved(#"wdiet_sync_push_changes_total{outcome="applied"}"#) >= 3)
            #expect(moved(#"wdiet_sync_push_changes_total{outcome="ignored"}"#) >= 1)
            #expect(moved(#"wdiet_sync_push_changes_total{outcome="rejected"}"#) >= 2)
            #expect(moved("wdiet_sync_pulls_total") >= 1)
            #expect(moved("wdiet_sync_pull_changes_total") >= 5)
            #expect(moved(#"wdiet_whoop_jobs_total{job="refresh",outcome="failed"}"#) >= 1)
            #expect(after.text.contains("# TYPE wdiet_sync_pushes_total counter"))
            #expect(after.text.contains("# TYPE http_server_request_duration_seconds histogram"))
        }
    }

    @Test("a stranger cannot read /metrics: no token and no allowed address, a wrong token, a request a proxy relayed")
    func strangersAreRefused() async throws {
        // Given a server allowing no address, only its token.
        try await ServerHarness.withServer(
            .live,
            configure: {
                $0.metrics.token = Self.token
                $0.metrics.allowed = []
            }
        ) { _, client in
            let none = try await client.execute(uri: "/metrics", method: .get)
            #expect(none.status == .forbidden)
            #expect(none.errorBody?.error.code == "forbidden")
            #expect(
                try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer wrong-token-wrong-token"]).status
                    == .forbidden
            )
            #expect(try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(Self.token)"]).status == .ok)
        }
        // Given the default policy (loopback, no token): the local scraper reads, a relayed request does not.
        try await ServerHarness.withServer(.live) { _, client in
            #expect(try await client.execute(uri: "/metrics", method: .get).status == .ok)
            for header in ["X-Forwarded-For", "Forwarded", "X-Real-IP"] {
                let name = try #require(HTTPField.Name(header))
                #expect(try await client.execute(uri: "/metrics", method: .get, headers: [name: "203.0.113.9"]).status == .forbidden)
            }
        }
        // Without a peer address (through the router) and without a token: refused.
        try await ServerHarness.withServer { _, client in
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .forbidden)
        }
    }

    @Test("the metrics settings are read from the environment and refused when wrong")
    func metricsSettings() throws {
        let base = ["WDIET_ENV": "development"]
        let set = try ServerConfiguration(
            environment: base.merging([
                "WDIET_METRICS_TOKEN": Self.token, "WDIET_METRICS_ALLOW": "10.0.0.0/8, 192.168.1.7",
            ]) { $1 }
        )
        #expect(set.metrics.token == Self.token)
        #expect(set.metrics.permits(peer: "10.1.2.3", headers: [:]))
        #expect(!set.metrics.permits(peer: "127.0.0.1", headers: [:]))
        #expect(try ServerConfiguration(environment: base.merging(["WDIET_METRICS_ALLOW": "none"]) { $1 }).metrics.allowed.isEmpty)
        #expect(throws: ConfigurationError.invalid("WDIET_METRICS_TOKEN", "must have at least 16 characters")) {
            try ServerConfiguration(environment: base.merging(["WDIET_METRICS_TOKEN": "short"]) { $1 })
        }
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration(environment: base.merging(["WDIET_METRICS_ALLOW": "localhost"]) { $1 })
        }
    }
}
