import Foundation
import Hummingbird
import Logging
import SyncProtocol
import WhoopAPI

extension WhoopController {
    /// The largest webhook body read; WHOOP's are a few hundred bytes.
    static let maxWebhookBytes = 64 * 1024

    /// WHOOP's notice that a record changed: verified with the client secret, checked against
    /// the trace ids every instance has received (`whoop_webhook_traces`), then the record is
    /// fetched with its user's token and stored (or tombstoned when deleted). A delivery of a
    /// trace id received before, by this instance or another, is applied no second time and
    /// answered 200 `{"status": "duplicate"}`. Anything that is not WHOOP's fault answers 2xx,
    /// so WHOOP never retries in a loop.
    @Sendable func webhook(request: Request, context: ServerContext) async throws -> Response {
        let connector = try requireConnector()
        guard let verifier else { throw Self.notConfigured }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maxWebhookBytes)
        } catch {
            throw APIError(status: .contentTooLarge, code: "too_large", message: "A webhook body is at most 64 KB.")
        }
        let delivery: WebhookDelivery
        do {
            delivery = try await verifier.accept(
                signature: request.header("X-WHOOP-Signature"),
                timestamp: request.header("X-WHOOP-Signature-Timestamp"),
                body: Array(body.readableBytesView),
                traces: WhoopWebhookTraces(database: database, logger: logger)
            )
        } catch WebhookError.malformedBody {
            throw APIError.badRequest("The webhook body is not a WHOOP event.")
        } catch is WebhookError {
            ServerMetrics.whoopJob("webhook", outcome: "failed")
            throw APIError(
                status: .unauthorized,
                code: "invalid_signature",
                message: "The webhook's signature is missing, wrong or too old."
            )
        }
        switch delivery {
        case .first(let event):
            await handle(event, connector: connector)
            return Response(status: .noContent)
        case .duplicate(let event):
            logger.info("WHOOP webhook delivered again: not applied twice", metadata: ["type": "\(event.type)", "trace_id": "\(event.traceID)"])
            ServerMetrics.whoopJob("webhook", outcome: "skipped")
            return try JSONBody(WhoopWebhookDuplicate(traceID: event.traceID)).response(from: request, context: context)
        }
    }

    private func handle(_ event: WhoopWebhookEvent, connector: WhoopConnector) async {
        let metadata: Logger.Metadata = ["type": "\(event.type)", "trace_id": "\(event.traceID)"]
        do {
            let repository = connector.repository
            guard let userID = try await database.withoutUser({ try await repository.user(forMember: event.userID, on: $0) }),
                let client = try await connector.client(userID: userID)
            else {
                logger.info("WHOOP webhook for a member not connected here", metadata: metadata)
                ServerMetrics.whoopJob("webhook", outcome: "skipped")
                return
            }
            let parts = event.type.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, let kind = WhoopRecordKind(rawValue: parts[0]) else {
                logger.info("WHOOP webhook of a type not synced", metadata: metadata)
                ServerMetrics.whoopJob("webhook", outcome: "skipped")
                return
            }
            if parts[1] == "deleted" {
                try await tombstone(kind: kind, id: event.id, userID: userID, connector: connector)
            } else {
                let records = try await Self.fetch(kind: kind, id: event.id, client: client)
                _ = try await database.withUser(userID) { [rows = connector.rows] in try await rows.write(records, userID: userID, on: $0) }
            }
            ServerMetrics.whoopJob("webhook", outcome: "ok")
        } catch {
            ServerMetrics.whoopJob("webhook", outcome: "failed")
            logger.warning("WHOOP webhook not applied", metadata: metadata.merging(["error": "\(WhoopConnector.describe(error))"]) { $1 })
        }
    }

    private func tombstone(kind: WhoopRecordKind, id: String, userID: UUID, connector: WhoopConnector) async throws {
        try await database.withUser(userID) { [rows = connector.rows] connection in
            // v2 recovery events name the sleep; the row is keyed by the cycle.
            let row =
                kind == .recovery && Int64(id) == nil
                ? try await rows.recoveryRow(sleepID: id, on: connection)
                : WhoopRow.id(kind: kind.rawValue, whoopID: id)
            guard let row else { return }
            try await rows.write([], deleting: [row], userID: userID, on: connection)
        }
    }

    /// The changed record, fetched by id. A v2 recovery event names its sleep: the sleep is
    /// fetched (and stored too) to find the cycle the recovery is keyed by.
    static func fetch(kind: WhoopRecordKind, id: String, client: WhoopClient) async throws -> [WhoopRows.Record] {
        switch kind {
        case .recovery:
            if let cycle = Int64(id) { return [WhoopRows.Record(try WhoopSyncedRecord(try await client.recovery(cycleID: cycle)))] }
            let sleep = try await client.sleep(id: id)
            return [
                WhoopRows.Record(try WhoopSyncedRecord(sleep)),
                WhoopRows.Record(try WhoopSyncedRecord(try await client.recovery(cycleID: sleep.cycleID))),
            ]
        case .sleep: return [WhoopRows.Record(try WhoopSyncedRecord(try await client.sleep(id: id)))]
        case .cycle:
            guard let cycle = Int64(id) else { throw WhoopError.invalidResponse("a cycle id must be a number") }
            return [WhoopRows.Record(try WhoopSyncedRecord(try await client.cycle(id: cycle)))]
        case .workout: return [WhoopRows.Record(try WhoopSyncedRecord(try await client.workout(id: id)))]
        }
    }
}

/// The answer to a webhook whose trace id was received before (by any instance).
struct WhoopWebhookDuplicate: Codable, Sendable {
    var status = "duplicate"
    let traceID: String

    enum CodingKeys: String, CodingKey {
        case status
        case traceID = "trace_id"
    }

    init(traceID: String) {
        self.traceID = traceID
    }
}

extension Request {
    /// The first value of the header `name` (compared without case).
    func header(_ name: String) -> String? {
        headers.first { $0.name.canonicalName == name.lowercased() }?.value
    }
}
