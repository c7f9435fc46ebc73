import DietServer
import Foundation
import Hummingbird
import ServerTestSupport
import ServiceLifecycle
import TestSupport

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
