import Foundation
import Logging
import PostgresNIO
import SyncProtocol
import WhoopAPI

/// What the WHOOP endpoints and the refresh job share: the app's registration, the token box,
/// the tables, and a WHOOP client per user whose new tokens are sealed and saved at once.
struct WhoopConnector: Sendable {
    /// How far back a new connection fetches.
    static let initialDays = 14

    let whoop: WhoopConfiguration
    let database: ServerDatabase
    let box: TokenBox
    let repository: WhoopRepository
    let rows: WhoopRows
    let logger: Logger

    /// The server's connector, or nil without a WHOOP registration or a usable token key.
    init?(configuration: ServerConfiguration, database: ServerDatabase, logger: Logger) {
        guard let whoop = configuration.whoop else { return nil }
        try? self.init(whoop: whoop, database: database, tokenKey: configuration.tokenKey, quota: configuration.quota, logger: logger)
    }

    init(whoop: WhoopConfiguration, database: ServerDatabase, tokenKey: Data, quota: QuotaPolicy, logger: Logger) throws {
        self.init(whoop: whoop, database: database, box: try TokenBox(key: tokenKey), quota: quota, logger: logger)
    }

    private init(whoop: WhoopConfiguration, database: ServerDatabase, box: TokenBox, quota: QuotaPolicy, logger: Logger) {
        self.whoop = whoop
        self.database = database
        self.box = box
        repository = WhoopRepository(logger: logger)
        rows = WhoopRows(logger: logger, quota: quota)
        self.logger = logger
    }

    /// This connector with its statements and lines logged to `logger` (a request's).
    func logging(to logger: Logger) -> WhoopConnector {
        WhoopConnector(whoop: whoop, database: database.logging(to: logger), box: box, quota: rows.quota, logger: logger)
    }

    /// A client with the user's stored tokens; nil when the user is not connected.
    func client(userID: UUID) async throws -> WhoopClient? {
        guard let stored = try await database.withUser(userID, { [repository] in try await repository.connection(on: $0) }) else {
            return nil
        }
        return client(userID: userID, tokens: try box.open(stored.sealedTokens, for: userID))
    }

    func client(userID: UUID, tokens: WhoopTokens) -> WhoopClient {
        WhoopClient(
            configuration: whoop,
            tokens: tokens,
            saveTokens: { [box, database, repository] fresh in
                let sealed = try box.seal(fresh, for: userID)
                try await database.withUser(userID) { try await repository.updateTokens(sealed, expiresAt: fresh.expiresAt, on: $0) }
            }
        )
    }

    /// Fetches the last `initialDays` of every kind into sync rows. A kind that fails is
    /// logged and skipped, so one missing scope does not lose the others.
    func fetchRecent(userID: UUID, client: WhoopClient, now: Date = Date()) async {
        let start = now.addingTimeInterval(-Double(Self.initialDays) * 86400)
        var records: [WhoopRows.Record] = []
        var failed = false
        for kind in WhoopRecordKind.allCases {
            do {
                records += try await Self.collection(kind, client: client, start: start)
            } catch {
                failed = true
                logger.warning("WHOOP fetch failed", metadata: ["kind": "\(kind)", "error": "\(Self.describe(error))"])
            }
        }
        let collected = records
        do {
            try await database.withUser(userID) { [rows, repository] connection in
                try await rows.write(collected, userID: userID, on: connection)
                try await repository.markFetched(on: connection)
            }
            ServerMetrics.whoopJob("fetch", outcome: failed ? "failed" : "ok")
        } catch {
            ServerMetrics.whoopJob("fetch", outcome: "failed")
            logger.error("WHOOP records not stored", metadata: ["error": "\(Self.describe(error))"])
        }
    }

    private static func collection(_ kind: WhoopRecordKind, client: WhoopClient, start: Date) async throws -> [WhoopRows.Record] {
        switch kind {
        case .recovery: try await client.recoveries(start: start).map { try WhoopRows.Record(WhoopSyncedRecord($0)) }
        case .sleep: try await client.sleeps(start: start).map { try WhoopRows.Record(WhoopSyncedRecord($0)) }
        case .cycle: try await client.cycles(start: start).map { try WhoopRows.Record(WhoopSyncedRecord($0)) }
        case .workout: try await client.workouts(start: start).map { try WhoopRows.Record(WhoopSyncedRecord($0)) }
        }
    }

    /// A failure as logs may show it: WHOOP's own errors by their description (never a token),
    /// anything else by its type.
    static func describe(_ error: any Error) -> String {
        if let error = error as? WhoopError { return error.description }
        if let error = error as? APIError { return error.code }
        return String(describing: type(of: error))
    }
}

extension WhoopRows.Record {
    init(_ record: WhoopSyncedRecord) {
        self.init(kind: record.kind, whoopID: record.whoopID, recordedAt: record.recordedAt, json: record.json)
    }
}
