import Foundation
import Synchronization
import Testing

@testable import DietServer

/// Pushes of one user take turns in memory, in arrival order; other users' pushes do not wait.
@Suite("Per-user turns on one instance")
struct UserTurnsTests {
    /// What the turns did, in order.
    final class Journal: Sendable {
        private let events = Mutex<[String]>([])
        func note(_ event: String) { events.withLock { $0.append(event) } }
        var all: [String] { events.withLock { $0 } }
    }

    /// How many run at once, and the most that ever did.
    final class Gauge: Sendable {
        private let state = Mutex((now: 0, most: 0))
        func enter() {
            state.withLock { gauge in
                gauge.now += 1
                gauge.most = max(gauge.most, gauge.now)
            }
        }
        func leave() { state.withLock { $0.now -= 1 } }
        var most: Int { state.withLock { $0.most } }
    }

    /// Waits until `condition` holds, for at most 5 s.
    static func eventually(_ condition: () async -> Bool) async throws -> Bool {
        for _ in 0..<500 {
            if await condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return await condition()
    }

    @Test("with width 1, one user's pushes run one at a time, in the order they came, and a throwing one hands the turn on")
    func oneUserTakesTurns() async throws {
        let turns = UserTurns(width: 1)
        let journal = Journal()
        let anna = UUID()
        struct Refused: Error {}
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<4 {
                group.addTask {
                    do {
                        try await turns.withTurn(of: anna) {
                            journal.note("start \(index)")
                            try await Task.sleep(for: .milliseconds(30))
                            journal.note("end \(index)")
                            if index == 1 { throw Refused() }
                        }
                    } catch is Refused {}
                }
                // The next push arrives once this one is running or waiting.
                #expect(try await Self.eventually { await turns.busyUsers == 1 } == true)
                try await Task.sleep(for: .milliseconds(5))
            }
            try await group.waitForAll()
        }
        #expect(journal.all == (0..<4).flatMap { ["start \($0)", "end \($0)"] })
        #expect(await turns.busyUsers == 0)
    }

    @Test("with width 2, at most two of one user's pushes run at once; the third starts when one ends")
    func twoAtOnce() async throws {
        let turns = UserTurns(width: 2)
        let journal = Journal()
        let anna = UUID()
        let running = Gauge()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<5 {
                group.addTask {
                    try await turns.withTurn(of: anna) {
                        running.enter()
                        journal.note("start \(index)")
                        try await Task.sleep(for: .milliseconds(40))
                        running.leave()
                    }
                }
                try await Task.sleep(for: .milliseconds(5))
            }
            try await group.waitForAll()
        }
        #expect(running.most == 2)
        #expect(journal.all == (0..<5).map { "start \($0)" })
        #expect(await turns.busyUsers == 0)
    }

    @Test("another user's push runs while one user's push is still running")
    func otherUsersDoNotWait() async throws {
        let turns = UserTurns(width: 1)
        let journal = Journal()
        let (anna, ben) = (UUID(), UUID())
        let annas = Task {
            try await turns.withTurn(of: anna) {
                journal.note("anna started")
                // Anna's push ends only after Ben's has run (or after 5 s, which fails below).
                _ = try await Self.eventually { journal.all.contains("ben done") }
                journal.note("anna done")
            }
        }
        _ = try await Self.eventually { journal.all.contains("anna started") }
        try await turns.withTurn(of: ben) { journal.note("ben done") }
        try await annas.value
        #expect(journal.all == ["anna started", "ben done", "anna done"])
    }
}
