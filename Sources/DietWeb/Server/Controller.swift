import DietCore
import DietStore
import Foundation
import Hummingbird

/// A page area of the web app: it registers its routes and reaches the app's store, renderer,
/// clock and shared responses through `app`.
protocol Controller: Sendable {
    var app: WebApp { get }
}

extension Controller {
    var store: AppDatabase { app.store }
    var renderer: Renderer { app.renderer }
    var clock: any Clock { app.clock }
    var timeZone: TimeZone { app.timeZone }
    var today: LocalDate { app.today }
    var configuration: WebConfiguration { app.configuration }
    var sync: BackgroundSync { app.sync }

    func localizer(_ context: some PageContext) -> Localizer { Localizer(context.language) }

    func redirect(_ path: String, toast: Toast? = nil, roar: Roar? = nil) -> Response {
        app.redirect(path, toast: toast, roar: roar)
    }

    func message(for error: any Error, _ l: Localizer) -> String { app.message(for: error, l) }
}
