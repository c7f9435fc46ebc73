import Foundation
import Logging
import ServiceLifecycle
import WhoopAPI

/// Refreshes WHOOP tokens before they expire. Runs on every instance; each user's refresh
/// happens under a transaction-scoped advisory lock taken with `pg_try_advisory_xact_lock`
/// and re-reads the row after taking it, so however many instances find a user due, WHOOP
/// sees one refresh (its refresh tokens rotate: a second refresh with the old one would fail).
struct WhoopRefreshService: Service {
    /// Tokens expiring within this are refreshed.
    static let lead: TimeInterval = 10 * 60

    enum Outcome: String, Sendable {
        case ok, skipped, failed
    }

    let connector: WhoopConnector?
    let interval: TimeInterval
    let logger: Logger

    init(database: ServerDatabase, configuration: ServerConfiguration, logger: Logger) {
        connector = WhoopConnector(configuration: configuration, database: database, logger: logger)
        interval = configuration.whoopRefreshInterval
        self.logger = logger
    }

    func run() async throws {
        // Without WHOOP there is nothing to do but wait for the end.
        guard connector != nil else { return try await gracefulShutdown() }
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await runOnce()
                try await Task.sleep(for: .seconds(interval))
            }
        }
    }

    /// One pass: every user whose token expires within `lead`; returns each user's outcome.
    @discardableResult
    func runOnce(now: Date = Date()) async -> [UUID: Outcome] {
        guard let connector else { return [:] }
        let due: [UUID]
        do {
            due = try await connector.database.withoutUser { [repository = connector.repository] in
                try await repository.usersDue(before: now.addingTimeInterval(Self.lead), on: $0)
            }
        } catch {
            logger.error("WHOOP refresh: the due users could not be read", metadata: ["error": "\(WhoopConnector.describe(error))"])
            return [:]
        }
        var outcomes: [UUID: Outcome] = [:]
        for userID in due {
            let outcome = await refresh(userID: userID, now: now, connector: connector)
            ServerMetrics.whoopJob("refresh", outcome: outcome.rawValue)
            outcomes[userID] = outcome
        }
        return outcomes
    }

    /// Refreshes one user unless another instance holds the user's lock or already did it.
    /// A refresh token WHOOP refuses ends the connection: the user connects again.
    private func refresh(userID: UUID, now: Date, connector: WhoopConnector) async -> Outcome {
        do {
            return try await connector.database.withUser(userID) { [logger] connection in
                let repository = connector.repository
                guard try await repository.tryRefreshLock(userID: userID, on: connection),
                    let stored = try await repository.connection(on: connection),
                    stored.expiresAt < now.addingTimeInterval(Self.lead)
                else { return .skipped }
                let client = WhoopClient(
                    configuration: connector.whoop,
                    tokens: try connector.box.open(stored.sealedTokens, for: userID),
                    saveTokens: { _ in }
                )
                do {
                    try await client.refresh()
                } catch WhoopError.reconnectNeeded {
                    logger.warning("WHOOP refused the refresh token; the connection is forgotten")
                    try await repository.deleteConnection(on: connection)
                    return .failed
                }
                let fresh = await client.tokens
                try await repository.updateTokens(try connector.box.seal(fresh, for: userID), expiresAt: fresh.expiresAt, on: connection)
                return .ok
            }
        } catch {
            logger.warning("WHOOP refresh failed", metadata: ["error": "\(WhoopConnector.describe(error))"])
            return .failed
        }
    }
}
