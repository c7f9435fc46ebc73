import DietCore
import Foundation
import HTTPTypes
import Hummingbird

/// Refuses requests whose Host header is not one of ours: a page on another site that
/// resolves its own name to 127.0.0.1 (DNS rebinding) cannot read or drive the app.
struct HostAllowListMiddleware: RouterMiddleware {
    typealias Context = WebContext
    let allowed: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let host = request.head.authority ?? ""
        guard allowed.contains(Self.name(of: host)) else {
            return Response(
                status: .misdirectedRequest,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(
                    byteBuffer: ByteBuffer(
                        string: "w-diet answers only to its own addresses and the names given with --allow-host; this Host is not allowed: \(host)\n"
                    )
                )
            )
        }
        return try await next(request, context)
    }

    /// `localhost:8080` → `localhost`, `[::1]:8080` → `[::1]`, lowercased.
    static func name(of authority: String) -> String {
        let lowered = authority.lowercased()
        if lowered.hasPrefix("["), let close = lowered.firstIndex(of: "]") { return String(lowered[...close]) }
        return String(lowered.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}

/// Headers every response carries: a strict Content-Security-Policy (no inline script or
/// style, nothing from elsewhere), no framing, no sniffing, no referrer, no caching of pages;
/// and `Server-Timing` with the time spent in the app (read by the benchmark). A redirect's
/// `Location` is checked once more: one of the app's own paths (`OwnPath`), or an absolute
/// http(s) address (WHOOP's sign-in page), else it becomes `/`.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = WebContext

    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
        "font-src 'self'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'", "manifest-src 'self'",
    ].joined(separator: "; ")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            response = Response(
                status: error.status,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: (error.body ?? error.status.reasonPhrase) + "\n"))
            )
        }
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on its own forms
        response.headers[.referrerPolicy] = "same-origin"
        response.headers[.crossOriginOpenerPolicy] = "same-origin"
        response.headers[.crossOriginResourcePolicy] = "same-origin"
        // the camera only for this app's own barcode scanner (the browser's BarcodeDetector, else
        // static/barcode.js: a same-origin script, which `script-src 'self'` allows), never for a frame
        response.headers[.permissionsPolicy] = "camera=(self), geolocation=(), microphone=()"
        response.headers[.serverTiming] = "app;dur=\(String(format: "%.3f", ms))"
        if let location = response.headers[.location], !Self.isSafeLocation(location) { response.headers[.location] = OwnPath.fallback }
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }

    /// One of the app's own paths, or an absolute http(s) address with a host and no
    /// whitespace, control character or backslash anywhere.
    static func isSafeLocation(_ location: String) -> Bool {
        if OwnPath.isOwn(location) { return true }
        let lowered = location.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://"), !location.unicodeScalars.contains(where: OwnPath.isForbidden)
        else { return false }
        return URLComponents(string: location)?.host?.isEmpty == false
    }
}

/// Per request: picks the language, issues or reads the CSRF token, parses a POST body and
/// refuses a state-changing request without the right token (or from another origin), and
/// takes the one-time toast.
struct SessionMiddleware: RouterMiddleware {
    typealias Context = WebContext
    let app: WebApp

