import Foundation
import Hummingbird
import Logging
import PostgresNIO
import SyncProtocol

/// `POST /v1/sync/push` and `GET /v1/sync/pull`.
struct SyncController: PerRequestLogging {
    let database: ServerDatabase
    /// One push per user at a time on this instance, before it takes a connection.
    let turns: UserTurns
    let quota: QuotaPolicy
    let logger: Logger

    func addRoutes(to group: RouterGroup<ServerContext>) {
        group.post(RouterPath(SyncPaths.push), use: perRequest(Self.push))
        group.get(RouterPath(SyncPaths.pull), use: perRequest(Self.pull))
    }

    func logging(to logger: Logger) -> SyncController {
        SyncController(database: database.logging(to: logger), turns: turns, quota: quota, logger: logger)
    }

    @Sendable func push(request: Request, context: ServerContext) async throws -> JSONBody<PushResponse> {
        let caller = try context.requireCaller()
        let buffer = try await request.collectBody(context: context)
        // The reader takes well-formed bodies; JSONDecoder names what is wrong with the rest.
        let body = try buffer.withUnsafeReadableBytes { PushBodyReader.read($0) } ?? Request.decodeJSON(PushRequest.self, from: buffer)
        guard body.changes.count <= SyncPaths.maxBatch else {
            throw APIError.badRequest("A push holds at most \(SyncPaths.maxBatch) changes; this one has \(body.changes.count).")
        }
        // Each change is checked against the row contract: an invalid one is rejected with its
        // reason and the valid rest applies.
        let plan = SyncRepository.Plan(changes: body.changes, now: Date())
        // One call sets the user, takes the user's write lock, checks the session under it,
        // stores and commits: one round trip to PostgreSQL. At most two pushes of the user
        // hold a connection (`UserTurns`); the others wait in memory.
        let applied = try await turns.withTurn(of: caller.userID) { [database, logger, quota] in
            try await database.autocommit { connection in
                try await SyncRepository(logger: logger).applyCommitted(
                    plan,
                    userID: caller.userID,
                    session: caller.sessionID,
                    quota: quota,
                    on: connection
                )
            }
        }
        let results = plan.results(applied: applied)
        let rejected = results.count { $0.status == .rejected }
        let appliedCount = results.count { $0.status == .applied }
        ServerMetrics.push(applied: appliedCount, ignored: results.count - appliedCount - rejected, rejected: rejected)
        return JSONBody(PushResponse(results: results))
    }

    @Sendable func pull(request: Request, context: ServerContext) async throws -> Response {
        let caller = try context.requireCaller()
        let query = request.uri.queryParameters
        let cursor = try Self.integer(query["cursor"].map(String.init), name: "cursor", default: 0, range: 0...Int64.max)
        let limit = try Self.integer(
            query["limit"].map(String.init),
            name: "limit",
            default: Int64(SyncPaths.maxBatch),
            range: 1...Int64(SyncPaths.maxBatch)
        )
        let page = try await database.withCaller(caller) { [logger] connection in
            try await SyncRepository(logger: logger).pageJSON(after: cursor, limit: Int(limit), on: connection)
        }
        ServerMetrics.pull(changes: page.changes)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: page.json)
        )
    }

    static func integer(_ text: String?, name: String, default value: Int64, range: ClosedRange<Int64>) throws -> Int64 {
        guard let text else { return value }
        guard let number = Int64(text), range.contains(number) else {
            throw APIError.badRequest(
                "Query parameter \(name) must be a whole number from \(range.lowerBound) to \(range.upperBound); got \"\(text.prefix(40))\"."
            )
        }
        return number
    }
}
