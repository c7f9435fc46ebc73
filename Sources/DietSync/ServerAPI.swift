import Foundation
import SyncProtocol

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a call to the server failed.
public enum SyncError: Error, Hashable, Sendable {
    /// No connection: offline, DNS, refused, timed out. Not worth showing; retried later.
    case offline
    /// The session ended (signed out elsewhere, revoked, deleted): sign in again.
    case signedOut
    /// The server answered with an error; `message` is its text for people.
    case server(status: Int, code: String, message: String)
    /// The server answered something that is not this API.
    case invalidResponse(String)
    /// No account is configured on this device.
    case notSignedIn
    /// Another process held the account's lock (a token refresh) for too long, or the lock
    /// file could not be opened: its path.
    case lock(String)

    /// Worth retrying later with backoff.
    public var isTransient: Bool {
        switch self {
        case .offline, .lock: true
        case let .server(status, _, _): status >= 500 || status == 429
        default: false
        }
    }
}

/// The HTTP API of `wdiet-server` (paths and bodies from SyncProtocol).
public struct ServerAPI: Sendable {
    public let baseURL: URL
    let session: URLSession

    public init(baseURL: URL, timeout: TimeInterval = 10) {
        self.baseURL = baseURL
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 3
        session = URLSession(configuration: configuration)
    }

    public func signup(_ credentials: PasswordCredentials) async throws -> TokenResponse {
        try await call("POST", AccountPaths.signup, body: credentials)
    }

    public func login(_ credentials: PasswordCredentials) async throws -> TokenResponse {
        try await call("POST", AccountPaths.login, body: credentials)
    }

    public func refresh(_ refreshToken: String) async throws -> TokenResponse {
        try await call("POST", AccountPaths.refresh, body: RefreshRequest(refreshToken: refreshToken))
    }

    public func logout(accessToken: String) async throws {
        let _: Empty = try await call("POST", AccountPaths.logout, token: accessToken)
    }

    public func push(_ request: PushRequest, accessToken: String) async throws -> PushResponse {
        try await call("POST", SyncPaths.push, token: accessToken, body: request)
    }

    public func pull(cursor: Int64, limit: Int, accessToken: String) async throws -> PullResponse {
        try await call("GET", SyncPaths.pull + "?cursor=\(cursor)&limit=\(limit)", token: accessToken)
    }

    public func devices(accessToken: String) async throws -> [DeviceSession] {
        try await call("GET", AccountPaths.devices, token: accessToken)
    }

    public func revokeDevice(_ sessionID: UUID, accessToken: String) async throws {
        let _: Empty = try await call("DELETE", AccountPaths.devices + "/\(sessionID.uuidString)", token: accessToken)
    }

    public func export(accessToken: String) async throws -> AccountExport {
        try await call("GET", AccountPaths.export, token: accessToken)
    }

    public func deleteAccount(accessToken: String) async throws {
        let _: Empty = try await call("DELETE", AccountPaths.account, token: accessToken)
    }

    /// Starts connecting WHOOP to the account: the address to open in a browser. 503
    /// `whoop_not_configured` when the server has no WHOOP registration.
    public func whoopConnect(accessToken: String) async throws -> WhoopConnectStart {
        try await call("POST", WhoopPaths.connect, token: accessToken)
    }

    /// Whether the account's WHOOP connection is there.
    public func whoopStatus(accessToken: String) async throws -> WhoopStatus {
        try await call("GET", WhoopPaths.connection, token: accessToken)
    }

    /// Disconnects WHOOP from the account: the server revokes, forgets the tokens and writes
    /// tombstones for every WHOOP record (they reach the devices at their next sync).
    public func whoopDisconnect(accessToken: String) async throws {
        let _: Empty = try await call("DELETE", WhoopPaths.connection, token: accessToken)
    }

    struct Empty: Codable {}

    private func call<Response: Decodable>(
        _ method: String,
        _ path: String,
        token: String? = nil,
        body: (some Encodable)? = Empty?.none
    ) async throws -> Response {
        guard let url = URL(string: path, relativeTo: baseURL) else { throw SyncError.invalidResponse("bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONEncoder.api.encode(body)
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw SyncError.offline
        }
        guard let http = response as? HTTPURLResponse else { throw SyncError.invalidResponse("not HTTP") }
        switch http.statusCode {
        case 200..<300:
            if Response.self == Empty.self, let empty = Empty() as? Response { return empty }
            do {
                return try JSONDecoder.api.decode(Response.self, from: data)
            } catch {
                throw SyncError.invalidResponse("\(method) \(path): \(error)")
            }
        default:
            let body = try? JSONDecoder.api.decode(APIErrorBody.self, from: data)
            if http.statusCode == 401, token != nil { throw SyncError.signedOut }
            throw SyncError.server(
                status: http.statusCode,
                code: body?.error.code ?? "http_\(http.statusCode)",
                message: body?.error.message ?? HTTPURLResponse.localizedString(forStatusCode: http.statusCode)
            )
        }
    }
}
