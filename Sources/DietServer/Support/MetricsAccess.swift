import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Who may read `/metrics`: anyone presenting `WDIET_METRICS_TOKEN` as a bearer token, and
/// peers in `allowed` (loopback by default) whose request names no forwarded client. A
/// request relayed by a proxy is never let in by address: behind a reverse proxy on the same
/// host every request arrives from loopback.
public struct MetricsPolicy: Sendable {
    /// The bearer token that opens `/metrics` from anywhere; nil: none does.
    public var token: String?
    /// The peers that may read `/metrics` without the token.
    public var allowed: [IPRange] = ["127.0.0.0/8", "::1"].compactMap(IPRange.init)

    public init() {}

    /// The headers a proxy adds; their presence means the peer is not the client.
    static let forwardingHeaders: [HTTPField.Name] = ["X-Forwarded-For", "Forwarded", "X-Real-IP"].compactMap { HTTPField.Name($0) }

    func permits(peer: String?, headers: HTTPFields) -> Bool {
        if let token, let presented = headers[.authorization].flatMap(Self.bearer) {
            // Digests compared, so the time taken says nothing about the token.
            return SHA256.hash(data: Data(presented.utf8)) == SHA256.hash(data: Data(token.utf8))
        }
        guard Self.forwardingHeaders.allSatisfy({ headers[$0] == nil }), let peer, let bytes = IPRange.bytes(peer) else { return false }
        return allowed.contains { $0.contains(bytes) }
    }

    private static func bearer(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }
}

extension Router<ServerContext> {
    /// `GET /metrics`: the Prometheus text format, or 403 for a caller the policy refuses.
    func addMetricsRoute(policy: MetricsPolicy) {
        MetricsExport.bootstrap()
        get("/metrics") { request, context in
            guard policy.permits(peer: context.remoteAddress?.ipAddress, headers: request.headers) else {
                throw APIError(
                    status: .forbidden,
                    code: "forbidden",
                    message: "The metrics are readable from this server's allowed addresses or with its metrics token."
                )
            }
            return MetricsExport.response()
        }
    }
}
