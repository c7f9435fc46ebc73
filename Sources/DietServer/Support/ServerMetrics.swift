import CoreMetrics
import Foundation
import Hummingbird
import Metrics
import Prometheus

/// The server's own counters for Prometheus (`/metrics`), beside the request durations by
/// route. Callers record through these functions only; label values come from code, never
/// from a request, so the number of series stays bounded.
enum ServerMetrics {
    /// One push: how many changes were applied, ignored (older or replayed) and refused.
    static func push(applied: Int, ignored: Int, rejected: Int) {
        MetricsExport.bootstrap()
        Counter(label: "wdiet_sync_pushes_total").increment()
        for (outcome, count) in [("applied", applied), ("ignored", ignored), ("rejected", rejected)] where count > 0 {
            Counter(label: "wdiet_sync_push_changes_total", dimensions: [("outcome", outcome)]).increment(by: count)
        }
    }

    /// One pull page of `changes` rows.
    static func pull(changes: Int) {
        MetricsExport.bootstrap()
        Counter(label: "wdiet_sync_pulls_total").increment()
        if changes > 0 { Counter(label: "wdiet_sync_pull_changes_total").increment(by: changes) }
    }

    /// A failed sign-in (`reason`: wrong_password, unknown_account, rate_limited…).
    static func signInFailure(reason: String) {
        MetricsExport.bootstrap()
        Counter(label: "wdiet_auth_signin_failures_total", dimensions: [("reason", reason)]).increment()
    }

    /// One WHOOP job run (`job`: refresh, webhook, fetch; `outcome`: ok, skipped, failed).
    static func whoopJob(_ job: String, outcome: String) {
        MetricsExport.bootstrap()
        Counter(label: "wdiet_whoop_jobs_total", dimensions: [("job", job), ("outcome", outcome)]).increment()
    }
}

/// The one Prometheus registry of the process, installed as swift-metrics' backend the first
/// time anything asks for it (swift-metrics may be bootstrapped only once per process, and the
/// tests build many servers in one process).
enum MetricsExport {
    /// Hummingbird's metric names, as Prometheus names with their unit.
    private static let names: [String: String] = [
        "hb.requests": "http_server_requests_total",
        "hb.request.errors": "http_server_request_errors_total",
        "http.server.request.duration": "http_server_request_duration_seconds",
        "http.server.active_requests": "http_server_active_requests",
    ]

    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.nameAndLabelSanitizer = { name, labels in
            (names[name] ?? name, labels.map { ($0.replacingOccurrences(of: ".", with: "_"), $1) })
        }
        MetricsSystem.bootstrap(factory)
        // The unlabelled counters exist from the start, so a scrape sees 0 rather than nothing.
        for name in ["wdiet_sync_pushes_total", "wdiet_sync_pulls_total", "wdiet_sync_pull_changes_total"] { _ = Counter(label: name) }
        for outcome in ["applied", "ignored", "rejected"] {
            _ = Counter(label: "wdiet_sync_push_changes_total", dimensions: [("outcome", outcome)])
        }
        return registry
    }()

    /// Installs the registry unless done already; cheap after the first call.
    static func bootstrap() {
        _ = registry
    }

    /// The registry in the Prometheus text format, version 0.0.4.
    static func response() -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer()))
        )
    }
}
