import DietCore
import Foundation
import NIOCore

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
    /// HTTPS with this certificate chain and private key (PEM files), else plain HTTP.
    public var tls: TLSFiles?
    /// Behind a reverse proxy on this machine: its `X-Forwarded-For` and `X-Forwarded-Proto`
    /// are believed (from loopback peers only), and sign-in is required.
    public var trustProxy = false
    public var signIn = SignInPolicy()
    /// How many connections the server holds, from one address and in all, and how long a
    /// slow client may keep one.
    public var connections = WebConnectionPolicy()
    /// Offer a new setup code even though a passphrase is set (a forgotten passphrase).
    public var resetPassphrase = false

    public struct TLSFiles: Sendable {
        public var certificatePath: String
        public var privateKeyPath: String

        public init(certificatePath: String, privateKeyPath: String) {
            self.certificatePath = certificatePath
            self.privateKeyPath = privateKeyPath
        }
    }

    public init(
        databasePath: String,
        host: String = "127.0.0.1",
        port: Int = 8080,
        extraAllowedHosts: [String] = [],
        clock: any Clock = SystemClock(),
        timeZone: TimeZone = .current,
        fallbackLanguage: Language = .en,
        syncServer: URL? = nil,
        autoSync: Bool = true,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
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
        var names: Set<String> = ["127.0.0.1", "localhost", "[::1]"]
        // bound to every address: each of this machine's addresses is a name of ours
        let bound = Self.isWildcard(host) ? Self.interfaceAddresses() : [host.lowercased()]
        for address in bound {
            names.insert(address.contains(":") && !address.hasPrefix("[") ? "[\(address)]" : address)
        }
        names.formUnion(extraAllowedHosts.map { $0.lowercased() })
        return names
    }

    /// Whether the server answers other devices, so that sign-in is required: bound beyond
    /// loopback, or reached through a reverse proxy.
    public var requiresSignIn: Bool { trustProxy || !Self.isLoopback(host) }

    /// A loopback name or address (an IPv4-mapped one too: a peer on a dual-stack socket).
    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return name == "localhost" || name == "::1" || name.hasPrefix("127.") || name.hasPrefix("::ffff:127.")
    }

    static func isWildcard(_ host: String) -> Bool { ["0.0.0.0", "::", "[::]"].contains(host) }

    /// The addresses of this machine's network interfaces.
    static func interfaceAddresses() -> [String] {
        ((try? System.enumerateDevices()) ?? []).compactMap { $0.address?.ipAddress?.lowercased() }
    }

    /// This machine's addresses a phone on the network can reach: IPv4 before IPv6, without
    /// loopback and link-local ones.
    public static func networkAddresses() -> [String] {
        let all = interfaceAddresses().filter { !isLoopback($0) && !$0.hasPrefix("fe80:") && !$0.hasPrefix("169.254.") }
        return all.filter { !$0.contains(":") } + all.filter { $0.contains(":") }
    }
}

/// Open connections and how long a slow client may hold one: nobody on the network, signed in
/// or not, can take every connection or hold one for ever. A browser opens at most six
/// connections to a server, so the per-address cap leaves room for several of them on one
/// device; behind `--trust-proxy` the proxy (a loopback peer) has no cap of its own, since
/// every client comes through it, and counts toward `maxConnections` only.
public struct WebConnectionPolicy: Sendable, Equatable {
    /// Open connections in all; past it new ones wait to be accepted.
    public var maxConnections = 256
    /// Open connections from one address; past it a new one is closed at once.
    public var maxConnectionsPerAddress = 16
    /// An idle connection is closed after this many seconds.
    public var idleTimeout: TimeInterval = 30
    /// Request headers must be complete this many seconds after the connection opened (or
    /// after the first bytes of a later request on it arrived).
    public var headerTimeout: TimeInterval = 10

    public init() {}
}

/// A certificate or key file for HTTPS that cannot be used, and why.
public struct TLSFileError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "\(path): \(reason)" }
}
