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
    case duplicate
}

/// Checks WHOOP webhooks: `X-WHOOP-Signature` is the base64 HMAC-SHA256, keyed with the client
/// secret, of `X-WHOOP-Signature-Timestamp` (ms since 1970) followed by the raw body. Stale
/// timestamps are refused, and a `trace_id` seen before is reported as a duplicate.
public struct WhoopWebhookVerifier: Sendable {
    public static let tolerance: TimeInterval = 5 * 60
    private let key: SymmetricKey
    private let seen: TraceLog

    public init(clientSecret: String, remember: Int = 10_000) {
        key = SymmetricKey(data: Data(clientSecret.utf8))
        seen = TraceLog(capacity: remember)
    }

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
        guard let event = try? JSONDecoder().decode(WhoopWebhookEvent.self, from: Data(body)) else { throw .malformedBody }
        guard seen.insert(event.traceID) else { throw .duplicate }
        return event
    }

    /// The signature WHOOP would send (for tests and the fake server).
    public static func signature(timestamp: String, body: [UInt8], clientSecret: String) -> String {
        var message = Data(timestamp.utf8)
        message.append(contentsOf: body)
        let code = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Data(clientSecret.utf8)))
        return Data(code).base64EncodedString()
    }
}

/// The most recent trace ids, bounded.
final class TraceLog: @unchecked Sendable {
    private let lock = NSLock()
    private var order: [String] = []
    private var members = Set<String>()
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// False if already present.
    func insert(_ trace: String) -> Bool {
        lock.withLock {
            guard members.insert(trace).inserted else { return false }
            order.append(trace)
            if order.count > capacity {
                members.remove(order.removeFirst())
            }
            return true
        }
    }
}
