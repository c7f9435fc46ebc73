import Foundation

/// Paths of the server's WHOOP API, shared by client and server.
public enum WhoopPaths {
    /// `POST` (signed in): starts a connection; answers `WhoopConnectStart`.
    public static let connect = "/v1/whoop/connect"
    /// `GET`, public: where WHOOP sends the browser back with `code` and `state`.
    public static let callback = "/v1/whoop/callback"
    /// `GET` (signed in): `WhoopStatus`. `DELETE`: disconnects (revokes, forgets the tokens,
    /// deletes the synced records).
    public static let connection = "/v1/whoop"
    /// `POST`, public, signed by WHOOP: a record changed.
    public static let webhook = "/v1/whoop/webhook"
}

/// `POST /v1/whoop/connect` response: the address to open in a browser.
public struct WhoopConnectStart: Hashable, Sendable, Codable {
    public let authorizeURL: String
    /// When the offer lapses (the state is single use and short lived).
    public let expiresAt: Date

    public init(authorizeURL: String, expiresAt: Date) {
        self.authorizeURL = authorizeURL
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case authorizeURL = "authorize_url"
        case expiresAt = "expires_at"
    }
}

/// `GET /v1/whoop` response.
public struct WhoopStatus: Hashable, Sendable, Codable {
    public let connected: Bool
    public let connectedAt: Date?
    /// When records were last fetched from WHOOP for this account.
    public let lastFetchAt: Date?

    public init(connected: Bool, connectedAt: Date?, lastFetchAt: Date?) {
        self.connected = connected
        self.connectedAt = connectedAt
        self.lastFetchAt = lastFetchAt
    }

    enum CodingKeys: String, CodingKey {
        case connected
        case connectedAt = "connected_at"
        case lastFetchAt = "last_fetch_at"
    }
}
