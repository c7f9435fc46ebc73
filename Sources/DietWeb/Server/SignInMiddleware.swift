import DietBriefing
import DietStore
import Foundation
import HTTPTypes
import Hummingbird

/// Who is asking and over what: the client's address and whether the connection is HTTPS
/// (directly, or through a trusted reverse proxy on this machine); then, when the server
/// answers beyond loopback, the session cookie. Without a live session a page request is sent
/// to sign in (303) and a script's request gets 401; the sign-in pages and the assets are open.
/// Every cookie is marked `Secure` under HTTPS.
struct SignInMiddleware: RouterMiddleware {
    typealias Context = WebContext
    let app: WebApp

    static let sessionCookie = "wdiet_session"
    /// Reached without a session: the sign-in pages, the static files and the service worker.
    ///
    /// WHOOP's return to the callback is open too: it is a navigation from WHOOP's site, which
    /// carries no SameSite=Strict cookie, and it can only complete an attempt a signed-in
    /// browser started (the single-use state), answering with a forward or an error page.
    static func isOpen(_ path: String) -> Bool {
        ["/signin", "/setup", "/favicon.ico", "/sw.js", WhoopConnection.callbackPath].contains(path) || path.hasPrefix("/assets/")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let configuration = app.configuration
        let proxied = configuration.trustProxy && WebConfiguration.isLoopback(context.peerAddress ?? "")
        context.isSecure =
            configuration.tls != nil
            || (proxied && request.headers[.xForwardedProto]?.lowercased() == "https")
        if proxied, let forwarded = request.headers[.xForwardedFor] {
            // the proxy appends the address it saw; anything before it came from the client
            context.clientAddress = forwarded.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        } else {
            context.clientAddress = context.peerAddress
        }
        var response: Response
        if configuration.requiresSignIn {
            context.signInRequired = true
            if let token = request.cookies[Self.sessionCookie]?.value, let hash = try live(token) {
                context.sessionTokenHash = hash
            }
            if context.sessionTokenHash == nil, !Self.isOpen(request.uri.path) {
                response = refusal(request)
                return secured(response, context)
            }
        }
        response = try await next(request, context)
        return secured(response, context)
    }

    /// The hash of `token` when it names a session used within the idle timeout; an idle one
    /// is ended. A session's use is written at most once an hour: every write is a change that
    /// open pages fetch again (live updates), and the idle timeout counts in days.
    private func live(_ token: String) throws -> String? {
        guard token.count == 64, token.allSatisfy(\.isHexDigit) else { return nil }
        let hash = SignInGate.tokenHash(token)
        guard let session = try app.store.webSession(tokenHash: hash) else { return nil }
        let now = app.clock.now()
        if now.timeIntervalSince(session.lastSeenAt) > app.signIn.policy.idleTimeout {
            try app.store.endWebSessions(tokenHash: hash)
            return nil
        }
        if now.timeIntervalSince(session.lastSeenAt) > 3600 { try app.store.touchWebSession(tokenHash: hash) }
        return hash
    }

    /// A page request goes to sign in (and back here afterwards); anything else gets 401.
    private func refusal(_ request: Request) -> Response {
        let mode = request.headers[.secFetchMode]
        let accept = request.headers[.accept] ?? ""
        let isPage = request.method == .get && (mode == "navigate" || (mode == nil && accept.contains("text/html")))
        guard isPage else {
            return Response(
                status: .unauthorized,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "Sign in first: this w-diet answers other devices only after sign-in.\n"))
            )
        }
        let path = request.uri.path
        // only a path of ours is worth coming back to (`OwnPath`); sign-in checks it again
        let target =
            path == "/" || !OwnPath.isOwn(path)
            ? "/signin" : "/signin?next=" + (path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        return Response(status: .seeOther, headers: [.location: target])
    }

    /// Under HTTPS every cookie this response sets gets `Secure`.
    private func secured(_ response: Response, _ context: Context) -> Response {
        guard context.isSecure else { return response }
        var response = response
        let cookies = response.headers[values: .setCookie]
        guard !cookies.isEmpty else { return response }
        response.headers[values: .setCookie] = cookies.map { $0.lowercased().contains("; secure") ? $0 : $0 + "; Secure" }
        return response
    }
}
