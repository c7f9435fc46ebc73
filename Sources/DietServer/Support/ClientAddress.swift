import Foundation
import HTTPTypes
import Hummingbird

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which peers may tell the client's address, and in which header.
public struct ClientAddressPolicy: Sendable {
    /// The header a trusted proxy appends the client's address to.
    public enum Header: String, Sendable {
        case xForwardedFor = "x-forwarded-for"
        /// RFC 7239: `Forwarded: for=192.0.2.60;proto=https, for="[2001:db8::1]:4711"`.
        case forwarded
    }

    /// Proxies whose header is believed; empty (the default) believes none.
    public var trustedProxies: [IPRange] = []
    public var header: Header = .xForwardedFor

    public init() {}

    /// The client's address: the peer's, unless the peer is a trusted proxy; then the
    /// right-most address of the header that is not itself a trusted proxy (the left part of
    /// the header is whatever the client sent, so it is never believed).
    public func clientAddress(peer: String?, headers: HTTPFields) -> String {
        guard let peer else { return "unknown" }
        guard isTrusted(peer) else { return IPRange.normalized(peer) ?? peer }
        let name = HTTPField.Name(header.rawValue) ?? .xForwardedFor
        let hops = headers[values: name].flatMap { line in
            line.split(separator: ",").compactMap { element -> String? in
                let hop = header == .forwarded ? Self.forwardedFor(element) : element.trimmingCharacters(in: .whitespaces)
                return hop.flatMap { $0.isEmpty ? nil : String($0.prefix(100)) }
            }
        }
        for hop in hops.reversed() where !isTrusted(hop) {
            return IPRange.normalized(hop) ?? hop
        }
        return hops.first.map { IPRange.normalized($0) ?? $0 } ?? (IPRange.normalized(peer) ?? peer)
    }

    func isTrusted(_ address: String) -> Bool {
        guard let bytes = IPRange.bytes(address) else { return false }
        return trustedProxies.contains { $0.contains(bytes) }
    }

    /// The `for=` value of one element of a `Forwarded` header, without quotes, brackets and port.
    static func forwardedFor<S: StringProtocol>(_ element: S) -> String? {
        for pair in element.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "for" else { continue }
            var value = parts[1].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            if value.hasPrefix("["), let end = value.firstIndex(of: "]") { return String(value[value.index(after: value.startIndex)..<end]) }
            if value.filter({ $0 == ":" }).count == 1, let colon = value.firstIndex(of: ":") { return String(value[..<colon]) }
            return value
        }
        return nil
    }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}

/// An IPv4 or IPv6 address or CIDR range, e.g. `10.0.0.0/8`, `127.0.0.1`, `fd00::/8`.
public struct IPRange: Sendable, Hashable {
    let network: [UInt8]
    let prefixLength: Int

    /// Parses `ADDRESS` or `ADDRESS/BITS`; nil when it is neither.
    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let bytes = Self.bytes(String(parts[0])) else { return nil }
        let bits = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
        guard let bits, (0...(bytes.count * 8)).contains(bits) else { return nil }
        network = bytes
        prefixLength = bits
    }

    /// A comma-separated list of ranges; throws naming the variable and the bad entry.
    static func list(_ text: String, variable: String) throws -> [IPRange] {
        try text.split(separator: ",").map { entry in
            guard let range = IPRange(String(entry)) else {
                throw ConfigurationError.invalid(variable, "holds \"\(entry.prefix(60))\", which is not an address or CIDR range")
            }
            return range
        }
    }

    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == network.count else { return false }
        var remaining = prefixLength
        for (a, b) in zip(address, network) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if a & mask != b & mask { return false }
            remaining -= 8
        }
        return true
    }

    /// The bytes of an IPv4 or IPv6 address; IPv4-mapped IPv6 addresses as IPv4.
    static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes.suffix(4)) }
        return bytes
    }

    /// One spelling per address (`::FFFF:10.0.0.1` and `10.0.0.1` are one client); nil if not an address.
    static func normalized(_ text: String) -> String? {
        guard let bytes = bytes(text) else { return nil }
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}

/// Sets the context's client address from the peer and, behind a trusted proxy, its header.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let policy: ClientAddressPolicy

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        var context = context
        context.clientAddress = policy.clientAddress(peer: context.remoteAddress?.ipAddress, headers: request.headers)
        return try await next(request, context)
    }
}
