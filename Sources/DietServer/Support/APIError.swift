import Foundation
import Hummingbird
import SyncProtocol

/// An error answered as `{"error": {"code", "message"}}` with its status. Messages name what
/// was wrong, never a secret, and sign-in failures say the same whatever the cause.
struct APIError: HTTPResponseError {
    let status: HTTPResponse.Status
    let code: String
    let message: String
    var headers: HTTPFields = [:]

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try JSONEncoder.api.encode(APIErrorBody(code: code, message: message))
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func badRequest(_ message: String) -> APIError {
        APIError(status: .badRequest, code: "invalid_request", message: message)
    }

    static let unauthorized = APIError(
        status: .unauthorized,
        code: "unauthorized",
        message: "Sign in again: the access token is missing, expired or invalid.",
        headers: [.wwwAuthenticate: "Bearer"]
    )
    static let badCredentials = APIError(
        status: .unauthorized,
        code: "invalid_credentials",
        message: "The email or password is not correct."
    )
    static let badRefreshToken = APIError(
        status: .unauthorized,
        code: "invalid_refresh_token",
        message: "The session has ended; sign in again."
    )

    static func notFound(_ what: String) -> APIError {
        APIError(status: .notFound, code: "not_found", message: "\(what) was not found.")
    }

    static func tooManyAttempts(retryAfter seconds: Int) -> APIError {
        APIError(
            status: .tooManyRequests,
            code: "rate_limited",
            message: "Too many failed sign-in attempts. Try again in \(minutes(seconds)).",
            headers: [.retryAfter: String(seconds)]
        )
    }

    static func tooManySignups(retryAfter seconds: Int) -> APIError {
        APIError(
            status: .tooManyRequests,
            code: "rate_limited",
            message: "Too many accounts were created from this address. Try again in \(minutes(seconds)).",
            headers: [.retryAfter: String(seconds)]
        )
    }

    /// No database connection came in time (PostgreSQL down, failing over or out of reach).
    static let databaseUnreachable = APIError(
        status: .serviceUnavailable,
        code: "database_unreachable",
        message: "The database is not reachable. Try again in a few seconds; nothing was changed.",
        headers: [.retryAfter: "5"]
    )

    /// The server's bcrypt work is at its bound: try again shortly.
    static func busy(retryAfter seconds: Int) -> APIError {
        APIError(
            status: .serviceUnavailable,
            code: "server_busy",
            message: "The server is busy checking passwords. Try again in a few seconds.",
            headers: [.retryAfter: String(seconds)]
        )
    }

    private static func minutes(_ seconds: Int) -> String {
        let minutes = max(1, seconds / 60 + (seconds % 60 > 0 ? 1 : 0))
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }
}

extension Request {
    /// Decodes a JSON body, answering 400 with the path of the field that is wrong.
    func decodeJSON<Value: Decodable>(_ type: Value.Type, context: some RequestContext) async throws -> Value {
        try Self.decodeJSON(type, from: try await collectBody(context: context))
    }

    /// The whole body, or 413 when it is larger than the context allows.
    func collectBody(context: some RequestContext) async throws -> ByteBuffer {
        do {
            return try await body.collect(upTo: context.maxUploadSize)
        } catch {
            throw APIError(
                status: .contentTooLarge,
                code: "too_large",
                message: "The request body is larger than \(context.maxUploadSize / 1024) KB."
            )
        }
    }

    /// Decodes a collected JSON body, answering 400 with the path of the field that is wrong.
    static func decodeJSON<Value: Decodable>(_ type: Value.Type, from buffer: ByteBuffer) throws -> Value {
        do {
            return try JSONDecoder.api.decode(Value.self, from: Data(buffer: buffer))
        } catch let DecodingError.keyNotFound(key, decodingContext) {
            throw APIError.badRequest("Missing field \(Self.path(decodingContext.codingPath + [key])).")
        } catch let DecodingError.typeMismatch(_, decodingContext), let DecodingError.valueNotFound(_, decodingContext) {
            throw APIError.badRequest("Field \(Self.path(decodingContext.codingPath)) has the wrong type.")
        } catch let DecodingError.dataCorrupted(decodingContext) {
            let path = decodingContext.codingPath.isEmpty ? "The body" : "Field \(Self.path(decodingContext.codingPath))"
            throw APIError.badRequest("\(path) is not valid: \(decodingContext.debugDescription)")
        } catch {
            throw APIError.badRequest("The body is not valid JSON.")
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop(while: { $0 == "." }).description
    }
}

/// A JSON response with the API's encoding.
struct JSONBody<Value: Encodable & Sendable>: ResponseGenerator {
    let value: Value
    var status: HTTPResponse.Status = .ok

    init(_ value: Value, status: HTTPResponse.Status = .ok) {
        self.value = value
        self.status = status
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try JSONEncoder.api.encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
