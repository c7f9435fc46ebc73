import AsyncHTTPClient
import DietCore
import DietStore
import DietWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// A web app over a fresh SQLite file with a fixed clock, and a browser-like client that
/// keeps cookies and sends the CSRF token with every form.
struct WebHarness {
    let app: WebApp
    let folder: URL
    let clock: FixedClock
    let timeZone: TimeZone

    var databasePath: String { folder.appendingPathComponent("w-diet.sqlite").path }

    /// A second connection to the same file, for checking what was saved.
    func store() throws -> AppDatabase { try AppDatabase.open(path: databasePath, clock: clock) }

    static let now = Date(timeIntervalSince1970: 1_767_600_000)  // 2026-01-05 08:00 UTC

    /// Removes the database folder (tests call it through `defer`).
    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// `environment` is the serve process's: offline unless a test gives a fake Open Food Facts.
    init(
        now: Date = WebHarness.now,
        timeZone: TimeZone = TimeZone(identifier: "Europe/Berlin")!,
        language: Language = .en,
        environment: [String: String] = ["WDIET_OFFLINE": "1"],
        configure: (inout WebConfiguration) -> Void = { _ in }
    ) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        clock = FixedClock(now)
        self.timeZone = timeZone
        var configuration = WebConfiguration(
            databasePath: folder.appendingPathComponent("w-diet.sqlite").path,
            clock: clock,
            timeZone: timeZone,
            fallbackLanguage: language,
            environment: environment
        )
        configure(&configuration)
        app = try WebApp(configuration: configuration)
    }

    @discardableResult
    func run<T: Sendable>(_ body: @Sendable (Browser) async throws -> T) async throws -> T {
        let application = Application(router: app.router())
        return try await application.test(.router) { client in
            try await body(Browser(client: client))
        }
    }
}

/// Cookies and the CSRF token, as a browser keeps them.
final class Browser: @unchecked Sendable {
    let client: any TestClientProtocol
    private(set) var cookies: [String: String] = [:]
    var acceptLanguage = "en"
    /// The client address a trusted proxy on loopback forwards (`X-Forwarded-For`) with
    /// every request: another device on the network, for a server with `--trust-proxy`.
    let forwardedFor: String?

    init(client: any TestClientProtocol, forwardedFor: String? = nil) {
        self.client = client
        self.forwardedFor = forwardedFor
    }

    struct Page {
        let status: HTTPResponse.Status
        let body: String
        let headers: HTTPFields

        var location: String? { headers[.location] }
    }

    var csrf: String { cookies["wdiet_csrf"] ?? "" }

    @discardableResult
    func get(_ path: String) async throws -> Page {
        try await send(.get, path, body: nil, contentType: nil)
    }

    /// The raw bytes of a GET (images), with the status and headers.
    func bytes(_ path: String) async throws -> (status: HTTPResponse.Status, bytes: [UInt8], headers: HTTPFields) {
        try await client.execute(uri: path, method: .get, headers: [:], body: nil) { response in
            (response.status, Array(response.body.readableBytesView), response.headers)
        }
    }

    /// Posts `fields` url-encoded, adding the CSRF token unless `token` is given.
    @discardableResult
    func post(_ path: String, _ fields: [(String, String)] = [], token: String? = nil, extraHeaders: HTTPFields = [:]) async throws -> Page {
        var all = fields
        all.append(("_csrf", token ?? csrf))
        let body = all.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        return try await send(.post, path, body: body, contentType: "application/x-www-form-urlencoded", extraHeaders: extraHeaders)
    }

    /// Posts one file as multipart/form-data (with the CSRF token as a field).
    @discardableResult
    func upload(_ path: String, file: Data, filename: String) async throws -> Page {
        let boundary = "----wdiet\(UUID().uuidString)"
        var body = "--\(boundary)\r\nContent-Disposition: form-data; name=\"_csrf\"\r\n\r\n\(csrf)\r\n"
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(filename)\"\r\nContent-Type: application/json\r\n\r\n"
        body += String(decoding: file, as: UTF8.self) + "\r\n--\(boundary)--\r\n"
        return try await send(.post, path, body: body, contentType: "multipart/form-data; boundary=\(boundary)")
    }

    func send(
        _ method: HTTPRequest.Method,
        _ path: String,
        body: String?,
        contentType: String?,
        extraHeaders: HTTPFields = [:]
    ) async throws -> Page {
        var headers: HTTPFields = [.acceptLanguage: acceptLanguage]
        if !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") }
        if let contentType { headers[.contentType] = contentType }
        if let forwardedFor { headers[HTTPField.Name("X-Forwarded-For")!] = forwardedFor }
        headers.append(contentsOf: extraHeaders)
        return try await client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) { response in
            for field in response.headers[values: .setCookie] {
                let pair = field.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                guard pair.count == 2 else { continue }
                if pair[1].isEmpty || field.contains("Max-Age=0") { self.cookies[pair[0]] = nil } else { self.cookies[pair[0]] = pair[1] }
            }
            return Page(status: response.status, body: String(buffer: response.body), headers: response.headers)
        }
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// Completes onboarding with the given answers (a 35-year-old woman, 70.0 kg, losing).
    func onboard(
        language: Language = .en,
        sex: String = "female",
        goal: String = "lose",
        weight: String = "70",
        goalWeight: String = ""
    )
        async throws
    {
        try await get("/onboarding")
        var fields: [(String, String)] = [("language", language.rawValue)]
        let steps: [(String, [(String, String)])] =
            [
                ("welcome", []), ("sex", [("sex", sex)]), ("age", [("age", "35")]), ("height", [("height", "168")]),
                ("weight", [("weight", weight)]), ("activity", [("activity", "light")]),
                ("goal", [("goal", goal)]),
            ]
            + (goal == "maintain" ? [] : [("goal_weight", [("goal_weight", goalWeight)])])
            + (goal == "lose"
                ? [
                    (
                        "eating_window",
                        [("window_start", "12:00"), ("window_end", "18:00"), ("moment", "12:00"), ("moment", "15:00"), ("moment", "18:00")]
                    )
                ] : [])
        for (step, answers) in steps {
            fields += answers
            let page = try await post("/onboarding", fields + [("step", step), ("action", "next")])
            if step == steps.last?.0 {
                #expect(page.status == .seeOther, "\(step): \(page.body.prefix(400))")
            } else {
                #expect(page.status == .ok, "\(step)")
            }
        }
    }
}

/// `text` as the templates escape it.
func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
}

extension Browser.Page {
    /// The page has `text` (escaped as the templates do).
    func shows(_ text: String) -> Bool { body.contains(escaped(text)) }

    /// Every template string resolved: no `[[missing …]]` marker.
    var missingStrings: [String] {
        body.components(separatedBy: "[[missing ").dropFirst().map { String($0.prefix { $0 != "]" }) }
    }

    /// The first capture of `pattern` in the body.
    func first(_ pattern: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: body, range: NSRange(body.startIndex..., in: body)), match.numberOfRanges > 1,
            let range = Range(match.range(at: 1), in: body)
        else { return nil }
        return String(body[range])
    }
}

/// A real HTTP client for a live test server, shut down however `body` ends.
func withHTTPClient<T>(_ body: (HTTPClient) async throws -> T) async throws -> T {
    let http = HTTPClient(eventLoopGroupProvider: .singleton)
    do {
        let result = try await body(http)
        try await http.shutdown()
        return result
    } catch {
        try await http.shutdown()
        throw error
    }
}
