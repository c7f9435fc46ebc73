import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to a server's port, for clients that misbehave on purpose: part
/// of a request line and then silence, a body a byte at a time, many connections from one
/// address. Waiting never blocks a thread: it polls and sleeps.
public final class RawConnection: @unchecked Sendable {
    public enum Outcome: Equatable, Sendable {
        /// The server closed the connection (end of stream or reset).
        case closed
        case data(String)
        case stillOpen
    }

    private let descriptor: Int32

    /// Connects to `host:port` (IPv4), from the local address `source` when given (another
    /// loopback address such as 127.0.0.2 is a second client on the same machine).
    public init(host: String = "127.0.0.1", port: Int, from source: String? = nil) throws {
        // close-on-exec: a child process another test starts must not keep this connection open
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketDescriptor >= 0 else { throw RawConnectionError.connectFailed(errno) }
        // The descriptor is stored only once connected: a class whose init throws after every
        // stored property is set still runs `deinit`, which would close it a second time, when
        // the number may already belong to another socket (a server's, whose selector then traps).
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let error = errno
                close(socketDescriptor)
                throw RawConnectionError.bindFailed(source, error)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let error = errno
            close(socketDescriptor)
            throw RawConnectionError.connectFailed(error)
        }
        descriptor = socketDescriptor
    }

    /// Wraps a connected socket made elsewhere (in another network namespace); closes it at the end.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Whether all of `text` was handed to the kernel (false once the server has closed).
    @discardableResult
    public func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return sent == bytes.count
    }

    /// What the server did within `seconds`: answered, closed, or neither.
    public func outcome(within seconds: Double) async throws -> Outcome {
        let deadline = Date().addingTimeInterval(seconds)
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                received += buffer.prefix(count)
                continue
            }
            if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                return received.isEmpty ? .closed : .data(String(decoding: received, as: UTF8.self))
            }
            if !received.isEmpty { return .data(String(decoding: received, as: UTF8.self)) }
            if Date() >= deadline { return .stillOpen }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }
}

public enum RawConnectionError: Error, CustomStringConvertible {
    case connectFailed(Int32)
    case bindFailed(String, Int32)
    case serverDidNotStart

    public var description: String {
        switch self {
        case .connectFailed(let error): "connect failed: \(String(cString: strerror(error)))"
        case .bindFailed(let source, let error): "binding the source address \(source) failed: \(String(cString: strerror(error)))"
        case .serverDidNotStart: "the server did not start"
        }
    }
}
