import DietCore
import Foundation
import Hummingbird

/// The education articles (docs/rules.md §10), a list and each article in the user's language, and
/// progress (the weight and intake charts).
struct LearnController: Controller {
    let app: WebApp

    func register(public router: Router<WebContext>, onboarded group: RouterGroup<OnboardedContext>) {
        router.get("/learn", use: topics)
        router.get("/learn/:topic", use: article)
        group.get("/progress", use: progress)
    }

    func topics(_ request: Request, context: WebContext) async throws -> Response {
        let l = localizer(context)
        let topics = EducationTopic.allCases.map { ["slug": $0.rawValue, "title": l.render($0.title)] }
        return renderer.page("learn", ["topics": topics], title: l.text("web.learn.title"), tab: .learn, context: context)
    }

    func article(_ request: Request, context: WebContext) async throws -> Response {
        let l = localizer(context)
        guard let topic = context.parameters.get("topic").flatMap(EducationTopic.init(rawValue:)) else {
            throw HTTPError(.notFound, message: l.text("web.error.notFound"))
        }
        let text = try EducationLibrary.article(topic, in: context.language)
        // the article's own first heading is the page title
        let body = text.components(separatedBy: .newlines).drop { $0.hasPrefix("# ") || $0.isEmpty }.joined(separator: "\n")
        if context.settings != nil { try store.record(.educationOpened(topic: topic.rawValue), timeZone: timeZone) }
        return renderer.page(
            "article",
            ["title": l.render(topic.title), "html": Markdown.html(body)],
            title: l.render(topic.title),
            tab: .learn,
            context: context
        )
    }

    /// The charts over `?range=` (7d, 30d, 90d, 1y, all; ProgressCharts.swift).
    func progress(_ request: Request, context: OnboardedContext) async throws -> Response {
        let l = localizer(context)
        if context.settings.recoveryMode {
            var values = try recoveryRhythm(context: context)
            values["sectionProgress"] = true
            return renderer.page("recovery-progress", values, title: l.text("web.progress.title"), tab: .progress, context: context)
        }
        let range = ProgressRange(query: request.uri.queryParameters.get("range"))
        var values = try progressValues(range: range, settings: context.settings, localizer: l)
        values["sectionProgress"] = true
        return renderer.page("progress", values, title: l.text("web.progress.title"), tab: .progress, context: context)
    }
}
