import DietCore
import Foundation
import GRDB
import Testing

@testable import DietStore

/// The store's side of `wdiet serve`'s sign-in: the passphrase, the lock, the sessions.
@Suite("Web access in the store")
struct WebAccessTests {
    static func store() throws -> (AppDatabase, FixedClock) {
        let clock = FixedClock(Date(timeIntervalSince1970: 1_767_600_000))
        return (try AppDatabase(DatabaseQueue(), clock: clock), clock)
    }

    static let hashA = String(repeating: "a", count: 64), hashB = String(repeating: "b", count: 64)

    @Test("failures before any passphrase count and lock; setting the passphrase clears them and leaves one session")
    func lockBeforeAndAfterSetup() throws {
        let (store, clock) = try Self.store()
        #expect(try store.webSignInState() == WebSignInState(passphraseHash: nil, failures: 0, lockedUntil: nil))
        for _ in 0..<4 { #expect(try store.recordWebSignInFailure(limit: 5, lockFor: 900) == nil) }
        #expect(try store.webSignInState().failures == 4)
        let until = try #require(try store.recordWebSignInFailure(limit: 5, lockFor: 900))
        #expect(until == clock.now().addingTimeInterval(900))
        #expect(try store.webSignInState() == WebSignInState(passphraseHash: nil, failures: 0, lockedUntil: until))
        try store.startWebSession(tokenHash: Self.hashA)
        try store.setWebPassphrase(hash: "$2b$04$hash", sessionTokenHash: Self.hashB)
        #expect(try store.webSignInState() == WebSignInState(passphraseHash: "$2b$04$hash", failures: 0, lockedUntil: nil))
        #expect(try store.webSession(tokenHash: Self.hashA) == nil)
        #expect(try store.webSession(tokenHash: Self.hashB) != nil)
    }

    @Test("sessions: touched, ended one by one or all, and ended when idle")
    func sessions() throws {
        let (store, clock) = try Self.store()
        try store.startWebSession(tokenHash: Self.hashA)
        clock.advance(by: 100)
        try store.startWebSession(tokenHash: Self.hashB)
        try store.touchWebSession(tokenHash: Self.hashB)
        #expect(try store.webSession(tokenHash: Self.hashB)?.lastSeenAt == clock.now())
        try store.endWebSessions(idleSince: clock.now().addingTimeInterval(-50))
        #expect(try store.webSessionCount() == 1)
        try store.endWebSessions(tokenHash: nil)
        #expect(try store.webSessionCount() == 0)
    }

    @Test("a malformed token hash is refused by the schema")
    func tokenHashShape() throws {
        let (store, _) = try Self.store()
        #expect(throws: DatabaseError.self) { try store.startWebSession(tokenHash: "short") }
    }
}
