import Hummingbird

/// The service worker and what it needs to keep the app usable offline (issue 16).
struct OfflineController {
    let app: WebApp

    func register(on router: Router<WebContext>) {}
}
