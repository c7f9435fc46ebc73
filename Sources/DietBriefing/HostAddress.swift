import Foundation
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address, and whether it is public: a calendar address may name a host on
/// this machine or the user's own network only when the user allowed it, so a synced row or a
/// typed address cannot make this device a probe of its network.
struct HostAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 or 16 bytes, network order.
    let bytes: [UInt8]

    init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// An IP literal ("192.168.1.5", "::1"; no brackets), or nil.
    init?(literal: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            self.init(bytes: withUnsafeBytes(of: &v4) { Array($0) })
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, literal, &v6) == 1 {
            self.init(bytes: withUnsafeBytes(of: &v6) { Array($0) })
            return
        }
        return nil
    }

    var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Reachable on the public internet: not this machine, not a private, shared, link-local,
    /// documentation, multicast or reserved range (IPv4-mapped and 6to4/NAT64 IPv6 addresses by
    /// the IPv4 address inside them).
    var isPublic: Bool {
        if bytes.count == 4 { return Self.isPublicV4(bytes) }
        let b = bytes
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF { return Self.isPublicV4(Array(b[12..<16])) }  // ::ffff:0:0/96
        if b[0..<12].allSatisfy({ $0 == 0 }) { return false }  // ::, ::1, IPv4-compatible
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B { return Self.isPublicV4(Array(b[12..<16])) }  // 64:ff9b::/96
        if b[0] == 0x20 && b[1] == 0x02 { return Self.isPublicV4(Array(b[2..<6])) }  // 2002::/16, 6to4
        if b[0] & 0xFE == 0xFC { return false }  // fc00::/7, unique local
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return false }  // fe80::/10, link-local
        if b[0] == 0xFE && b[1] & 0xC0 == 0xC0 { return false }  // fec0::/10, site-local (deprecated)
        if b[0] == 0xFF { return false }  // multicast
        if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0D && b[3] == 0xB8 { return false }  // 2001:db8::/32, documentation
        if b[0] == 0x01 && b[1..<8].allSatisfy({ $0 == 0 }) { return false }  // 100::/64, discard
        return b[0] & 0xE0 == 0x20  // 2000::/3, global unicast
    }

    private static func isPublicV4(_ b: [UInt8]) -> Bool {
        switch (b[0], b[1], b[2]) {
        case (0, _, _), (10, _, _), (127, _, _): false  // this network, private, loopback
        case (100, 64...127, _): false  // shared address space (carrier-grade NAT)
        case (169, 254, _): false  // link-local
        case (172, 16...31, _): false  // private
        case (192, 0, 0), (192, 0, 2), (192, 88, 99): false  // IETF, documentation, 6to4 relay
        case (192, 168, _): false  // private
        case (198, 18...19, _): false  // benchmarking
        case (198, 51, 100), (203, 0, 113): false  // documentation
        case (224...255, _, _): false  // multicast, reserved, broadcast
        default: true
        }
    }

    /// Whether `text` is a DNS host name (letters, digits, hyphens and dots; labels of 1–63).
    static func isHostName(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253 else { return false }
        // "5" or "10.1" are no names: the resolver reads them as the addresses 0.0.0.5, 10.0.0.1
        guard let last = text.split(separator: ".").last, !last.allSatisfy(\.isNumber) else { return false }
        return text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            (1...63).contains(label.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
        }
    }

    /// The addresses `host` resolves to (an IP literal to itself), looked up on NIO's blocking
    /// thread pool so no cooperative thread waits on the resolver; empty when the name is not found.
    static func resolve(_ host: String) async -> [HostAddress] {
        if let literal = HostAddress(literal: host) { return [literal] }
        return (try? await NIOThreadPool.singleton.runIfActive { lookUp(host) }) ?? []
    }

    private static func lookUp(_ host: String) -> [HostAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [HostAddress] = []
        for entry in sequence(first: first, next: { $0.pointee.ai_next }) {
            guard let address = entry.pointee.ai_addr else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                var v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                addresses.append(HostAddress(bytes: withUnsafeBytes(of: &v4) { Array($0) })!)
            case AF_INET6:
                var v6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                addresses.append(HostAddress(bytes: withUnsafeBytes(of: &v6) { Array($0) })!)
            default: continue
            }
        }
        var seen = Set<HostAddress>()
        return addresses.filter { seen.insert($0).inserted }
    }
}
