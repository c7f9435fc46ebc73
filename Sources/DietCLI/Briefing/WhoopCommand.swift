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

            Signed in to an account (`wdiet account login`), WHOOP connects to the account instead: `connect` prints \
            the server's WHOOP address, waits (--wait seconds, default 300) until the server says connected and syncs; \
            the server then fetches the records and every device of the account receives them. `disconnect` \
            disconnects the account; no WHOOP app of your own is needed.
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

    /// `sync` from a synchronous command: the recoveries and sleeps fetched.
    func syncBlocking(_ store: AppDatabase, days: Int, now: Date) throws -> (recoveries: Int, sleeps: Int) {
        let fetched = try Blocking.run { () async throws -> Fetched in try await sync(store, days: days, now: now) }.get()
        return (fetched.recoveries, fetched.sleeps)
    }
}

struct WhoopConnectCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Print WHOOP's authorize address; paste the address it sends you back to (or pass it with --redirect).")

    @Option(help: "The address WHOOP redirected to after you allowed access.") var redirect: String?
    @Option(help: "Signed in to an account: seconds to wait for WHOOP to confirm (0: print the address and return).") var wait = 300
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        if let through = try WhoopThroughAccount(options: options, context: context, session: session) {
            guard (0...3600).contains(wait) else { throw CLIError(l.text("cli.whoop.wait")) }
            return try through.connect(wait: wait, json: json)
        }
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
        if let through = try WhoopThroughAccount(options: options, context: context, session: session),
           WhoopConnection(environment: context.environment, databasePath: through.databasePath)?.isConnected != true {
            return try through.sync(json: json)
        }
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
        if let through = try WhoopThroughAccount(options: options, context: context, session: session) {
            return try through.disconnect(json: json)
        }
        let setup = try WhoopConnection(options: options, context: context, localizer: l)
        guard setup.loadTokens() != nil else { throw CLIError(l.text("cli.whoop.notConnected")) }
        let store = session.store
        try session.run { _ = try Blocking.run { () async throws -> Bool in try await setup.disconnect(store) }.get() }
        return json ? try JSONOutput.encode(["disconnected": true]) : l.text("cli.whoop.disconnected")
    }
}

/// `wdiet briefing whoop …` on a device signed in to an account: WHOOP is connected to the
/// account through the server (which fetches the records and syncs them to every device), not
/// to this device.
struct WhoopThroughAccount {
    /// How often the connection's status is asked while waiting.
    static let pollInterval: Duration = .seconds(2)

    let session: Session
    let databasePath: String
    let synchronizer: Synchronizer
    let server: URL
    let context: CLIContext

    /// nil when the device is not signed in (the device-only connection stays).
    init?(options: StoreOptions, context: CLIContext, session: Session) throws {
        databasePath = options.resolvedPath(environment: context.environment)
        let file = AccountFile(databasePath: databasePath)
        guard let account = try file.load() else { return nil }
        server = account.server
        self.session = session
        self.context = context
        synchronizer = Synchronizer(store: session.store, file: file, now: { [clock = session.clock] in clock.now() })
    }

    private var l: Localizer { session.localizer }

