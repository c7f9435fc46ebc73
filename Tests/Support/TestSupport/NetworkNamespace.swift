import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Another machine on the network, made on this one: a network namespace joined to this
/// machine by a veth pair, with addresses of 10.200.N.0/24 that exist only on the pair (this
/// machine's side `hostAddress`, the namespace's `peerAddress`). Needs root and iproute2's
/// `ip`; `remove()` deletes both.
public final class NetworkNamespace: @unchecked Sendable {
    public let name: String
    public let hostAddress: String
    public let peerAddress: String
    private let hostLink: String

    /// Why a namespace cannot be made here, or nil when it can.
    public static var unavailableReason: String? {
        guard geteuid() == 0 else { return "needs root to make a network namespace" }
        guard ip != nil else { return "needs iproute2's ip to make a network namespace" }
        guard FileManager.default.fileExists(atPath: "/proc/thread-self/ns/net") else { return "needs /proc/thread-self/ns/net" }
        return nil
    }

    public static var isAvailable: Bool { unavailableReason == nil }

    static let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first { FileManager.default.isExecutableFile(atPath: $0) }

    public init() throws {
        let pid = getpid()
        let tag = Int(pid) % 200 + 20 + Int.random(in: 0..<30)
        name = "wdiet-net-\(pid)-\(tag)"
        hostLink = "wdn\(pid % 100_000)h\(tag)".prefix(15).description
        let peerLink = "wdn\(pid % 100_000)p\(tag)".prefix(15).description
        hostAddress = "10.200.\(tag).1"
        peerAddress = "10.200.\(tag).2"
        try Self.run(["netns", "add", name])
        do {
            try Self.run(["link", "add", hostLink, "type", "veth", "peer", "name", peerLink])
            try Self.run(["link", "set", peerLink, "netns", name])
            try Self.run(["addr", "add", "\(hostAddress)/24", "dev", hostLink])
            try Self.run(["link", "set", hostLink, "up"])
            try Self.run(["-n", name, "addr", "add", "\(peerAddress)/24", "dev", peerLink])
            try Self.run(["-n", name, "link", "set", peerLink, "up"])
            try Self.run(["-n", name, "link", "set", "lo", "up"])
        } catch {
            remove()
            throw error
        }
    }

    /// Deletes the veth pair and the namespace (each connection made inside goes with it).
    public func remove() {
        _ = try? Self.run(["link", "del", hostLink])
        _ = try? Self.run(["netns", "del", name])
    }

    /// `count` TCP connections to `host:port` made from inside the namespace (from
    /// `peerAddress`), each a `RawConnection` usable from anywhere. A connection the server
    /// refuses outright throws.
    public func connect(count: Int, to host: String, port: Int) async throws -> [RawConnection] {
        try await withCheckedThrowingContinuation { continuation in
            // a thread of its own: entering the namespace changes only the calling thread's
            Thread { [name] in
                continuation.resume(
                    with: Result { try Self.insideNamespace(name) { try (0..<count).map { _ in try RawConnection(host: host, port: port) } } }
                )
            }
            .start()
        }
    }

    /// Runs `body` on this thread inside the namespace `name`, then returns the thread to its
    /// own namespace. Sockets made meanwhile stay in the namespace.
    private static func insideNamespace<T>(_ name: String, _ body: () throws -> T) throws -> T {
        guard let setns = Self.setns else { throw NetworkNamespaceError.failed("setns is missing from the C library") }
        let own = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)
        let target = open("/var/run/netns/\(name)", O_RDONLY | O_CLOEXEC)
        defer {
            if own >= 0 { close(own) }
            if target >= 0 { close(target) }
        }
        guard own >= 0, target >= 0 else { throw NetworkNamespaceError.failed("cannot open the namespaces: \(String(cString: strerror(errno)))") }
        guard setns(target, cloneNewNet) == 0 else { throw NetworkNamespaceError.failed("setns: \(String(cString: strerror(errno)))") }
        defer { _ = setns(own, cloneNewNet) }
        return try body()
    }

    private static let cloneNewNet: Int32 = 0x4000_0000
    private typealias SetNS = @convention(c) (Int32, Int32) -> Int32
    private static let setns: SetNS? = {
        // nil is RTLD_DEFAULT: the symbol wherever the process has it
        guard let symbol = dlsym(nil, "setns") else { return nil }
        return unsafeBitCast(symbol, to: SetNS.self)
    }()

    @discardableResult
    private static func run(_ arguments: [String]) throws -> String {
        guard let ip else { throw NetworkNamespaceError.failed("ip is missing") }
        let output = try ChildProcess.run(URL(fileURLWithPath: ip), arguments)
        guard output.status == 0 else {
            throw NetworkNamespaceError.failed("ip \(arguments.joined(separator: " ")): \(output.stderr)")
        }
        return output.stdout
    }
}

public enum NetworkNamespaceError: Error, CustomStringConvertible {
    case failed(String)

    public var description: String {
        switch self {
        case .failed(let reason): "network namespace: \(reason)"
        }
    }
}
