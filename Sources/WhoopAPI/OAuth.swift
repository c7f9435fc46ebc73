import Foundation

/// The app's WHOOP registration and where WHOOP lives (tests point it at a local fake).
public struct WhoopConfiguration: Sendable {
    public var clientID: String
    public var clientSecret: String
    public var redirectURI: String
    public var scopes: [String]
    public var apiBase: String
    public var oauthBase: String

    public init(
        clientID: String,
        clientSecret: String,
        redirectURI: String,
        scopes: [String] = ["offline", "read:recovery", "read:cycles", "read:sleep", "read:workout", "read:profile", "read:body_measurement"],
        apiBase: String = "https://api.prod.whoop.com/developer",
        oauthBase: String = "https://api.prod.whoop.com/oauth/oauth2"
    ) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.apiBase = apiBase
        self.oauthBase = oauthBase
    }
}

/// The tokens of one WHOOP connection. Never logged; stored by the caller (a 0600 file).
public struct WhoopTokens: Codable, Hashable, Sendable {
    public var accessToken: String
    public var refreshToken: String?
    public var expiresAt: Date
    public var scope: String

    enum CodingKeys: String, CodingKey {
        case scope
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresAt = "expires_at"
    }
}

/// The authorization-code flow (WHOOP docs, "OAuth 2.0").
public enum WhoopOAuth {
    /// A `state` of 32 URL-safe random characters (WHOOP requires at least 8).
    public static func makeState() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var generator = SystemRandomNumberGenerator()
        return String((0..<32).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// Where to send the user to grant access.
    public static func authorizeURL(_ configuration: WhoopConfiguration, state: String) -> URL? {
        guard state.count >= 8 else { return nil }
        var components = URLComponents(string: configuration.oauthBase + "/auth")
        components?.queryItems = [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: configuration.clientID),
            URLQueryItem(name: "redirect_uri", value: configuration.redirectURI),
            URLQueryItem(name: "scope", value: configuration.scopes.joined(separator: " ")),
            URLQueryItem(name: "state", value: state),
        ]
        return components?.url
    }

    /// The code of the redirect WHOOP sent the user back with, after checking its state.
    public static func code(fromRedirect redirect: String, expectedState: String) throws(WhoopError) -> String {
        guard let components = URLComponents(string: redirect.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw .invalidRedirect("it is not a URL")
        }
        let items = components.queryItems ?? []
        if let error = items.first(where: { $0.name == "error" })?.value {
            throw .authorizationDenied(items.first(where: { $0.name == "error_description" })?.value ?? error)
        }
        guard items.first(where: { $0.name == "state" })?.value == expectedState else {
            throw .invalidRedirect("its state does not match this connection attempt")
        }
        guard let code = items.first(where: { $0.name == "code" })?.value, !code.isEmpty else {
            throw .invalidRedirect("it has no code")
        }
        return code
    }

    /// `application/x-www-form-urlencoded` for the token endpoint.
    static func form(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }
}

/// Why a WHOOP call failed.
public enum WhoopError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidRedirect(String)
    case authorizationDenied(String)
    /// The refresh token no longer works: connect again.
    case reconnectNeeded
    /// Rate limited for longer than the client waits.
    case rateLimited(retryAfter: Int)
    /// WHOOP has no such record (deleted, or never there).
    case notFound
    case server(status: Int)
    case unreachable
    case invalidResponse(String)

    public var description: String {
        switch self {
        case let .invalidRedirect(reason): "The pasted address is not WHOOP's redirect: \(reason)."
        case let .authorizationDenied(reason): "WHOOP did not grant access: \(reason)."
        case .reconnectNeeded: "The WHOOP connection has expired; connect again with “wdiet whoop connect”."
        case let .rateLimited(seconds): "WHOOP is rate limiting requests; try again in \(seconds) seconds."
        case .notFound: "WHOOP has no such record."
        case let .server(status): "WHOOP answered with an error (HTTP \(status))."
        case .unreachable: "WHOOP cannot be reached."
        case let .invalidResponse(detail): "WHOOP sent something unexpected: \(detail)."
        }
    }
}
