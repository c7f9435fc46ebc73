import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Gives every request an id and logs one line when it is answered. The id is the client's
/// `X-Request-ID` when that is well formed (1 to 64 letters, digits, `-`, `_`, `.`, `:`),
/// else the one Hummingbird made; it goes into the request's logger (`hb.request.id`), so
/// every line logged through `context.logger` carries it, and back in the response header.
///
/// Errors are turned into their responses here, so the line, the header and the metrics
/// around this middleware see every answer. The line names the method, the matched route, the
/// path without its query (which may hold an OAuth code), the status and the duration: never
/// a body or a header.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    /// Optional only because the type's initializer is; the name is valid.
    static let header = HTTPField.Name("X-Request-ID")
    static let metadataKey = "hb.request.id"

    /// The incoming id if it is one we may log and echo; nil otherwise.
    static func acceptedID(_ value: String?) -> String? {
        guard let value, (1...64).contains(value.utf8.count),
            value.utf8.allSatisfy({ byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "-_.:".utf8.contains(byte)
            })
        else { return nil }
        return value
    }

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var context = context
        let id =
            Self.acceptedID(Self.header.flatMap { request.headers[$0] }) ?? context.logger[metadataKey: Self.metadataKey]?.description
            ?? RequestID().description
        context.logger[metadataKey: Self.metadataKey] = .string(id)
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        if let header = Self.header { response.headers[header] = id }
        let elapsed = (ContinuousClock.now - start).components
        context.logger.info(
            "request",
            metadata: [
                "method": "\(request.method.rawValue)",
                "route": "\(context.endpointPath ?? "NotFound")",
                "path": "\(request.uri.path.prefix(200))",
                "status": "\(response.status.code)",
                "duration_us": "\(elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000)",
            ]
        )
        return response
    }
}
