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
        commandName: "whoop",
        abstract: "Connect WHOOP, fetch recovery and sleep, or disconnect.",
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
            disconnects the account; no WHOOP app of your own is needed. docs/whoop.md has every step.
            """,
        subcommands: [WhoopConnectCommand.self, WhoopSyncCommand.self, WhoopDisconnectCommand.self]
    )
}

extension WhoopConnection {
    /// The connection of the store `options` name, or the error saying what to set.
    init(options: StoreOptions, context: CLIContext, localizer: Localizer) throws {
        guard
            let connection = WhoopConnection(
                environment: context.environment,
                databasePath: options.resolvedPath(environment: context.environment)
            )
        else {
            throw CLIError(localizer.text("cli.whoop.notConfigured"))
        }
        self = connection
    }
}

struct WhoopConnectCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Print WHOOP's authorize address; paste the address it sends you back to (or pass it with --redirect)."
    )

    @Option(help: "The address WHOOP redirected to after you allowed access.") var redirect: String?
    @Option(help: "Signed in to an account: seconds to wait for WHOOP to confirm (0: print the address and return).") var wait = 300
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) async throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        if let through = try WhoopThroughAccount(options: options, context: context, session: session) {
            guard (0...3600).contains(wait) else { throw CLIError(l.text("cli.whoop.wait")) }
            return try await through.connect(wait: wait, json: json)
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
            _ = try await setup.exchange(code: code, attempt: attempt)
            try? FileManager.default.removeItem(atPath: setup.pendingPath)
            let days = WhoopConnection.initialDays
            let fetched = try await setup.sync(session.store, days: days, now: session.clock.now())
            if json { return try JSONOutput.encode(["connected": 1, "recoveries": fetched.recoveries, "sleeps": fetched.sleeps]) }
            return
                (lines + [
                    l.text("cli.whoop.connected"),
                    Self.synced(fetched, days: days, l),
                ])
                .joined(separator: "\n")
        } catch let error as WhoopError {
            throw CLIError(l.text("cli.whoop.error", ["reason": .text(error.description)]))
        }
    }

    /// "WHOOP: 12 recoveries and 1 sleep of the last 30 days."
    static func synced(_ fetched: WhoopConnection.Fetched, days: Int, _ l: Localizer) -> String {
        l.text(
            "cli.whoop.synced",
            [
                "recoveries": .message(Message("cli.whoop.recoveries", ["count": .integer(fetched.recoveries)])),
                "sleeps": .message(Message("cli.whoop.sleeps", ["count": .integer(fetched.sleeps)])), "count": .integer(days),
            ]
        )
    }
}

struct WhoopSyncCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "sync", abstract: "Fetch recent recovery and sleep from WHOOP.")

    @Option(help: "How many days back (1–365).") var days = 30
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) async throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        guard (1...365).contains(days) else { throw CLIError(l.text("cli.whoop.days")) }
        if let through = try WhoopThroughAccount(options: options, context: context, session: session),
            WhoopConnection(environment: context.environment, databasePath: through.databasePath)?.isConnected != true
        {
            return try await through.sync(json: json)
        }
        let setup = try WhoopConnection(options: options, context: context, localizer: l)
        guard setup.loadTokens() != nil else { throw CLIError(l.text("cli.whoop.notConnected")) }
        do {
            let fetched = try await setup.sync(session.store, days: days, now: session.clock.now())
            if json { return try JSONOutput.encode(["recoveries": fetched.recoveries, "sleeps": fetched.sleeps, "days": days]) }
            return WhoopConnectCommand.synced(fetched, days: days, l)
        } catch let error as WhoopError {
            throw CLIError(l.text("cli.whoop.error", ["reason": .text(error.description)]))
        }
    }
}

struct WhoopDisconnectCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "disconnect", abstract: "Revoke WHOOP access and remove its data from this device.")

    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) async throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        if let through = try WhoopThroughAccount(options: options, context: context, session: session) {
            return try await through.disconnect(json: json)
        }
        let setup = try WhoopConnection(options: options, context: context, localizer: l)
        guard setup.loadTokens() != nil else { throw CLIError(l.text("cli.whoop.notConnected")) }
        let store = session.store
        try await session.run { _ = try await setup.disconnect(store) }
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
    func connect(wait: Int, json: Bool) async throws -> String {
        if try await call({ api, token in try await api.whoopStatus(accessToken: token) }).connected {
            try WhoopAccountMark(startedAt: session.clock.now(), connected: true).save(databasePath: databasePath)
            let records = try await syncNow()
            if json { return try JSONOutput.encode(["connected": 1, "records": records]) }
            return [l.text("cli.whoop.account.already"), l.text("cli.whoop.account.synced", ["count": .integer(records)])]
                .joined(separator: "\n")
        }
        let start = try await call { api, token in try await api.whoopConnect(accessToken: token) }
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
        guard try await waitForConnection(seconds: wait) else {
            throw CLIError(l.text("cli.whoop.account.timeout", ["minutes": .integer((wait + 59) / 60)]))
        }
        try WhoopAccountMark(startedAt: session.clock.now(), connected: true).save(databasePath: databasePath)
        let records = try await syncNow()
        if json { return try JSONOutput.encode(["connected": 1, "records": records]) }
        return ((context.isTerminal ? [] : opening) + [l.text("cli.whoop.account.connected", ["count": .integer(records)])])
            .joined(separator: "\n")
    }

    /// Polls `GET /v1/whoop` until it says connected (true) or `seconds` passed (false). A
    /// moment offline while waiting is not the end: the next poll tries again.
    private func waitForConnection(seconds: Int) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: Self.pollInterval)
            do {
                if try await synchronizer.withAccessToken({ api, token in try await api.whoopStatus(accessToken: token) }).connected {
                    return true
                }
            } catch SyncError.offline {
                continue
            }
        }
        return false
    }

    /// `DELETE /v1/whoop`, then a sync that brings the server's tombstones here.
    func disconnect(json: Bool) async throws -> String {
        guard try await call({ api, token in try await api.whoopStatus(accessToken: token) }).connected else {
            WhoopAccountMark.remove(databasePath: databasePath)
            throw CLIError(l.text("cli.whoop.account.notConnected"))
        }
        try await call { api, token in try await api.whoopDisconnect(accessToken: token) }
        WhoopAccountMark.remove(databasePath: databasePath)
        _ = try await syncNow()
        return json ? try JSONOutput.encode(["disconnected": true]) : l.text("cli.whoop.account.disconnected")
    }

    /// `wdiet briefing whoop sync` through the account: the server fetches from WHOOP; this
    /// device syncs.
    func sync(json: Bool) async throws -> String {
        let records = try await syncNow()
        if json { return try JSONOutput.encode(["records": records]) }
        return l.text("cli.whoop.account.synced", ["count": .integer(records)])
    }

    /// Syncs with the account; returns how many live WHOOP records this device holds.
    private func syncNow() async throws -> Int {
        do {
            _ = try await synchronizer.syncWithRetry()
        } catch {
            throw failure(error)
        }
        return try session.store.whoopRecordCount()
    }

    /// One account call with a fresh access token, failures in the user's words.
    @discardableResult
    private func call<T: Sendable>(_ body: (ServerAPI, String) async throws -> T) async throws -> T {
        do {
            return try await synchronizer.withAccessToken(body)
        } catch {
            throw failure(error)
        }
    }

    private func failure(_ error: any Error) -> CLIError {
        if case let SyncError.server(_, code, _) = error, code == "whoop_not_configured" {
            return CLIError(l.text("cli.whoop.account.notConfigured"))
        }
        return SyncCommand.cliError(error, server: server, session: session)
    }
}
