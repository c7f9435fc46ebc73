import ArgumentParser
import DietCore
import DietStore
import DietSync
import Foundation
import SyncProtocol

/// `wdiet sync`: push what waits, pull what is new.
struct SyncCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "sync", abstract: "Sync this device with your account now.")

    @Flag(help: "Show pending changes and the last successful sync instead of syncing.") var status = false
    @Flag(help: "Print JSON for scripts (with --status).") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) async throws -> String {
        if status { return try Self.status(options: options, context: context, json: json) }
        let session = try Session.open(options, context: context)
        var synchronizer = Synchronizer(store: session.store, file: AccountFile(databasePath: options.resolvedPath(environment: context.environment)))
        if let size = context.environment["WDIET_SYNC_BATCH"].flatMap(Int.init), (1...SyncPaths.maxBatch).contains(size) {
            synchronizer.batchSize = size
        }
        do {
            return Self.summary(try await synchronizer.syncWithRetry(), session.localizer)
        } catch SyncError.offline {
            // Being offline is normal: say what waits, and succeed.
            let pending = try session.store.syncStatus().pending
            return session.localizer.text("cli.sync.offline", ["count": .integer(pending)])
        } catch {
            throw Self.cliError(error, server: nil, session: session)
        }
    }

    static func summary(_ report: SyncReport, _ l: Localizer) -> String {
        var lines = [l.text("cli.sync.done", ["up": .integer(report.pushed), "down": .integer(report.pulled)])]
        if report.refused > 0 { lines.append(l.text("cli.sync.refused", ["count": .integer(report.refused)])) }
        if let held = report.uploadsHeld { lines.append(l.text("cli.sync.uploadsHeld", ["message": .text(held)])) }
        if report.setAside > 0 { lines.append(l.text("cli.sync.setAside", ["count": .integer(report.setAside)])) }
        return lines.joined(separator: "\n")
    }

    static func cliError(_ error: any Error, server: URL?, session: Session) -> CLIError {
        let l = session.localizer
        switch error {
        case SyncError.offline:
            return CLIError(l.text("cli.account.error.offline", ["server": .text(server?.absoluteString ?? "")]))
        case SyncError.signedOut:
            return CLIError(l.text("cli.sync.signedOut"))
        case SyncError.notSignedIn:
            return CLIError(l.text("cli.account.none"))
        case let SyncError.server(_, _, message):
            return CLIError(l.text("cli.account.error.server", ["message": .text(message)]))
        case let SyncError.invalidResponse(detail):
            return CLIError(l.text("cli.account.error.server", ["message": .text(detail)]))
        case let error as StoreError:
            return CLIError(error.message(l))
        default:
            return CLIError("\(error)")
        }
    }

    struct StatusJSON: Encodable {
        let signedIn: Bool
        let email: String?
        let server: String?
        let device: String
        let pending: Int
        let rejected: [[String: String]]
        let setAside: [[String: String]]
        let lastSyncAt: Date?
    }

    static func status(options: StoreOptions, context: CLIContext, json: Bool) throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        let account = try AccountFile(databasePath: options.resolvedPath(environment: context.environment)).load()
        let status = try session.store.syncStatus()
        if json {
            return try JSONOutput.encode(
                StatusJSON(
                    signedIn: account != nil,
                    email: account?.email,
                    server: account?.server.absoluteString,
                    device: status.deviceID,
                    pending: status.pending,
                    rejected: status.rejected.map { ["table": $0.table, "id": $0.rowID, "reason": $0.reason] },
                    setAside: status.setAside.map { ["table": $0.table, "id": $0.rowID, "reason": $0.reason] },
                    lastSyncAt: status.lastSyncAt
                )
            )
        }
        var lines: [String] = []
        if let account {
            lines.append(l.text("cli.account.status", ["email": .text(account.email), "server": .text(account.server.absoluteString)]))
        } else {
            lines.append(l.text("cli.account.none"))
        }
        lines.append(l.text("cli.sync.device", ["device": .text(status.deviceID)]))
        lines.append(l.text("cli.sync.pending", ["count": .integer(status.pending)]))
        if let last = status.lastSyncAt {
            lines.append(
                l.text(
                    "cli.sync.lastSync",
                    [
                        "date": .date(LocalDate(last, in: session.timeZone)),
                        "time": .time(TimeOfDay(last, in: session.timeZone)),
                    ]
                )
            )
        } else if account != nil {
            lines.append(l.text("cli.sync.never"))
        }
        lines += status.problemLines(l)
        return lines.joined(separator: "\n")
    }
}
