import DietCore
import DietStore
import Foundation
import Hummingbird

/// "How is this calculated?" (SPEC §2): BMR, TDEE, today's target and macro goals, each with
/// its steps, in the user's language.
extension WebApp {
    func addExplain(to router: Router<WebContext>) {
        router.get("/explain") { [self] _, context in
            guard context.settings != nil, let snapshot = try store.today(timeZone: timeZone) else { return redirect("/onboarding") }
            let l = localizer(context)
            let plan = snapshot.report.plan
            let kind = snapshot.report.targets.kind
            let sections = [plan.explainBMR(), plan.explainTDEE(), plan.explainTarget(kind), plan.explainMacros(kind)].map { explanation in
                ["title": l.render(explanation.title), "steps": explanation.steps.map(l.render)] as [String: Any]
            }
            return renderer.page("explain", ["sections": sections], title: l.text("web.explain.title"), tab: nil, context: context)
        }
    }
}
