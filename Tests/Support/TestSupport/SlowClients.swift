import Foundation

/// One client holding its connection cap and reopening whatever the server closes, while
/// another client asks for a page: how long the page takes then.
public enum SlowClients {
    public struct NoAnswer: Error, CustomStringConvertible {
        public let probe: Int
        public let outcome: RawConnection.Outcome

        public var description: String { "probe \(probe) got no HTTP answer: \(outcome)" }
    }

    /// The connections of `connections` still open `seconds` after they were made, and how
    /// many the server closed by then. (Which of several connections made at once a server
    /// admits depends on its threads, not on their order.)
    public static func stillOpen(_ connections: [RawConnection], after seconds: Double) async throws -> (open: [RawConnection], closed: Int) {
        try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
        var open: [RawConnection] = []
        var closed = 0
        for connection in connections {
            switch try await connection.outcome(within: 0) {
            case .stillOpen: open.append(connection)
            case .closed: closed += 1
            case .data: break
            }
        }
        return (open, closed)
    }

    /// Asks `request` over a connection from `connect` `probes` times, 100 ms apart; before
    /// each probe `reopen` opens the attacker's next burst of connections (each sends half a
    /// request line, as the held ones did). Returns each probe's time to its first answer
    /// bytes; throws when one gets no HTTP answer within 10 s.
    public static func answerTimes(
        probes: Int,
        request: String,
        reopen: () async throws -> [RawConnection],
        connect: () throws -> RawConnection
    ) async throws -> [Duration] {
        var times: [Duration] = []
        var attack: [RawConnection] = []
        for probe in 0..<probes {
            attack = try await reopen()
            for connection in attack { connection.send("GET /hea") }
            let began = ContinuousClock.now
            let client = try connect()
            client.send(request)
            let outcome = try await client.outcome(within: 10)
            guard case .data(let answer) = outcome, answer.hasPrefix("HTTP/1.1 ") else { throw NoAnswer(probe: probe, outcome: outcome) }
            times.append(ContinuousClock.now - began)
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        _ = attack
        return times
    }
}
