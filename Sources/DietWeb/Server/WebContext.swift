import DietCore
import DietStore
import Foundation
import Hummingbird

/// What a page needs from its request to render: the language, the CSRF token, the toast and
/// the submitted form.
protocol PageContext: RequestContext {
    var language: Language { get }
    var csrfToken: String { get }
    var flash: String? { get }
    var form: FormData { get }
    /// The url-encoded body of a POST as sent (nil for multipart), for `decode(_:)`.
    var formBody: String? { get }
}

extension PageContext {
    /// The submitted form as `T`, decoded with Hummingbird's `URLEncodedFormDecoder`. A textarea's
    /// CRLF line breaks arrive as line feeds (as `FormData` reads them).
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let body = (formBody ?? "").replacingOccurrences(of: "%0D%0A", with: "%0A", options: .caseInsensitive)
        do {
            return try URLEncodedFormDecoder().decode(type, from: body)
        } catch {
            throw HTTPError(.badRequest, message: Localizer(language).text("web.error.unexpected", ["reason": .text("\(error)")]))
        }
    }
}

/// The request context of the web app: the language, the CSRF token and the parsed form.
public struct WebContext: RequestContext, PageContext {
    public var coreContext: CoreRequestContextStorage
    /// The profile and start date, read once per request; nil before onboarding.
    var settings: UserSettings?
    /// The page language: the profile's, else the `lang` cookie, else Accept-Language.
    var language: Language = .en
    /// This browser's CSRF token (also in its SameSite=Strict cookie).
    var csrfToken = ""
    /// Whether the token cookie must be set on the response.
    var issueToken = false
    /// The body of a POST, parsed (url-encoded or multipart) and CSRF-checked.
    var form = FormData()
    var formBody: String?
    /// The toast to show once, from the previous redirect.
    var flash: String?
    /// The address of the connection's other end, and of the client (behind a trusted proxy,
    /// the address the proxy saw).
    let peerAddress: String?
    var clientAddress: String?
    /// Whether the browser reached us over HTTPS (directly or through the trusted proxy).
    var isSecure = false
    /// Whether this server asks for sign-in (it answers beyond loopback), and this browser's
    /// session when signed in.
    var signInRequired = false
    var sessionTokenHash: String?

    public init(source: Source) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
    }

    /// A restore file may be large; a browser that has not signed in sends at most a sign-in form.
    public var maxUploadSize: Int { signInRequired && sessionTokenHash == nil ? 1 << 20 : 32 << 20 }
}

/// The context of every page behind the "onboarded" group: the settings are there for sure
/// (`RequireOnboarding` sent everyone else to onboarding first).
struct OnboardedContext: ChildRequestContext, PageContext {
    var coreContext: CoreRequestContextStorage
    let web: WebContext
    let settings: UserSettings

    init(context: WebContext) throws {
        guard let settings = context.settings else { throw HTTPError(.seeOther, headers: [.location: "/onboarding"]) }
        coreContext = context.coreContext
        web = context
        self.settings = settings
    }

    var language: Language { web.language }
    var csrfToken: String { web.csrfToken }
    var flash: String? { web.flash }
    var form: FormData { web.form }
    var formBody: String? { web.formBody }
    var profile: Profile { settings.profile }
}

/// Sends a browser without a profile to onboarding; the pages behind it get `OnboardedContext`.
struct RequireOnboarding: RouterMiddleware {
    typealias Context = WebContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard context.settings != nil else { return Response(status: .seeOther, headers: [.location: "/onboarding"]) }
        return try await next(request, context)
    }
}
