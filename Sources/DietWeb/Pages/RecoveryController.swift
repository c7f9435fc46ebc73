import DietCore
import DietStore
import Foundation
import Hummingbird

/// Recovery mode (SPEC §8): turning it on and off, and mindful logging.
struct RecoveryController: Controller {
    let app: WebApp

    func register(on group: RouterGroup<OnboardedContext>) {}
}
