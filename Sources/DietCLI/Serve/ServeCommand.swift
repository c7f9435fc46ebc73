import ArgumentParser
import DietCore
import DietWeb
import Foundation
import Hummingbird

/// `wdiet serve`: the web app on loopback over the same store as the CLI.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Open the w-diet web app in your browser (http://127.0.0.1:8080 by default).")

    @Option(help: "The port, 1–65535.") var port = 8080
    @Option(help: ArgumentHelp("The address to listen on. Keep the default loopback address unless you know why.",
                               visibility: .hidden)) var host = "127.0.0.1"
    @Option(name: .customLong("allow-host"), help: "Also answer requests for this Host name (repeatable).") var allowHosts: [String] = []
    @OptionGroup var options: StoreOptions

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be between 1 and 65535, not \(port).") }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let fallback = options.language.resolvedLanguage(environment: environment)
        let timeZone = try options.language.resolvedTimeZone(language: fallback)
        let clock = try options.clock(environment: environment, timeZone: timeZone, language: fallback)
        let path = options.resolvedPath(environment: environment)
        let configuration = WebConfiguration(
            databasePath: path, host: host, port: port, extraAllowedHosts: allowHosts, clock: clock, timeZone: timeZone,
            fallbackLanguage: fallback, syncServer: environment["WDIET_SERVER"].flatMap { $0.isEmpty ? nil : URL(string: $0) },
            autoSync: environment["WDIET_NO_AUTO_SYNC"] == nil)
        let app: WebApp
        do {
            app = try WebApp(configuration: configuration)
        } catch {
            throw CLIError(Localizer(fallback).text("cli.error.database", ["path": .text(path), "reason": .text("\(error)")]))
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let localizer = Localizer(fallback)
        // announced once the port is bound, so a busy port never shows an address that does not answer
        let result = Blocking.run { () async throws in
            try await app.application { port in
                Terminal.print(localizer.text("cli.serve.open", ["url": .text("http://\(shownHost):\(port)/")]))
                fflush(nil)
            }.runService()
        }
        if case .failure(let error) = result {
            throw CLIError(localizer.text("cli.serve.failed", ["port": .text("\(port)"), "reason": .text("\(error)")]))
        }
    }
}
