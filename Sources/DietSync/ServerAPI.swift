import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SyncProtocol

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

/// The HTTP API of `wdiet-server` (paths and bodies from SyncProtocol), through AsyncHTTPClient:
/// Foundation's URLSession would link FoundationNetworking and libcurl with its two dozen
/// libraries into every start of `wdiet` (8 ms of a cold `wdiet today`).
public struct ServerAPI: Sendable {
    /// One client for the process (never shut down, as AsyncHTTPClient's shared one). A refused
    /// connection is an answer, not retried until the deadline: "server not reachable" comes at
    /// once, where the shared client tried a closed port for the whole 30 s.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout = .init(connect: .seconds(10))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    public let baseURL: URL
    /// How long a call may take, from its request to the end of the server's answer.
    let timeout: TimeAmount
    /// The largest answer read: an account's whole export, with room to spare.
    static let maximumBody = 256 << 20

    public init(baseURL: URL, timeout: TimeInterval = 10) {
        self.baseURL = baseURL
        self.timeout = .milliseconds(Int64(max(timeout, 0.001) * 3000))
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
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        request.headers.add(name: "Accept", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder.api.encode(body)))
        }
        let status: HTTPResponseStatus
        let data: Data
        do {
            let response = try await Self.client.execute(request, deadline: .now() + timeout)
            status = response.status
            data = Data(try await response.body.collect(upTo: Self.maximumBody).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw SyncError.invalidResponse("\(method) \(path): an answer larger than \(Self.maximumBody >> 20) MB")
        } catch {
            throw SyncError.offline
        }
        switch Int(status.code) {
        case 200..<300:
            if Response.self == Empty.self, let empty = Empty() as? Response { return empty }
            do {
                return try JSONDecoder.api.decode(Response.self, from: data)
            } catch {
                throw SyncError.invalidResponse("\(method) \(path): \(error)")
            }
        default:
            let body = try? JSONDecoder.api.decode(APIErrorBody.self, from: data)
            if status.code == 401, token != nil { throw SyncError.signedOut }
            throw SyncError.server(
                status: Int(status.code),
                code: body?.error.code ?? "http_\(status.code)",
                message: body?.error.message ?? status.reasonPhrase
            )
        }
    }
}
