import Foundation
import ServerTestSupport
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
}