    /// Asks the server for the authorize address, prints it, waits up to `wait` seconds
    /// (every 2 s) for the account to say connected, then syncs. Interrupting only stops the
    /// waiting: the connection completes in the browser all the same and arrives with a sync.
    func connect(wait: Int, json: Bool) throws -> String {
        if try call({ api, token in try await api.whoopStatus(accessToken: token) }).connected {
            try WhoopAccountMark(startedAt: session.clock.now(), connected: true).save(databasePath: databasePath)
            let records = try syncNow()
            if json { return try JSONOutput.encode(["connected": 1, "records": records]) }
            return [l.text("cli.whoop.account.already"), l.text("cli.whoop.account.synced", ["records": .integer(records)])]
                .joined(separator: "\n")
        }
        let start = try call { api, token in try await api.whoopConnect(accessToken: token) }
        try WhoopAccountMark(startedAt: session.clock.now(), connected: false, authorizeURL: start.authorizeURL).save(databasePath: databasePath)
        let opening = [l.text("cli.whoop.account.open"), start.authorizeURL]
        guard wait > 0 else {
            if json { return try JSONOutput.encode(["authorize_url": start.authorizeURL]) }
            return (opening + [l.text("cli.whoop.account.later")]).joined(separator: "\n")
        }
        if context.isTerminal {
            let minutes = (wait + 59) / 60
            Terminal.print((opening + [l.text("cli.whoop.account.waiting", ["minutes": .integer(minutes)])]).joined(separator: "\n"))
        }
        guard try waitForConnection(seconds: wait) else {
            throw CLIError(l.text("cli.whoop.account.timeout", ["minutes": .integer((wait + 59) / 60)]))
        }
        try WhoopAccountMark(startedAt: session.clock.now(), connected: true).save(databasePath: databasePath)
        let records = try syncNow()
        if json { return try JSONOutput.encode(["connected": 1, "records": records]) }
        return ((context.isTerminal ? [] : opening) + [l.text("cli.whoop.account.connected", ["records": .integer(records)])])
            .joined(separator: "\n")
    }

    /// Polls `GET /v1/whoop` until it says connected (true) or `seconds` passed (false). A
    /// moment offline while waiting is not the end: the next poll tries again.
    private func waitForConnection(seconds: Int) throws -> Bool {
        let frozen = synchronizer
        let deadline = ContinuousClock.now + .seconds(seconds)
        return try Blocking.run { () async throws -> Bool in
            while ContinuousClock.now < deadline {
                try await Task.sleep(for: Self.pollInterval)
                do {
                    if try await frozen.withAccessToken({ api, token in try await api.whoopStatus(accessToken: token) }).connected {
                        return true
                    }
                } catch SyncError.offline {
                    continue
                }
            }
            return false
        }.get()
    }

    /// `DELETE /v1/whoop`, then a sync that brings the server's tombstones here.
    func disconnect(json: Bool) throws -> String {
        guard try call({ api, token in try await api.whoopStatus(accessToken: token) }).connected else {
            WhoopAccountMark.remove(databasePath: databasePath)
            throw CLIError(l.text("cli.whoop.account.notConnected"))
        }
        try call { api, token in try await api.whoopDisconnect(accessToken: token) }
        WhoopAccountMark.remove(databasePath: databasePath)
        _ = try syncNow()
        return json ? try JSONOutput.encode(["disconnected": true]) : l.text("cli.whoop.account.disconnected")
    }

    /// `wdiet briefing whoop sync` through the account: the server fetches from WHOOP; this
    /// device syncs.
    func sync(json: Bool) throws -> String {
        let records = try syncNow()
        if json { return try JSONOutput.encode(["records": records]) }
        return l.text("cli.whoop.account.synced", ["records": .integer(records)])
    }

    /// Syncs with the account; returns how many live WHOOP records this device holds.
    private func syncNow() throws -> Int {
        let frozen = synchronizer
        if case let .failure(error) = Blocking.run({ () async throws in try await frozen.syncWithRetry() }) { throw failure(error) }
        return try session.store.whoopRecordCount()
    }

    /// One account call with a fresh access token, failures in the user's words.
    @discardableResult
    private func call<T: Sendable>(_ body: @escaping @Sendable (ServerAPI, String) async throws -> T) throws -> T {
        let frozen = synchronizer
        switch Blocking.run({ () async throws -> T in try await frozen.withAccessToken(body) }) {
        case let .success(value): return value
        case let .failure(error): throw failure(error)
        }
    }

    private func failure(_ error: any Error) -> CLIError {
        if case let SyncError.server(_, code, _) = error, code == "whoop_not_configured" {
            return CLIError(l.text("cli.whoop.account.notConfigured"))
        }
        return SyncCommand.cliError(error, server: server, session: session)
    }
}
