import DietWeb
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import TestSupport
import Testing

/// `wdiet serve` against clients that hold connections: a cap per address and in all, idle
/// and header timeouts. The real server on a loopback port; 127.0.0.2 is a second client.
@Suite("wdiet serve: connection caps and timeouts")
struct ConnectionLimitTests {
    static let signIn = "GET /signin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    @Test(
        "one address holding its cap of half-open connections: more from it are closed at once, even reopened; another address is answered promptly"
    )
    func perAddressCap() async throws {
        try await Self.serving({
            $0.connections.maxConnectionsPerAddress = 4
            $0.connections.idleTimeout = 60
            $0.connections.headerTimeout = 60
        }) { port in
            // Given: 127.0.0.2 opens 12 connections, each with half a request line
            let opened = try (0..<12).map { _ in try RawConnection(port: port, from: "127.0.0.2") }
            for connection in opened { connection.send("GET /sig") }
            // Then 4 are held and the 8 past the cap closed at once
            let (held, closed) = try await SlowClients.stillOpen(opened, after: 1)
            #expect(held.count == 4 && closed == 8, "\(held.count) held, \(closed) closed")
            // …and while it keeps reopening each one closed, 127.0.0.1 is answered every time, promptly
            let times = try await SlowClients.answerTimes(
                probes: 5,
                request: Self.signIn,
                reopen: { try (0..<8).map { _ in try RawConnection(port: port, from: "127.0.0.2") } },
                connect: { try RawConnection(port: port, from: "127.0.0.1") }
            )
            #expect(times.allSatisfy { $0 < .seconds(2) }, "/signin took \(times)")
            #expect(try await SlowClients.stillOpen(held, after: 0).open.count == 4)
        }
    }

    @Test("headers must be complete within the header timeout however slowly they trickle; an idle connection is closed after the idle timeout")
    func timeouts() async throws {
        try await Self.serving({
            $0.connections.idleTimeout = 5
            $0.connections.headerTimeout = 1
        }) { port in
            // Given: one client that sends half a request line, one that trickles a byte every 200 ms
            let silent = try RawConnection(port: port)
            silent.send("GET /sig")
            let trickle = try RawConnection(port: port)
            let began = ContinuousClock.now
            var outcome = RawConnection.Outcome.stillOpen
            for byte in Self.signIn.dropLast(2) where outcome == .stillOpen {
                trickle.send(String(byte))
                outcome = try await trickle.outcome(within: 0.2)
            }
            // Then: both are cut at the header timeout, before the idle timeout
            #expect(outcome == .closed)
            #expect(ContinuousClock.now - began < .seconds(4.5), "closed after \(ContinuousClock.now - began)")
            // (the silent one's close may still be on its way under load: a moment's wait, well before the idle timeout)
            #expect(try await silent.outcome(within: 1) == .closed)
            #expect(ContinuousClock.now - began < .seconds(4.8), "silent closed after \(ContinuousClock.now - began)")

            // Given: a kept-alive connection after one answered request
            let kept = try RawConnection(port: port)
            kept.send(Self.signIn)
            guard case .data(let answer) = try await kept.outcome(within: 10) else {
                Issue.record("/signin did not answer")
                return
            }
            #expect(answer.hasPrefix("HTTP/1.1 "))
            // it may wait between requests longer than the header timeout, but is closed at the idle timeout
            #expect(try await kept.outcome(within: 2) == .stillOpen)
            #expect(try await kept.outcome(within: 8) == .closed)
        }
    }

    @Test(
        "behind --trust-proxy the proxy (loopback) has no cap of its own but counts toward the maximum: past it a request waits for a free connection"
    )
    func proxyCountsTowardTheMaximum() async throws {
        try await Self.serving({
            $0.trustProxy = true
            $0.connections.maxConnectionsPerAddress = 4
            $0.connections.maxConnections = 10
            $0.connections.idleTimeout = 60
            $0.connections.headerTimeout = 60
        }) { port in
            // Given: the proxy holds 10 connections, past its per-address cap of 4
            var held = try (0..<10).map { _ in try RawConnection(port: port) }
            for connection in held { connection.send("GET /sig") }
            for (index, connection) in held.enumerated() {
                #expect(try await connection.outcome(within: 0.3) == .stillOpen, "proxy connection \(index)")
            }
            // When it asks over an eleventh connection, there is no answer while all 10 are held…
            let waiting = try RawConnection(port: port)
            waiting.send(Self.signIn)
            #expect(try await waiting.outcome(within: 1) == .stillOpen)
            // …until one of them closes
            held.removeFirst()
            guard case .data(let answer) = try await waiting.outcome(within: 10) else {
                Issue.record("the waiting request was never answered")
                return
            }
            #expect(answer.hasPrefix("HTTP/1.1 "))
        }
    }

    /// Runs the web app's real server (`WebApp.application`, as `wdiet serve` does) on a free
    /// loopback port over a fresh store, until `body` returns.
    static func serving(_ configure: (inout WebConfiguration) -> Void, _ body: @Sendable (Int) async throws -> Void) async throws {
        let harness = try WebHarness { configuration in
            configuration.host = "127.0.0.1"
            configuration.port = 0
            configure(&configuration)
        }
        defer { harness.remove() }
        let ports = AsyncStream<Int>.makeStream()
        let logger = Logger(label: "wdiet.serve.test")
        let application = try harness.app.application(logger: logger) { port in ports.continuation.yield(port) }
        let services = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let running = Task { try await services.run() }
        var iterator = ports.stream.makeAsyncIterator()
        var failure: (any Error)? = RawConnectionError.serverDidNotStart
        if let port = await iterator.next() {
            do {
                try await body(port)
                failure = nil
            } catch {
                failure = error
            }
        }
        await services.triggerGracefulShutdown()
        _ = await running.result
        if let failure { throw failure }
    }
}
