import Foundation
import Logging
import PostgresNIO
import SyncProtocol

/// The `users` table and what belongs to an account as a whole (its export, its deletion).
/// Look-ups before anyone is signed in go through the migrations' SECURITY DEFINER functions;
/// everything else runs in the user's transaction, under row-level security.
struct UserRepository: Sendable {
    let logger: Logger

    /// The id and password hash of the account with this (lower-case) email, if any. Runs
    /// without a user.
    func credentials(email: String, on connection: PostgresConnection) async throws -> (id: UUID, passwordHash: String?)? {
        let rows = try await connection.query("SELECT id, password_hash FROM auth_user_by_email(\(email))", logger: logger)
        for try await (id, hash) in rows.decode((UUID, String?).self) { return (id, hash) }
        return nil
    }

    /// The account signed in with this Apple subject, if any. Runs without a user.
    func user(appleSubject: String, on connection: PostgresConnection) async throws -> UUID? {
        let rows = try await connection.query("SELECT auth_user_by_apple(\(appleSubject))", logger: logger)
        for try await id in rows.decode(UUID?.self) { return id }
        return nil
    }

    /// Whether any account uses this (lower-case) email.
    func emailTaken(_ email: String, on connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.query("SELECT auth_email_taken(\(email))", logger: logger)
        for try await isTaken in rows.decode(Bool.self) { return isTaken }
        return false
    }

    /// Creates the account; 409 `email_taken` when the email is in use.
    func insert(
        id: UUID,
        email: String?,
        passwordHash: String? = nil,
        appleSubject: String? = nil,
        on connection: PostgresConnection
    ) async throws {
        do {
            try await connection.query(
                """
                INSERT INTO users (id, email, password_hash, apple_subject) VALUES (\(id), \(email), \(passwordHash), \(appleSubject))
                """,
                logger: logger
            )
        } catch let error as PSQLError where error.sqlState == "23505" && error.serverInfo?[.constraintName] == "users_email_key" {
            throw APIError(status: .conflict, code: "email_taken", message: "An account with this email already exists; sign in instead.")
        }
    }

    /// The signed-in user's email and creation time.
    func profile(on connection: PostgresConnection) async throws -> (email: String?, createdAt: Date)? {
        for try await row in try await connection.query("SELECT email, created_at FROM users", logger: logger)
            .decode((String?, Date).self)
        { return row }
        return nil
    }

    /// Every synced row of the signed-in user, by table and age, for the export.
    func exportRows(on connection: PostgresConnection) async throws -> [AccountExport.Row] {
        var rows: [AccountExport.Row] = []
        let result = try await connection.query(
            """
            SELECT table_name, id, hlc, deleted, row::text FROM sync_rows ORDER BY table_name, seq
            """,
            logger: logger
        )
        for try await (table, id, stamp, deleted, row) in result.decode((String, UUID, String, Bool, String).self) {
            guard let table = SyncTable(rawValue: table), let hlc = HLC(stamp) else { continue }
            rows.append(
                .init(
                    table: table,
                    id: id,
                    hlc: hlc,
                    deleted: deleted,
                    row: try JSONDecoder().decode(JSONValue.self, from: Data(row.utf8))
                )
            )
        }
        return rows
    }

    /// Deletes the user and every row of theirs, in the user's transaction. The account's
    /// sign-in attempts are tagged with a hash of its email: they go too.
    func delete(userID: UUID, on connection: PostgresConnection) async throws {
        let attempts = AttemptRepository(logger: logger)
        for try await email in try await connection.query("SELECT email FROM users WHERE email IS NOT NULL", logger: logger).decode(String.self) {
            try await attempts.delete(account: AttemptLimiter.Key.account(email), on: connection)
        }
        try await connection.query("DELETE FROM sync_rows WHERE user_id = \(userID)", logger: logger)
        try await connection.query("DELETE FROM user_usage WHERE user_id = \(userID)", logger: logger)
        try await SessionRepository(logger: logger).deleteAll(userID: userID, on: connection)
        try await connection.query("DELETE FROM users WHERE id = \(userID)", logger: logger)
    }
}
