import Foundation
import Hummingbird
import Logging
import PostgresNIO
import SyncProtocol

/// The signed-in user's account: devices, export, deletion.
struct AccountController: PerRequestLogging {
    let database: ServerDatabase
    let sessions: Sessions
    let logger: Logger

    func addRoutes(to group: RouterGroup<ServerContext>) {
        group.get(RouterPath(AccountPaths.devices), use: perRequest(Self.devices))
        group.delete(RouterPath(AccountPaths.devices + "/:id"), use: perRequest(Self.revokeDevice))
        group.get(RouterPath(AccountPaths.export), use: perRequest(Self.export))
        group.delete(RouterPath(AccountPaths.account), use: perRequest(Self.deleteAccount))
    }

    func logging(to logger: Logger) -> AccountController {
        AccountController(database: database.logging(to: logger), sessions: sessions.logging(to: logger), logger: logger)
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
        let export = try await database.withCaller(caller) { [sessions] connection in
            let users = UserRepository(logger: logger)
            guard let user = try await users.profile(on: connection) else { throw APIError.notFound("The account") }
            return AccountExport(
                userID: caller.userID,
                email: user.email,
                createdAt: user.createdAt,
                devices: try await sessions.list(current: caller.sessionID, on: connection),
                rows: try await users.exportRows(on: connection)
            )
        }
        return JSONBody(export)
    }

    /// Deletes the user and, by cascade, every row of theirs; all devices are signed out
    /// because their sessions go with it.
    @Sendable func deleteAccount(request: Request, context: ServerContext) async throws -> HTTPResponse.Status {
        let caller = try context.requireCaller()
        try await database.withCaller(caller) { [logger] connection in
            try await UserRepository(logger: logger).delete(userID: caller.userID, on: connection)
        }
        logger.info("account deleted")
        return .noContent
    }
}
