import Foundation
import Hummingbird
import Logging
import PostgresNIO
import SyncProtocol

/// The signed-in user's account: devices, export, deletion.
struct AccountController: Sendable {
    let database: ServerDatabase
    let sessions: Sessions
    let logger: Logger

    func addRoutes(to group: RouterGroup<ServerContext>) {
        group.get(RouterPath(AccountPaths.devices), use: devices)
        group.delete(RouterPath(AccountPaths.devices + "/:id"), use: revokeDevice)
        group.get(RouterPath(AccountPaths.export), use: export)
        group.delete(RouterPath(AccountPaths.account), use: deleteAccount)
    }

    @Sendable func devices(request: Request, context: ServerContext) async throws -> JSONBody<[DeviceSession]> {
        let caller = try context.requireCaller()
        let list = try await database.withCaller(caller) { [sessions] connection in
            try await sessions.list(current: caller.sessionID, on: connection)
        }
        return JSONBody(list)
    }

    @Sendable func revokeDevice(request: Request, context: ServerContext) async throws -> HTTPResponse.Status {
        let caller = try context.requireCaller()
        let text = context.parameters.get("id") ?? ""
        guard let id = UUID(uuidString: text) else { throw APIError.badRequest("\"\(text.prefix(40))\" is not a device id.") }
        let found = try await database.withCaller(caller) { [sessions] connection in
            try await sessions.revoke(sessionID: id, on: connection)
        }
        guard found else { throw APIError.notFound("The device") }
        return .noContent
    }

    @Sendable func export(request: Request, context: ServerContext) async throws -> JSONBody<AccountExport> {
        let caller = try context.requireCaller()
        let export = try await database.withCaller(caller) { [sessions, logger] connection in
            var user: (String?, Date)?
            for try await row in try await connection.query("SELECT email, created_at FROM users", logger: logger)
                .decode((String?, Date).self) { user = row }
            guard let user else { throw APIError.notFound("The account") }
            var rows: [AccountExport.Row] = []
            let result = try await connection.query("""
                SELECT table_name, id, hlc, deleted, row::text FROM sync_rows ORDER BY table_name, seq
                """, logger: logger)
            for try await (table, id, stamp, deleted, row) in result.decode((String, UUID, String, Bool, String).self) {
                guard let table = SyncTable(rawValue: table), let hlc = HLC(stamp) else { continue }
                rows.append(.init(table: table, id: id, hlc: hlc, deleted: deleted,
                                  row: try JSONDecoder().decode(JSONValue.self, from: Data(row.utf8))))
            }
            return AccountExport(userID: caller.userID, email: user.0, createdAt: user.1,
                                 devices: try await sessions.list(current: caller.sessionID, on: connection), rows: rows)
        }
        return JSONBody(export)
    }

    /// Deletes the user and, by cascade, every row of theirs; all devices are signed out
    /// because their sessions go with it.
    @Sendable func deleteAccount(request: Request, context: ServerContext) async throws -> HTTPResponse.Status {
        let caller = try context.requireCaller()
        try await database.withCaller(caller) { [logger] connection in
            // The account's sign-in attempts are tagged with a hash of its email: they go too.
            for try await email in try await connection.query("SELECT email FROM users WHERE email IS NOT NULL", logger: logger).decode(String.self) {
                try await connection.query("DELETE FROM auth_attempts WHERE account = \(AttemptLimiter.Key.account(email))", logger: logger)
            }
            try await connection.query("DELETE FROM sync_rows WHERE user_id = \(caller.userID)", logger: logger)
            try await connection.query("DELETE FROM user_usage WHERE user_id = \(caller.userID)", logger: logger)
            try await connection.query("DELETE FROM refresh_tokens WHERE user_id = \(caller.userID)", logger: logger)
            try await connection.query("DELETE FROM sessions WHERE user_id = \(caller.userID)", logger: logger)
            try await connection.query("DELETE FROM users WHERE id = \(caller.userID)", logger: logger)
        }
        logger.info("account deleted")
        return .noContent
    }
}
