import Foundation
import Hummingbird

/// The entry that starts the web app of `wdiet serve`: everything the HTTP server needs stays
/// in this module, so the CLI depends on DietWeb only to start it.
public enum WebServer {
    /// Serves `app` on its configured address until SIGINT or SIGTERM ends it gracefully.
    /// `announce` gets the address to open once the port is bound, so a busy port never shows
    /// an address that does not answer. Throws when the address cannot be bound or the TLS
    /// files cannot be read.
    public static func run(_ app: WebApp, announce: @escaping @Sendable (_ url: String) async -> Void) async throws {
        try await app.application { port in
            await announce(url(app.configuration, port: port))
        }.runService()
    }

    /// The address to open: a wildcard bind shows this machine's first network address.
    public static func url(_ configuration: WebConfiguration, port: Int) -> String {
        var host = configuration.host
        if ["0.0.0.0", "::"].contains(host) {
            host = WebConfiguration.networkAddresses().first ?? host
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        return (configuration.tls == nil ? "http" : "https") + "://\(shown):\(port)/"
    }
}
