import Foundation
import Logging
import PostgresNIO
import WhoopAPI

/// The trace ids of the WHOOP webhooks received by any instance, in PostgreSQL
/// (`whoop_webhook_traces`), so a delivery replayed to another instance is known there too.
struct WhoopWebhookTraces: WebhookTraceLog {
    let database: ServerDatabase
    let logger: Logger

    /// Forgets the trace ids older than `window`, then inserts `traceID` unless it is there:
    /// the insert that returns a row is the first delivery. One transaction; the unique key
    /// makes a concurrent second insert wait for the first and then do nothing.
    func recordFirstDelivery(of traceID: String, within window: TimeInterval) async throws -> Bool {
        try await database.withoutUser { [logger] connection in
            try await connection.query(
                "DELETE FROM whoop_webhook_traces WHERE received_at < now() - make_interval(secs => \(window))",
                logger: logger
            )
            let rows = try await connection.query(
                "INSERT INTO whoop_webhook_traces (trace_id) VALUES (\(traceID)) ON CONFLICT (trace_id) DO NOTHING RETURNING trace_id",
                logger: logger
            )
            var inserted = false
            for try await _ in rows { inserted = true }
            return inserted
        }
    }
}
