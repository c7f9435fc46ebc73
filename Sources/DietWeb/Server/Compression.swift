import CompressNIO
import HTTPTypes
import Hummingbird

/// gzip for pages and other text a browser accepts it for: the dashboard travels as about a
/// fifth of its size. Streams (server-sent events) and bodies already encoded pass untouched.
/// BREACH needs the attacker's text and a secret in one authenticated response fetched
/// cross-site; the session cookie is SameSite=Strict, so such a request arrives signed out.
struct CompressionMiddleware: RouterMiddleware {
    typealias Context = WebContext
    /// Below this a compressed body is hardly smaller than the headers it adds.
    static let minimumLength = 1024
    /// zlib's fastest level: with the default one the dashboard's server time p95 was 5.2 ms
    /// (over the 5 ms budget), with this 4.2 ms, the page and its assets 35.2 KB instead of
    /// 31.5 KB (scripts/bench).
    static let zlib = ZlibConfiguration(compressionLevel: 1)

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard Self.acceptsGzip(request), response.headers[.contentEncoding] == nil,
            let length = response.body.contentLength, length >= Self.minimumLength,
            Self.isText(response.headers[.contentType] ?? "")
        else { return response }
        let collector = Collector()
        try await response.body.write(collector)
        var body = collector.buffer
        response.body = ResponseBody(byteBuffer: try body.compress(with: .gzip(configuration: Self.zlib)))
        response.headers[.contentEncoding] = "gzip"
        response.headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
        return response
    }

    static func acceptsGzip(_ request: Request) -> Bool {
        (request.headers[.acceptEncoding] ?? "").split(separator: ",").contains { part in
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            return fields.first == "gzip" && !fields.dropFirst().contains { $0.replacingOccurrences(of: " ", with: "") == "q=0" }
        }
    }

    static func isText(_ contentType: String) -> Bool {
        let type = contentType.lowercased()
        return type.hasPrefix("text/") && !type.hasPrefix("text/event-stream")
            || ["application/json", "application/manifest+json", "image/svg+xml", "application/javascript"].contains { type.hasPrefix($0) }
    }

    /// The bytes a response body writes, gathered.
    private final class Collector: ResponseBodyWriter {
        var buffer = ByteBuffer()

        func write(_ part: ByteBuffer) async throws {
            var part = part
            buffer.writeBuffer(&part)
        }

        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
