import DietServer
import Foundation
import Hummingbird
import ServerTestSupport
import ServiceLifecycle
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to a loopback port, for clients that misbehave on purpose: part
/// of a request line and then silence, a body a byte at a time. Waiting never blocks a
/// thread: it polls and sleeps.
final class RawConnection: @unchecked Sendable {
    enum Outcome: Equatable {
        /// The server closed the connection (end of stream or reset).
        case closed
        case data(String)
        case stillOpen
    }

    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw RawConnectionError.connectFailed(errno)
        }
    }

    deinit { close(descriptor) }

    /// Whether all of `text` was handed to the kernel (false once the server has closed).
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return sent == bytes.count
    }

    /// What the server did within `seconds`: answered, closed, or neither.
    func outcome(within seconds: Double) async throws -> Outcome {
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
            try await Task.sleep(nanoseconds: 50_000_000)
        }
    }
}

enum RawConnectionError: Error {
    case connectFailed(Int32)
    case serverDidNotStart
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}

extension ServerHarness {
    /// Runs the real application (with its connection limit, which the test framework's live
    /// mode leaves out) on a free loopback port of a fresh database, until `body` returns.
    static func withRunningServer(configure adjust: (inout ServerConfiguration) -> Void, _ body: @Sendable (Int) async throws -> Void) async throws {
        var configuration = try await configuration()
        configuration.port = Loopback.freePort()
        adjust(&configuration)
        let app = try await buildApplication(configuration: configuration, logger: logger)
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let running = Task { try await services.run() }
        let port = configuration.port
        let outcome = await Result(catching: {
            try await waitUntilAnswering(port)
            try await body(port)
        })
        await services.triggerGracefulShutdown()
        _ = await running.result
        try outcome.get()
    }

    private static func waitUntilAnswering(_ port: Int) async throws {
        for _ in 0..<100 {
            if let probe = try? RawConnection(port: port) {
                probe.send("GET /health HTTP/1.1\r\nHost: test\r\n\r\n")
                if case .data(let text) = try await probe.outcome(within: 5), text.hasPrefix("HTTP/1.1 200") { return }
            }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw RawConnectionError.serverDidNotStart
    }

}
