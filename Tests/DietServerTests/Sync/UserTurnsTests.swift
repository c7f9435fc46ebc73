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

    /// Closed until the test opens it; the pushes wait at it, so nothing ends before the test says.
    final class Gate: Sendable {
        private let opened = Mutex(false)
        func open() { opened.withLock { $0 = true } }
        func pass() async throws { _ = try await UserTurnsTests.eventually { self.opened.withLock { $0 } } }
    }

    /// A push the test makes fail.
    struct Refused: Error {}

    /// Waits until `condition` holds, for at most 5 s.
    static func eventually(_ condition: () async -> Bool) async throws -> Bool {
        for _ in 0..<500 {
            if await condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return await condition()
    }

    /// Starts `count` pushes of `user` one after another, each only once the one before is
    /// running or waiting, so they arrive in index order; then opens the gate and waits for all.
    static func push(
        _ count: Int,
        of user: UUID,
        through turns: UserTurns,
        gate: Gate,
        beforeOpening check: () async -> Void,
        _ body: @escaping @Sendable (Int) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    do { try await turns.withTurn(of: user) { try await body(index) } } catch is Refused {}
                }
                #expect(try await eventually { await turns.queued(of: user) == index + 1 })
            }
            await check()
            gate.open()
            try await group.waitForAll()
        }
    }

    @Test("with width 1, one user's pushes run one at a time, in the order they came, and a throwing one hands the turn on")
    func oneUserTakesTurns() async throws {
        let turns = UserTurns(width: 1)
        let (journal, gate, anna) = (Journal(), Gate(), UUID())
        try await Self.push(4, of: anna, through: turns, gate: gate, beforeOpening: { #expect(journal.all == ["start 0"]) }) { index in
            journal.note("start \(index)")
            try await gate.pass()
            journal.note("end \(index)")
            if index == 1 { throw Refused() }
        }
        #expect(journal.all == (0..<4).flatMap { ["start \($0)", "end \($0)"] })
        #expect(await turns.queued(of: anna) == 0)
    }

    @Test("with width 2, at most two of one user's pushes run at once; the others start in arrival order as places free")
    func twoAtOnce() async throws {
        let turns = UserTurns(width: 2)
        let (journal, gate, anna, running) = (Journal(), Gate(), UUID(), Gauge())
        try await Self.push(5, of: anna, through: turns, gate: gate, beforeOpening: { #expect(journal.all == ["start 0", "start 1"]) }) {
            index in
            running.enter()
            journal.note("start \(index)")
            try await gate.pass()
            running.leave()
        }
        #expect(running.most == 2)
        #expect(journal.all == (0..<5).map { "start \($0)" })
        #expect(await turns.queued(of: anna) == 0)
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
