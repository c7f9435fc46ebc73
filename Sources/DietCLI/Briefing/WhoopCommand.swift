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
        subcommands: [WhoopConnectCommand.self, WhoopSyncCommand.self, WhoopDisconnectCommand.self])
}

/// The WHOOP app registration (environment) and this device's WHOOP files beside the database:
/// the tokens (0600, never printed) and a pending connection attempt's state.
struct WhoopSetup {
    let configuration: WhoopConfiguration
    let tokensPath: String
    let pendingPath: String

    init(options: StoreOptions, context: CLIContext, localizer: Localizer) throws {
        let environment = context.environment
        guard let id = environment["WDIET_WHOOP_CLIENT_ID"], !id.isEmpty,
              let secret = environment["WDIET_WHOOP_CLIENT_SECRET"], !secret.isEmpty
        else { throw CLIError(localizer.text("cli.whoop.notConfigured")) }
        var configuration = WhoopConfiguration(clientID: id, clientSecret: secret,
                                               redirectURI: environment["WDIET_WHOOP_REDIRECT_URI"] ?? "http://127.0.0.1:8765/whoop/callback")
        if let api = environment["WDIET_WHOOP_API_URL"], !api.isEmpty { configuration.apiBase = api }
        if let oauth = environment["WDIET_WHOOP_OAUTH_URL"], !oauth.isEmpty { configuration.oauthBase = oauth }
        self.configuration = configuration
        let database = options.resolvedPath(environment: environment)
        tokensPath = StoredBriefing.whoopTokensPath(databasePath: database)
        pendingPath = database + ".whoop-pending"
    }

    func loadTokens() -> WhoopTokens? {
        FileManager.default.contents(atPath: tokensPath).flatMap { try? JSONDecoder.api.decode(WhoopTokens.self, from: $0) }
    }

    func saveTokens(_ tokens: WhoopTokens) throws {
        try AccountFile.writePrivately(try JSONEncoder.api.encode(tokens), to: tokensPath)
    }

    func client(_ tokens: WhoopTokens) -> WhoopClient {
        WhoopClient(configuration: configuration, tokens: tokens, saveTokens: { [self] fresh in try saveTokens(fresh) })
    }

    /// Fetches `days` of recoveries and sleeps into the store; returns their counts. An
    /// exclusive lock on a file beside the tokens keeps two `wdiet` processes from refreshing
    /// with the same (rotating) refresh token.
    func sync(_ store: AppDatabase, days: Int, now: Date) throws -> (Int, Int) {
        let lock = open(tokensPath + ".lock", O_CREAT | O_RDWR, 0o600)
        if lock >= 0 { flock(lock, LOCK_EX) }
        defer {
            if lock >= 0 {
                flock(lock, LOCK_UN)
                close(lock)
            }
        }
        guard let tokens = loadTokens() else { throw WhoopError.reconnectNeeded }
        let client = client(tokens)
        let start = now.addingTimeInterval(-Double(days) * 86400)
        let fetched = Blocking.run { () async throws -> ([WhoopRecovery], [WhoopSleep]) in
            (try await client.recoveries(start: start, end: now), try await client.sleeps(start: start, end: now))
        }
        let (recoveries, sleeps) = try fetched.get()
        let encoder = JSONEncoder.api
        var records: [(kind: WhoopRecordKind, id: String, recordedAt: Date, json: String)] = []
        for recovery in recoveries {
            records.append((.recovery, String(recovery.cycleID), recovery.createdAt, String(decoding: try encoder.encode(recovery), as: UTF8.self)))
        }
        for sleep in sleeps where !sleep.nap {
            records.append((.sleep, sleep.id, sleep.end, String(decoding: try encoder.encode(sleep), as: UTF8.self)))
        }
        try store.saveWhoopRecords(records)
        return (recoveries.count, sleeps.filter { !$0.nap }.count)
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
        let setup = try WhoopSetup(options: options, context: context, localizer: l)
        var pasted = redirect
        var lines: [String] = []
        if pasted == nil {
            let state = WhoopOAuth.makeState()
            guard let url = WhoopOAuth.authorizeURL(setup.configuration, state: state) else { throw CLIError("bad state") }
            try AccountFile.writePrivately(Data(state.utf8), to: setup.pendingPath)
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
        guard let state = FileManager.default.contents(atPath: setup.pendingPath).map({ String(decoding: $0, as: UTF8.self) }) else {
            throw CLIError(l.text("cli.whoop.noPending"))
        }
        do {
            let code = try WhoopOAuth.code(fromRedirect: pasted ?? "", expectedState: state)
            let configuration = setup.configuration
            let tokens = try Blocking.run { () async throws -> WhoopTokens in
                try await WhoopClient.exchange(code: code, configuration: configuration)
            }.get()
            try setup.saveTokens(tokens)
            try? FileManager.default.removeItem(atPath: setup.pendingPath)
            let (recoveries, sleeps) = try setup.sync(session.store, days: 30, now: session.clock.now())
            if json { return try JSONOutput.encode(["connected": 1, "recoveries": recoveries, "sleeps": sleeps]) }
            return (lines + [l.text("cli.whoop.connected"),
                             l.text("cli.whoop.synced", ["recoveries": .integer(recoveries), "sleeps": .integer(sleeps), "days": .integer(30)])])
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
        let setup = try WhoopSetup(options: options, context: context, localizer: l)
        guard setup.loadTokens() != nil else { throw CLIError(l.text("cli.whoop.notConnected")) }
        do {
            let (recoveries, sleeps) = try setup.sync(session.store, days: days, now: session.clock.now())
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
        let setup = try WhoopSetup(options: options, context: context, localizer: l)
        guard let tokens = setup.loadTokens() else { throw CLIError(l.text("cli.whoop.notConnected")) }
        let client = setup.client(tokens)
        // Best effort at WHOOP: offline, the local connection still ends.
        _ = Blocking.run { () async throws in try await client.revoke() }
        try FileManager.default.removeItem(atPath: setup.tokensPath)
        try? FileManager.default.removeItem(atPath: setup.tokensPath + ".lock")
        try session.run { try session.store.clearWhoop() }
        return json ? try JSONOutput.encode(["disconnected": true]) : l.text("cli.whoop.disconnected")
    }
}
