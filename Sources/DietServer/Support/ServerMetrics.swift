import Foundation

/// The server's own counters for Prometheus (`/metrics`), beside the request durations by
/// route. Filled in by the observability work; callers record through these functions only.
enum ServerMetrics {
    /// One push: how many changes were applied, ignored (older or replayed) and refused.
    static func push(applied: Int, ignored: Int, rejected: Int) {}
    /// One pull page of `changes` rows.
    static func pull(changes: Int) {}
    /// A failed sign-in (`reason`: wrong_password, unknown_account, rate_limited…).
    static func signInFailure(reason: String) {}
    /// One WHOOP job run (`job`: refresh, webhook, fetch; `outcome`: ok, skipped, failed).
    static func whoopJob(_ job: String, outcome: String) {}
}
