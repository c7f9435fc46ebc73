import ArgumentParser
import DietBriefing
import DietCore
import DietStore
import DietSync
import Foundation
import ReadyDay
import SyncProtocol
import WhoopAPI

/// `wdiet whoop …`: connect WHOOP for the briefing's recovery and sleep.
struct WhoopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoop", abstract: "Connect WHOOP, fetch recovery and sleep, or disconnect.",
        discussion: """
            Create an app at developer.whoop.com (scopes read:recovery, read:sleep, read:cycles, read:workout, \
            read:profile, read:body_measurement, offline) and set WDIET_WHOOP_CLIENT_ID and WDIET_WHOOP_CLIENT_SECRET \
            from it. Register as its redirect URI the address you open `wdiet serve` at followed by \
            \(WhoopConnection.callbackPath) (e.g. http://127.0.0.1:8080\(WhoopConnection.callbackPath)), and set \
            WDIET_WHOOP_REDIRECT_URI to exactly that address: WHOOP only sends you back to a registered address, and \
            one registration then serves both the briefing page ("Connect WHOOP") and `wdiet whoop connect` (where you \
            paste the address WHOOP sent you to). Without WDIET_WHOOP_REDIRECT_URI the web app uses the address it \
            was reached at, and the CLI \(WhoopConnection.defaultRedirectURI).
            """,
        subcommands: [WhoopConnectCommand.self, WhoopSyncCommand.self, WhoopDisconnectCommand.self])
}

extension WhoopConnection {
    /// The connection of the store `options` name, or the error saying what to set.
    init(options: StoreOptions, context: CLIContext, localizer: Localizer) throws {
        guard let connection = WhoopConnection(environment: context.environment,
                                               databasePath: options.resolvedPath(environment: context.environment)) else {
            throw CLIError(localizer.text("cli.whoop.notConfigured"))
        }
        self = connection
    }

    /// `sync` from a synchronous command.
    func syncBlocking(_ store: AppDatabase, days: Int, now: Date) throws -> (recoveries: Int, sleeps: Int) {
        try Blocking.run { () async throws -> (recoveries: Int, sleeps: Int) in try await sync(store, days: days, now: now) }.get()
    }
}

struct WhoopConnectCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Print WHOOP's authorize address; paste the address it sends you back to (or pass it with --redirect).")

    @Option(help: "The address WHOOP redirected to after you allowed access.") var redirect: String?
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        let setup = try WhoopConnection(options: options, context: context, localizer: l)
        var pasted = redirect
        var lines: [String] = []
        if pasted == nil {
            let url = try setup.begin(now: session.clock.now())
            let state = setup.pendingAttempt()?.state ?? ""
            lines = [l.text("cli.whoop.open"), url.absoluteString]
            if context.isTerminal {
                Terminal.print(lines.joined(separator: "\n"))
                lines = []
                pasted = context.readLine()
            }
            guard let typed = pasted, !typed.trimmingCharacters(in: .whitespaces).isEmpty else {
                if json { return try JSONOutput.encode(["authorize_url": url.absoluteString, "state": state]) }
                return (lines + [l.text("cli.whoop.finish")]).joined(separator: "\n")
            }
        }
        guard let attempt = setup.pendingAttempt() else { throw CLIError(l.text("cli.whoop.noPending")) }
        do {
            let code = try WhoopOAuth.code(fromRedirect: pasted ?? "", expectedState: attempt.state)
            _ = try Blocking.run { () async throws -> WhoopTokens in try await setup.exchange(code: code, attempt: attempt) }.get()
            try? FileManager.default.removeItem(atPath: setup.pendingPath)
            let days = WhoopConnection.initialDays
            let (recoveries, sleeps) = try setup.syncBlocking(session.store, days: days, now: session.clock.now())
            if json { return try JSONOutput.encode(["connected": 1, "recoveries": recoveries, "sleeps": sleeps]) }
            return (lines + [l.text("cli.whoop.connected"),
                             l.text("cli.whoop.synced", ["recoveries": .integer(recoveries), "sleeps": .integer(sleeps), "days": .integer(days)])])
                .joined(separator: "\n")
        } catch let error as WhoopError {
            throw CLIError(l.text("cli.whoop.error", ["reason": .text(error.description)]))
        }
    }
}

struct WhoopSyncCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "sync", abstract: "Fetch recent recovery and sleep from WHOOP.")

    @Option(help: "How many days back (1–365).") var days = 30
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        guard (1...365).contains(days) else { throw CLIError(l.text("cli.whoop.days")) }
        let setup = try WhoopConnection(options: options, context: context, localizer: l)
        guard setup.loadTokens() != nil else { throw CLIError(l.text("cli.whoop.notConnected")) }
        do {
            let (recoveries, sleeps) = try setup.syncBlocking(session.store, days: days, now: session.clock.now())
            if json { return try JSONOutput.encode(["recoveries": recoveries, "sleeps": sleeps, "days": days]) }
            return l.text("cli.whoop.synced", ["recoveries": .integer(recoveries), "sleeps": .integer(sleeps), "days": .integer(days)])
        } catch let error as WhoopError {
            throw CLIError(l.text("cli.whoop.error", ["reason": .text(error.description)]))
        }
    }
}

struct WhoopDisconnectCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "disconnect", abstract: "Revoke WHOOP access and remove its data from this device.")

    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        let setup = try WhoopConnection(options: options, context: context, localizer: l)
        guard setup.loadTokens() != nil else { throw CLIError(l.text("cli.whoop.notConnected")) }
        let store = session.store
        try session.run { _ = try Blocking.run { () async throws -> Bool in try await setup.disconnect(store) }.get() }
        return json ? try JSONOutput.encode(["disconnected": true]) : l.text("cli.whoop.disconnected")
    }
}
