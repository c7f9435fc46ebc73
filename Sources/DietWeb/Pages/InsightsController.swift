import DietCore
import DietStore
import Foundation
import Hummingbird

/// The weekly summary (SPEC §8): intake against target per phase, adherence, the weight trend, streaks, the maintenance estimate.
struct InsightsController: Controller {
    let app: WebApp

    func register(on group: RouterGroup<OnboardedContext>) {}
}
