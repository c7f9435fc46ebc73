import Foundation
import ServerTestSupport
import TestSupport
import Testing

@testable import DietServer

@Suite("Slow and idle clients")
struct ConnectionTests {
    @Test("a client that sends part of a request line and nothing more is disconnected after the idle timeout")
    func partialRequestLineIsClosed() async throws {
        try await ServerHarness.withRunningServer(configure: { $0.connections.idleTimeout = 1 }) { port in
            // Given
            let slow = try RawConnection(port: port)
            // When
            slow.send("GET /hea")
            // Then: closed by the server, long before this test would give up
            #expect(try await slow.outcome(within: 30) == .closed)
        }
    }

    @Test("with many half-open connections past the connection limit, /health keeps answering and every slow client is let go")
    func healthAnswersUnderHalfOpenConnections() async throws {
        try await ServerHarness.withRunningServer(configure: {
            $0.connections.idleTimeout = 1
            $0.connections.maxConnections = 8
        }) { port in
            // Given: 40 connections that each send part of a request line
            let slow = try (0..<40).map { _ in try RawConnection(port: port) }
            for connection in slow { connection.send("POST /v1/auth/lo") }
            // When
            let health = try RawConnection(port: port)
            health.send("GET /health HTTP/1.1\r\nHost: test\r\n\r\n")
            // Then
            guard case .data(let answer) = try await health.outcome(within: 60) else {
                Issue.record("/health did not answer")
                return
            }
            #expect(answer.hasPrefix("HTTP/1.1 200"))
            for (index, connection) in slow.enumerated() {
                let outcome = try await connection.outcome(within: 30)
                guard outcome == .closed else {
                    Issue.record("slow client \(index): \(outcome) instead of closed")
                    break
                }
            }
        }
    }

    @Test("a request body trickled a byte at a time is cut at the body deadline")
    func trickledBodyIsCut() async throws {
        try await ServerHarness.withRunningServer(configure: {
            $0.connections.idleTimeout = 5
            $0.connections.bodyTimeout = 1
        }) { port in
            // Given: headers announcing 200 bytes
            let slow = try RawConnection(port: port)
            slow.send("POST /v1/auth/login HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{")
            // When: one byte every 200 ms, each well within the idle timeout
            var outcome = RawConnection.Outcome.stillOpen
            for _ in 0..<150 where outcome == .stillOpen {
                slow.send(" ")
                outcome = try await slow.outcome(within: 0.2)
            }
            // Then: the server closed it before the body could complete
            #expect(outcome == .closed)
        }
    }

    @Test(
        "one address holding its cap of half-open connections: more from it are closed at once, even reopened; /health answers another address promptly"
    )
    func perAddressCap() async throws {
        try await ServerHarness.withRunningServer(configure: {
            $0.connections.maxConnectionsPerAddress = 8
            $0.connections.maxConnections = 64
            $0.connections.idleTimeout = 60
            $0.connections.headerTimeout = 60
        }) { port in
            // Given: 127.0.0.2 opens 20 connections, each with half a request line
            let opened = try (0..<20).map { _ in try RawConnection(port: port, from: "127.0.0.2") }
            for connection in opened { connection.send("GET /hea") }
            // Then 8 are held and the 12 past the cap closed at once
            let (held, closed) = try await SlowClients.stillOpen(opened, after: 1)
            #expect(held.count == 8 && closed == 12, "\(held.count) held, \(closed) closed")
            // …and while it keeps reopening each one closed, /health answers 127.0.0.1 every time, promptly
            let times = try await SlowClients.answerTimes(
                probes: 5,
                request: "GET /health HTTP/1.1\r\nHost: test\r\n\r\n",
                reopen: { try (0..<12).map { _ in try RawConnection(port: port, from: "127.0.0.2") } },
                connect: { try RawConnection(port: port, from: "127.0.0.1") }
            )
            #expect(times.allSatisfy { $0 < .seconds(2) }, "/health took \(times)")
            #expect(try await SlowClients.stillOpen(held, after: 0).open.count == 8)
        }
    }

    @Test("a trusted proxy's address has no cap of its own: it holds more than the cap, and others are still capped")
    func trustedProxyIsExempt() async throws {
        try await ServerHarness.withRunningServer(configure: {
            $0.connections.maxConnectionsPerAddress = 4
            $0.connections.idleTimeout = 60
            $0.connections.headerTimeout = 60
            $0.clientAddress.trustedProxies = [IPRange("127.0.0.3")].compactMap { $0 }
        }) { port in
            // Given: the proxy holds 10 connections
            let proxied = try (0..<10).map { _ in try RawConnection(port: port, from: "127.0.0.3") }
            for connection in proxied { connection.send("GET /hea") }
            // Then: all of them are held
            #expect(try await SlowClients.stillOpen(proxied, after: 1).open.count == 10)
            // and another address is capped at 4
            let other = try (0..<6).map { _ in try RawConnection(port: port, from: "127.0.0.4") }
            let (open, closed) = try await SlowClients.stillOpen(other, after: 1)
            #expect(open.count == 4 && closed == 2, "\(open.count) held, \(closed) closed")
        }
    }

    @Test("request headers must be complete within the header timeout, however slowly they trickle in, on a new connection and a kept-alive one")
    func headerTimeout() async throws {
        try await ServerHarness.withRunningServer(configure: {
            $0.connections.idleTimeout = 30
            $0.connections.headerTimeout = 1
        }) { port in
            // Given: a client trickling a request line, a byte every 200 ms
            let trickle = try RawConnection(port: port)
            let began = ContinuousClock.now
            var outcome = RawConnection.Outcome.stillOpen
            for byte in "GET /health HTTP/1.1\r\nHost: test\r\nX-Slow: " + String(repeating: "a", count: 100) where outcome == .stillOpen {
                trickle.send(String(byte))
                outcome = try await trickle.outcome(within: 0.2)
            }
            // Then: cut at the header timeout, long before the idle timeout
            #expect(outcome == .closed)
            #expect(ContinuousClock.now - began < .seconds(5), "closed after \(ContinuousClock.now - began)")

            // Given: a kept-alive connection after one answered request
            let kept = try RawConnection(port: port)
            kept.send("GET /health HTTP/1.1\r\nHost: test\r\n\r\n")
            guard case .data(let answer) = try await kept.outcome(within: 10) else {
                Issue.record("/health did not answer")
                return
            }
            #expect(answer.hasPrefix("HTTP/1.1 200"))
            // it may wait between requests longer than the header timeout…
            #expect(try await kept.outcome(within: 2) == .stillOpen)
            // …but a second request's headers begun then must be complete within it
            kept.send("GET /hea")
            #expect(try await kept.outcome(within: 4) == .closed)
        }
    }
}
