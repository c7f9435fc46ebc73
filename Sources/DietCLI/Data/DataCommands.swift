import ArgumentParser
import DietCore
import DietImport
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
        return
            ([session.localizer.text("cli.export.done", ["count": .integer(files.count), "path": .text(url.path)])]
            + files.map { "  " + $0.lastPathComponent }).joined(separator: "\n")
    }
}

/// `wdiet import FILE`: a w-diet JSON export (restored into an empty database), an Apple
/// Health export.zip or export.xml, or a Cronometer or MyFitnessPal CSV export, recognised by
/// its content. The whole file is read and checked first, then written in one transaction.
struct ImportCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a w-diet JSON export, an Apple Health export (zip or xml), or a Cronometer or MyFitnessPal CSV export."
    )

    @Argument(help: "The file to import (the format is recognised from its content).") var file: String
    @Option(help: "The unit of a CSV weight column that names none: kg or lb.") var weightUnit = "kg"
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        guard ["kg", "lb", "lbs"].contains(weightUnit.lowercased()) else {
            throw CLIError(l.text("cli.import.badUnit", ["value": .text(weightUnit)]))
        }
        let bar = ImportProgressBar(localizer: l, isTerminal: isatty(STDERR_FILENO) == 1)
        let importOptions = Importer.Options(
            timeZone: session.timeZone,
            language: session.language,
            weightUnit: weightUnit.lowercased(),
            progress: { done, total in bar.show(done: done, total: total) }
        )
        defer { bar.finish() }
        do {
            let summary = try session.run { try Importer.run(path: file, into: session.store, options: importOptions) }
            return summary.lines(l).joined(separator: "\n")
        } catch let error as ImportError {
            throw CLIError(l.text("store.error.importRefused", ["reason": .text(error.message(l))]))
        }
    }
}

/// The import's progress on standard error: a bar redrawn in place on a terminal, otherwise a
/// plain line at every tenth (a log stays readable).
final class ImportProgressBar: @unchecked Sendable {
    private let localizer: Localizer
    private let isTerminal: Bool
    private let lock = NSLock()
    private var shown = -1
    private var drawn = false

    init(localizer: Localizer, isTerminal: Bool) {
        self.localizer = localizer
        self.isTerminal = isTerminal
    }

    func show(done: Int64, total: Int64) {
        guard total > 0 else { return }
        let percent = Int(min(100, done * 100 / total))
        lock.lock()
        defer { lock.unlock() }
        let step = isTerminal ? percent : percent / 10 * 10
        guard step != shown else { return }
        shown = step
        let text = localizer.text(
            "cli.import.progress",
            [
                "percent": .integer(percent), "done": .integer(Int(done >> 20)), "total": .integer(Int(total >> 20)),
            ]
        )
        if isTerminal {
            let filled = percent / 5
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: 20 - filled)
            FileHandle.standardError.write(Data("\r\(bar) \(text)\u{1B}[K".utf8))
            drawn = true
        } else {
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
    }

    /// Ends the bar's line, so what follows starts on its own.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
        drawn = false
    }
}

/// `wdiet delete-account`: removes every row of the user from this device.
struct DeleteAccountCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "delete-account", abstract: "Delete all your data from this device.")

    @Flag(help: "Do not ask for confirmation (for scripts).") var yes = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) async throws -> String {
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
            do {
                try await synchronizer.deleteAccount()
            } catch SyncError.offline {
                throw CLIError(l.text("cli.deleteAccount.serverUnreachable", ["server": .text(account.server.absoluteString)]))
            } catch {
                throw SyncCommand.cliError(error, server: account.server, session: session)
            }
            lines.append(l.text("cli.deleteAccount.serverDone", ["server": .text(account.server.absoluteString)]))
        }
        try session.run { try session.store.purge() }
        lines.append(l.text("cli.deleteAccount.done"))
        return lines.joined(separator: "\n")
    }
}
