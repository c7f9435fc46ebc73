import DietCore
import Foundation

/// How `wdiet serve` runs: where the store is, where it listens, which Host names it answers.
public struct WebConfiguration: Sendable {
    /// The SQLite file shared with the CLI.
    public var databasePath: String
    /// The address to bind; loopback unless the user asks otherwise.
    public var host: String
    public var port: Int
    /// Extra Host header names to accept besides the loopback names (DNS-rebinding guard).
    public var extraAllowedHosts: [String]
    public var clock: any Clock
    public var timeZone: TimeZone
    /// The language before onboarding when the browser states none we speak.
    public var fallbackLanguage: Language
    /// The sync server, when the user has one (`WDIET_SERVER`).
    public var syncServer: URL?
    /// Sync quietly in the background after each change when an account exists (off with
    /// `WDIET_NO_AUTO_SYNC`).
    public var autoSync: Bool
    /// The serve process's environment: `WDIET_OFFLINE` and `WDIET_OPEN_FOOD_FACTS_URL` for
    /// the barcode lookup.
    public var environment: [String: String]

    public init(databasePath: String, host: String = "127.0.0.1", port: Int = 8080, extraAllowedHosts: [String] = [],
                clock: any Clock = SystemClock(), timeZone: TimeZone = .current, fallbackLanguage: Language = .en,
                syncServer: URL? = nil, autoSync: Bool = true, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.databasePath = databasePath
        self.host = host
        self.port = port
        self.extraAllowedHosts = extraAllowedHosts
        self.clock = clock
        self.timeZone = timeZone
        self.fallbackLanguage = fallbackLanguage
        self.syncServer = syncServer
        self.autoSync = autoSync
        self.environment = environment
    }

    /// The host names this server answers (any port): the loopback names, the bound address
    /// and the extra names. DNS rebinding needs the attacker's own name in Host, so the port
    /// does not matter.
    var allowedHosts: Set<String> {
        var names: Set<String> = ["127.0.0.1", "localhost", "[::1]", host.lowercased()]
        if host.contains(":") && !host.hasPrefix("[") { names.insert("[\(host.lowercased())]") }
        names.formUnion(extraAllowedHosts.map { $0.lowercased() })
        return names
    }
}
