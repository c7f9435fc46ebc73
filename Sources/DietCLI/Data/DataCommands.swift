import ArgumentParser
import DietCore
import DietStore
import DietSync
import Foundation

/// `wdiet export DIR`: JSON plus one CSV per table.
struct ExportCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Export everything as JSON and CSV into a folder.")

    @Argument(help: "The folder to write into (created if missing).") var folder: String
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        _ = try session.requireSettings()
        let url = URL(fileURLWithPath: folder)
        let files: [URL]
        do {
            files = try session.store.export(to: url, timeZone: session.timeZone)
        } catch let error as StoreError {
            throw CLIError(error.message(session.localizer))
        } catch {
            throw CLIError(session.localizer.text("cli.export.failed", ["path": .text(url.path), "reason": .text(error.localizedDescription)]))
        }
        return ([session.localizer.text("cli.export.done", ["count": .integer(files.count), "path": .text(url.path)])]
            + files.map { "  " + $0.lastPathComponent }).joined(separator: "\n")
    }
}

/// `wdiet import FILE`: restores a JSON export into an empty database.
struct ImportCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "import", abstract: "Restore a w-diet JSON export into an empty database.")

    @Argument(help: "The w-diet.json file of an export.") var file: String
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        let export: DataExport
        do {
            export = try JSONDecoder().decode(DataExport.self, from: Data(contentsOf: URL(fileURLWithPath: file)))
        } catch let error as DecodingError {
            throw CLIError(l.text("store.error.importRefused", ["reason": .text(Self.describe(error))]))
        } catch {
            throw CLIError(l.text("cli.import.unreadable", ["path": .text(file)]))
        }
        try session.run { try session.store.importData(export) }
        let rows = export.tables.values.map(\.count).reduce(0, +)
        return l.text("cli.import.done", ["rows": .integer(rows)])
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "missing \(key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.map(\.stringValue).joined(separator: ".") + ": " + context.debugDescription
        @unknown default: "not a w-diet export"
        }
    }
}

/// `wdiet delete-account`: removes every row of the user from this device.
struct DeleteAccountCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "delete-account", abstract: "Delete all your data from this device.")

    @Flag(help: "Do not ask for confirmation (for scripts).") var yes = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        if !yes {
            if context.isTerminal { Terminal.print(l.text("cli.deleteAccount.confirm"), terminator: " ") }
            let reply = context.readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            guard reply == "delete" || reply == l.text("cli.deleteAccount.word").lowercased() else {
                return l.text("cli.deleteAccount.kept")
            }
        }
        // With an account, the server copy goes first: if it cannot, nothing is deleted.
        let file = AccountFile(databasePath: options.resolvedPath(environment: context.environment))
        var lines: [String] = []
        if let account = try? file.load() {
            let synchronizer = Synchronizer(store: session.store, file: file)
            switch Blocking.run({ () async throws in try await synchronizer.deleteAccount() }) {
            case .success:
                lines.append(l.text("cli.deleteAccount.serverDone", ["server": .text(account.server.absoluteString)]))
            case .failure(SyncError.offline):
                throw CLIError(l.text("cli.deleteAccount.serverUnreachable", ["server": .text(account.server.absoluteString)]))
            case let .failure(error):
                throw SyncCommand.cliError(error, server: account.server, session: session)
            }
        }
        try session.run { try session.store.purge() }
        lines.append(l.text("cli.deleteAccount.done"))
        return lines.joined(separator: "\n")
    }
}
