import DietCore
import DietStore
import Foundation
import Hummingbird

/// Badges and points (SPEC §5): earned and next badges with progress, points with their history.
struct BadgesController: Controller {
    let app: WebApp

    func register(on group: RouterGroup<OnboardedContext>) {}
}