    static let tokenCookie = "wdiet_csrf"
    static let languageCookie = "wdiet_lang"
    static let flashCookie = "wdiet_flash"
    static let tokenField = "_csrf"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        var request = request
        let cookies = request.cookies
        if let token = cookies[Self.tokenCookie]?.value, token.count == 64, token.allSatisfy(\.isHexDigit) {
            context.csrfToken = token
        } else {
            context.csrfToken = Self.newToken()
            context.issueToken = true
        }
        context.settings = try app.store.settings()
        context.language = app.language(for: request, settings: context.settings)
        context.flash = cookies[Self.flashCookie]?.value
        if request.method == .post {
            if let refused = await readForm(&request, &context) { return refused }
        } else if request.method != .get && request.method != .head {
            return Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD, POST"])
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            // a missing page, food or meal: a page of the app with the reason and a way home
            let l = Localizer(context.language)
            response = app.renderer.page(
                "error",
                ["message": error.body ?? l.text("web.error.notFound")],
                title: l.text("web.error.title"),
                tab: nil,
                context: context,
                status: error.status
            )
        }
        if context.issueToken {
            response.setCookie(Cookie(name: Self.tokenCookie, value: context.csrfToken, path: "/", httpOnly: true, sameSite: .strict))
        }
        // a form that changed something answers with a redirect: sync it in the background
        if request.method == .post, response.status == .seeOther { await app.sync.changed() }
        if context.flash != nil, response.headers[.location] == nil, request.method == .get {
            response.setCookie(Cookie(name: Self.flashCookie, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .strict))
        }
        return response
    }

    /// Reads a POST's form into the context and checks it: same origin, within the size limit,
    /// the CSRF token, no forbidden control character. The refusal page when it fails.
    private func readForm(_ request: inout Request, _ context: inout Context) async -> Response? {
        guard sameOrigin(request, secure: context.isSecure) else { return refusal(context) }
        do {
            (context.form, context.formBody) = try await parseForm(&request, context: context)
        } catch {
            // the only way reading a local request's body fails: it is larger than the limit
            let l = Localizer(context.language)
            return app.renderer.page(
                "error",
                ["message": l.text("web.error.tooLarge", ["mb": .integer(context.maxUploadSize >> 20)])],
                title: l.text("web.error.title"),
                tab: nil,
                context: context,
                status: .contentTooLarge
            )
        }
        let sent = context.form[Self.tokenField] ?? request.headers[.xCSRFToken] ?? ""
        guard !context.issueToken, Self.constantTimeEqual(sent, context.csrfToken) else { return refusal(context) }
        if let (name, value) = context.form.forbiddenControlCharacter { return controlRefusal(name: name, value: value, context) }
        return nil
    }

    /// A cross-site POST carries `Origin` (or `Sec-Fetch-Site`) naming another site.
    private func sameOrigin(_ request: Request, secure: Bool) -> Bool {
        if let site = request.headers[.secFetchSite], !["same-origin", "none"].contains(site) { return false }
        guard let origin = request.headers[.origin] else { return true }
        let host = request.head.authority ?? ""
        return origin == (secure ? "https://" : "http://") + host
    }

    /// A page of the app saying the form was refused and nothing saved, with a way home.
    private func refusal(_ context: Context) -> Response {
        let l = Localizer(context.language)
        var response = app.renderer.page(
            "error",
            ["message": l.text("web.error.csrf")],
            title: l.text("web.error.title"),
            tab: nil,
            context: context,
            status: .forbidden
        )
        if context.issueToken {
            response.setCookie(Cookie(name: Self.tokenCookie, value: context.csrfToken, path: "/", httpOnly: true, sameSite: .strict))
        }
        return response
    }

    /// A page saying which field held a control character; nothing reaches a page's handler,
    /// so nothing is saved (a NUL would be cut off by SQLite yet sent whole to the server).
    private func controlRefusal(name: String, value: String, _ context: Context) -> Response {
        let l = Localizer(context.language)
        let message = l.text(
            "web.error.control",
            [
                "field": .text(FormData.label(of: name, l)), "allowed": .message(ValidationError.Allowed.noControlCharacters.message),
                "received": .text(["password", "passphrase", "repeat"].contains(name) ? "…" : TextRules.quoted(value)),
            ]
        )
        return app.renderer.page(
            "error",
            ["message": message],
            title: l.text("web.error.title"),
            tab: nil,
            context: context,
            status: .unprocessableContent
        )
    }

    /// The form and, when url-encoded, its body as sent (for the typed forms' decoder).
    private func parseForm(_ request: inout Request, context: Context) async throws -> (FormData, String?) {
        let type = request.headers[.contentType] ?? ""
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        let data = Data(buffer: buffer)
        if type.lowercased().hasPrefix("multipart/form-data"),
            let boundary = type.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) })
                .first(where: { $0.lowercased().hasPrefix("boundary=") })?.dropFirst("boundary=".count)
        {
            let cleaned = boundary.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return (FormData.multipart(data, boundary: cleaned) ?? FormData(), nil)
        }
        let body = String(decoding: data, as: UTF8.self)
        return (FormData.urlEncoded(body), body)
    }

    static func newToken() -> String {
        // SystemRandomNumberGenerator is the operating system's CSPRNG (getrandom on Linux).
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
