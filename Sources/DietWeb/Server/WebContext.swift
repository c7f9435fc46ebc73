import DietCore
import DietStore
import Foundation
import Hummingbird

/// The request context of the web app: the language, the CSRF token and the parsed form.
public struct WebContext: RequestContext {
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
    /// The toast to show once, from the previous redirect.
    var flash: String?

    public init(source: Source) {
        coreContext = .init(source: source)
    }

    public var maxUploadSize: Int { 32 * 1024 * 1024 }
}
