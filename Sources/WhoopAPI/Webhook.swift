import Crypto
import Foundation

/// A WHOOP webhook notification (`recovery.updated`, `sleep.updated`, `workout.deleted` …).
public struct WhoopWebhookEvent: Codable, Hashable, Sendable {
    public let userID: Int64
    /// The id of the record that changed (a UUID for v2 sleep and workout, a number for cycles).
    public let id: String
    public let type: String
    public let traceID: String

    enum CodingKeys: String, CodingKey {
        case id, type
        case userID = "user_id"
        case traceID = "trace_id"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        userID = try container.decode(Int64.self, forKey: .userID)
        if let text = try? container.decode(String.self, forKey: .id) {
            id = text
        } else {
            id = String(try container.decode(Int64.self, forKey: .id))
        }
        type = try container.decode(String.self, forKey: .type)
        traceID = try container.decode(String.self, forKey: .traceID)
    }
}

public enum WebhookError: Error, Hashable, Sendable {
    case missingSignature
    case badSignature
    case staleTimestamp
    case malformedBody
}

/// Where the trace ids of the webhooks already received are remembered: one place for every
/// instance of the server (the server keeps them in PostgreSQL), so a delivery replayed to
/// another instance is still known. WhoopAPI checks signatures and times; it keeps no state.
public protocol WebhookTraceLog: Sendable {
    /// Records `traceID` as received now, unless it was received before within `window`
    /// seconds: true for a first delivery, false for a duplicate. Decided atomically: of two
    /// deliveries at the same moment, on any instances, exactly one is the first. Entries
    /// older than `window` may be forgotten.
    func recordFirstDelivery(of traceID: String, within window: TimeInterval) async throws -> Bool
}

/// A verified webhook: new, or a delivery of a trace id received already.
public enum WebhookDelivery: Hashable, Sendable {
    case first(WhoopWebhookEvent)
    case duplicate(WhoopWebhookEvent)
}

/// Checks WHOOP webhooks: `X-WHOOP-Signature` is the base64 HMAC-SHA256, keyed with the client
/// secret, of `X-WHOOP-Signature-Timestamp` (ms since 1970) followed by the raw body. Stale
/// timestamps are refused; `accept` also asks a `WebhookTraceLog` whether the `trace_id` was
/// received before.
public struct WhoopWebhookVerifier: Sendable {
    /// How far a signed timestamp may be from the receiver's clock, either way.
    public static let tolerance: TimeInterval = 5 * 60
    /// How long a trace id must be remembered: a delivery passes the timestamp check for up to
    /// `tolerance` after its signed time, which may itself be up to `tolerance` ahead of the
    /// receiver's clock when it first arrives.
    public static let replayWindow: TimeInterval = 2 * tolerance
    /// The longest trace id accepted (WHOOP's are UUIDs); a longer one is a malformed body.
    public static let maxTraceIDBytes = 200
    private let key: SymmetricKey

    public init(clientSecret: String) {
        key = SymmetricKey(data: Data(clientSecret.utf8))
    }

    /// The event, if the signature is right, the timestamp fresh and the body a WHOOP event.
    /// Says nothing about duplicates (`accept` does).
    public func verify(signature: String?, timestamp: String?, body: [UInt8], now: Date = Date()) throws(WebhookError) -> WhoopWebhookEvent {
        guard let signature, let timestamp, let milliseconds = Int64(timestamp), timestamp.utf8.count <= 19 else {
            throw .missingSignature
        }
        guard abs(now.timeIntervalSince1970 - Double(milliseconds) / 1000) <= Self.tolerance else { throw .staleTimestamp }
        guard let expected = Data(base64Encoded: signature.trimmingCharacters(in: .whitespaces)) else { throw .badSignature }
        var message = Data(timestamp.utf8)
        message.append(contentsOf: body)
        // Constant-time comparison of the authentication code.
        guard HMAC<SHA256>.isValidAuthenticationCode(expected, authenticating: message, using: key) else { throw .badSignature }
        guard let event = try? JSONDecoder().decode(WhoopWebhookEvent.self, from: Data(body)),
            (1...Self.maxTraceIDBytes).contains(event.traceID.utf8.count)
        else { throw .malformedBody }
        return event
    }

    /// `verify`, then whether `traces` has seen the event's trace id within `replayWindow`
    /// (recording it if not). Throws `WebhookError`, or the trace log's error.
    public func accept(
        signature: String?,
        timestamp: String?,
        body: [UInt8],
        traces: some WebhookTraceLog,
        now: Date = Date()
    ) async throws -> WebhookDelivery {
        let event = try verify(signature: signature, timestamp: timestamp, body: body, now: now)
        return try await traces.recordFirstDelivery(of: event.traceID, within: Self.replayWindow) ? .first(event) : .duplicate(event)
    }

    /// The signature WHOOP would send (for tests and the fake server).
    public static func signature(timestamp: String, body: [UInt8], clientSecret: String) -> String {
        var message = Data(timestamp.utf8)
        message.append(contentsOf: body)
        let code = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Data(clientSecret.utf8)))
        return Data(code).base64EncodedString()
    }
}
