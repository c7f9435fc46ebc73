import ArgumentParser
import DietBriefing
import DietCore
import DietWeb
import Foundation

/// `wdiet serve`: the web app over the same store as the CLI, on loopback by default; on the
/// home network (`--listen`) or behind a reverse proxy (`--trust-proxy`) every other device
/// signs in.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Open the w-diet web app in your browser (http://127.0.0.1:8080 by default).",
        discussion: """
            On the home network: wdiet serve --listen 0.0.0.0:8080 (or this machine's address), then open \
            http://ADDRESS:8080 on the phone. Other devices sign in: the first one chooses the passphrase with \
            the one-time setup code printed here. HTTPS with --tls-cert and --tls-key, or behind a reverse proxy \
            on this machine with --trust-proxy (see docs/home-network.md). WHOOP on the briefing needs a WHOOP app \
            of your own: `wdiet whoop --help` and docs/whoop.md say how; once it is set, this prints the redirect \
            address to register.
            """
    )

    @Option(help: "The port on loopback, 1–65535.") var port = 8080
    @Option(
        help: ArgumentHelp(
            "Answer the network at ADDRESS:PORT (e.g. 0.0.0.0:8080 or 192.168.1.20:8080); other devices sign in.",
            valueName: "address:port"
        )
    ) var listen: String?
    @Option(help: ArgumentHelp("The address to listen on.", visibility: .hidden)) var host = "127.0.0.1"
    @Option(name: .customLong("allow-host"), help: "Also answer requests for this Host name (repeatable).") var allowHosts: [String] = []
    @Option(name: .customLong("tls-cert"), help: ArgumentHelp("Serve HTTPS with this certificate chain (PEM).", valueName: "file"))
    var tlsCert: String?
    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The private key of --tls-cert (PEM).", valueName: "file")) var tlsKey: String?
    @Flag(name: .customLong("trust-proxy"), help: "Behind a reverse proxy on this machine: believe its X-Forwarded-For/-Proto; sign-in required.")
    var trustProxy = false
    @Flag(name: .customLong("reset-passphrase"), help: "Print a new setup code to choose a new passphrase (signs every device out).")
    var resetPassphrase = false
    @Option(name: .customLong("max-connections"), help: "Open connections in all; past it new ones wait (1–100000).")
    var maxConnections = WebConnectionPolicy().maxConnections
    @Option(
        name: .customLong("max-connections-per-address"),
        help: "Open connections from one address; past it new ones are closed at once (1–100000; a --trust-proxy proxy has no cap)."
    )
    var maxConnectionsPerAddress = WebConnectionPolicy().maxConnectionsPerAddress
    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp("Close a connection idle this long (1–86400).", valueName: "seconds"))
    var idleTimeout = Int(WebConnectionPolicy().idleTimeout)
    @Option(
        name: .customLong("header-timeout"),
        help: ArgumentHelp("Close a connection whose request headers take longer than this (1–86400).", valueName: "seconds")
    )
    var headerTimeout = Int(WebConnectionPolicy().headerTimeout)
    @OptionGroup var options: StoreOptions

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be between 1 and 65535, not \(port).") }
        if let listen { _ = try Self.address(listen) }
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together: give the certificate and its private key.")
        }
        for (name, value, range) in [
            ("--max-connections", maxConnections, 1...100_000), ("--max-connections-per-address", maxConnectionsPerAddress, 1...100_000),
            ("--idle-timeout", idleTimeout, 1...86_400), ("--header-timeout", headerTimeout, 1...86_400),
        ] where !range.contains(value) {
            throw ValidationError("\(name) must be between \(range.lowerBound) and \(range.upperBound), not \(value).")
        }
    }

    /// `ADDRESS:PORT` → (address, port): `0.0.0.0:8080`, `192.168.1.20:8443`, `[::]:8080`,
    /// `mybox.local:8080`.
    static func address(_ text: String) throws -> (host: String, port: Int) {
        let refuse = ValidationError(
            """
            --listen takes ADDRESS:PORT, such as 0.0.0.0:8080, 192.168.1.20:8080 or [::]:8080, with a port from 1 to 65535; \
            not "\(text)".
            """
        )
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else {
            throw refuse
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2 else { throw refuse }
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            throw refuse  // an IPv6 address needs brackets, or its last group reads as the port
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || ".-:_%".contains($0) }) else { throw refuse }
        return (host, port)
    }

    /// What the terminal says about WHOOP at start-up when the app registration is set (the
    /// briefing page says only, in plain words, whether WHOOP can connect): the redirect address
    /// to register at WHOOP, or that the configured one does not lead to this app and which would.
    static func whoopSetup(environment: [String: String], databasePath: String, url: String, localizer: Localizer) -> String? {
        guard let connection = WhoopConnection(environment: environment, databasePath: databasePath) else { return nil }
        let callback = (url.hasSuffix("/") ? String(url.dropLast()) : url) + WhoopConnection.callbackPath
        guard connection.redirectConfigured else { return localizer.text("cli.serve.whoop", ["callback": .text(callback)]) }
        let configured = connection.configuration.redirectURI
        guard URLComponents(string: configured)?.path == WhoopConnection.callbackPath else {
            return localizer.text("cli.serve.whoopMismatch", ["uri": .text(configured), "callback": .text(callback)])
        }
        return localizer.text("cli.serve.whoop", ["callback": .text(configured)])
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let fallback = options.language.resolvedLanguage(environment: environment)
        let timeZone = try options.language.resolvedTimeZone(language: fallback)
        let clock = try options.clock(environment: environment, timeZone: timeZone, language: fallback)
        let path = options.resolvedPath(environment: environment)
        let bound: (host: String, port: Int) = try listen.map(Self.address) ?? (host: host, port: port)
        var configuration = WebConfiguration(
            databasePath: path,
            host: bound.host,
            port: bound.port,
            extraAllowedHosts: allowHosts,
            clock: clock,
            timeZone: timeZone,
            fallbackLanguage: fallback,
            syncServer: environment["WDIET_SERVER"].flatMap { $0.isEmpty ? nil : URL(string: $0) },
            autoSync: environment["WDIET_NO_AUTO_SYNC"] == nil
        )
        configuration.tls = tlsCert.flatMap { cert in tlsKey.map { WebConfiguration.TLSFiles(certificatePath: cert, privateKeyPath: $0) } }
        configuration.trustProxy = trustProxy
        configuration.resetPassphrase = resetPassphrase
        configuration.connections.maxConnections = maxConnections
        configuration.connections.maxConnectionsPerAddress = maxConnectionsPerAddress
        configuration.connections.idleTimeout = TimeInterval(idleTimeout)
        configuration.connections.headerTimeout = TimeInterval(headerTimeout)
        // tests and journeys may lower bcrypt's cost; never below its minimum of 4
        if let cost = environment["WDIET_PASSPHRASE_COST"].flatMap(UInt8.init), (4...31).contains(cost) { configuration.signIn.cost = cost }
        let app: WebApp
        do {
            app = try WebApp(configuration: configuration)
        } catch {
            throw CLIError(Localizer(fallback).text("cli.error.database", ["path": .text(path), "reason": .text("\(error)")]))
        }
        let localizer = Localizer(fallback)
        // announced once the port is bound, so a busy port never shows an address that does not answer
        do {
            try await WebServer.run(app) { url in
                Terminal.print(localizer.text("cli.serve.open", ["url": .text(url)]))
                if let code = app.setupCode {
                    Terminal.print(localizer.text("cli.serve.setupCode", ["url": .text(url), "code": .text(code)]))
                } else if app.configuration.requiresSignIn {
                    Terminal.print(localizer.text("cli.serve.signInRequired"))
                }
                if !app.configuration.trustProxy, app.configuration.tls == nil, app.configuration.requiresSignIn {
                    Terminal.print(localizer.text("cli.serve.plainHTTP"))
                }
                if let whoop = Self.whoopSetup(environment: environment, databasePath: path, url: url, localizer: localizer) {
                    Terminal.print(whoop)
                }
                fflush(nil)
            }
        } catch {
            throw CLIError(localizer.text("cli.serve.failed", ["port": .text("\(bound.port)"), "reason": .text("\(error)")]))
        }
    }
}
