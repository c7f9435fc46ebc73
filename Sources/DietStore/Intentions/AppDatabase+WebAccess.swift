import Foundation
import GRDB

/// A signed-in browser of `wdiet serve`, by the hash of its session token.
public struct WebSession: Equatable, Sendable {
    public let createdAt: Date
    public let lastSeenAt: Date
}

/// Where sign-in stands: whether a passphrase is set, and a lock after failed attempts.
public struct WebSignInState: Equatable, Sendable {
    public let passphraseHash: String?
    public let failures: Int
    public let lockedUntil: Date?
}

/// Sign-in to `wdiet serve` from the home network. The rules (how many failures lock, for
/// how long, the idle timeout) are DietWeb's; the store keeps the state so a restart forgets
/// neither the passphrase, the lock nor the signed-in browsers. Never synced.
extension AppDatabase {
    public func webSignInState() throws -> WebSignInState {
        try reader.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT hash, failures, locked_until FROM web_passphrase WHERE id = 1")
            return WebSignInState(
                passphraseHash: row?["hash"],
                failures: row?["failures"] ?? 0,
                lockedUntil: (row?["locked_until"] as Double?).map(Date.init(timeIntervalSince1970:))
            )
        }
    }

    /// Sets (or replaces) the passphrase's hash and signs every browser out, in one transaction;
    /// the new browser's session is created in the same transaction, so it is the only one left.
    public func setWebPassphrase(hash: String, sessionTokenHash: String) throws {
        let now = clock.now().timeIntervalSince1970
        try writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO web_passphrase (id, hash, set_at, failures, locked_until) VALUES (1, ?, ?, 0, NULL)
                    ON CONFLICT (id) DO UPDATE SET hash = excluded.hash, set_at = excluded.set_at, failures = 0, locked_until = NULL
                    """,
                arguments: [hash, now]
            )
            try db.execute(sql: "DELETE FROM web_sessions")
            try db.execute(
                sql: "INSERT INTO web_sessions (token_hash, created_at, last_seen_at) VALUES (?, ?, ?)",
                arguments: [sessionTokenHash, now, now]
            )
        }
    }

    /// Counts a failed attempt; at `limit` failures in a row, locks sign-in until `now + lockFor`
    /// (and starts counting again). Returns the lock's end when this failure set it.
    @discardableResult
    public func recordWebSignInFailure(limit: Int, lockFor: TimeInterval) throws -> Date? {
        let now = clock.now()
        return try writer.write { db in
            let failures = (try Int.fetchOne(db, sql: "SELECT failures FROM web_passphrase WHERE id = 1") ?? 0) + 1
            let lockedUntil = failures >= limit ? now.addingTimeInterval(lockFor) : nil
            try db.execute(
                sql: """
                    INSERT INTO web_passphrase (id, hash, set_at, failures, locked_until) VALUES (1, NULL, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET failures = excluded.failures, locked_until = coalesce(excluded.locked_until, locked_until)
                    """,
                arguments: [now.timeIntervalSince1970, lockedUntil == nil ? failures : 0, lockedUntil?.timeIntervalSince1970]
            )
            return lockedUntil
        }
    }

    /// A right passphrase: forgets the failures and starts a session.
    public func startWebSession(tokenHash: String) throws {
        let now = clock.now().timeIntervalSince1970
        try writer.write { db in
            try db.execute(sql: "UPDATE web_passphrase SET failures = 0, locked_until = NULL WHERE id = 1")
            try db.execute(
                sql: "INSERT INTO web_sessions (token_hash, created_at, last_seen_at) VALUES (?, ?, ?)",
                arguments: [tokenHash, now, now]
            )
        }
    }

    public func webSession(tokenHash: String) throws -> WebSession? {
        try reader.read { db in
            try Row.fetchOne(db, sql: "SELECT created_at, last_seen_at FROM web_sessions WHERE token_hash = ?", arguments: [tokenHash])
                .map {
                    WebSession(createdAt: Date(timeIntervalSince1970: $0["created_at"]), lastSeenAt: Date(timeIntervalSince1970: $0["last_seen_at"]))
                }
        }
    }

    /// Marks a session as used now (the idle timeout counts from here).
    public func touchWebSession(tokenHash: String) throws {
        let now = clock.now().timeIntervalSince1970
        try writer.write { db in
            try db.execute(sql: "UPDATE web_sessions SET last_seen_at = ? WHERE token_hash = ?", arguments: [now, tokenHash])
        }
    }

    /// Signs one browser out (nil: every browser).
    public func endWebSessions(tokenHash: String?) throws {
        try writer.write { db in
            if let tokenHash {
                try db.execute(sql: "DELETE FROM web_sessions WHERE token_hash = ?", arguments: [tokenHash])
            } else {
                try db.execute(sql: "DELETE FROM web_sessions")
            }
        }
    }

    /// Forgets sessions idle since before `cutoff`.
    public func endWebSessions(idleSince cutoff: Date) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM web_sessions WHERE last_seen_at < ?", arguments: [cutoff.timeIntervalSince1970])
        }
    }

    /// How many browsers are signed in.
    public func webSessionCount() throws -> Int {
        try reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM web_sessions") ?? 0 }
    }
}
