import Hummingbird

/// Live updates of every open page when the store changes (issue 16).
struct LiveController {
    let app: WebApp

    func register(on router: Router<WebContext>) {}
}
