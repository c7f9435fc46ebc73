import DietCore
import Foundation
import Hummingbird

/// The education articles (seed 000): a list and each article in the user's language.
extension WebApp {
    func addLearn(to router: Router<WebContext>) {
        router.get("/learn") { [self] _, context in
            let l = localizer(context)
            let topics = EducationTopic.allCases.map { ["slug": $0.rawValue, "title": l.render($0.title)] }
            return renderer.page("learn", ["topics": topics], title: l.text("web.learn.title"), tab: .learn, context: context)
        }
        router.get("/learn/:topic") { [self] _, context in
            let l = localizer(context)
            guard let topic = context.parameters.get("topic").flatMap(EducationTopic.init(rawValue:)) else {
                throw HTTPError(.notFound, message: l.text("web.error.notFound"))
            }
            let text = try EducationLibrary.article(topic, in: context.language)
            // the article's own first heading is the page title
            let body = text.components(separatedBy: .newlines).drop { $0.hasPrefix("# ") || $0.isEmpty }.joined(separator: "\n")
            if context.settings != nil { try store.record(.educationOpened(topic: topic.rawValue), timeZone: timeZone) }
            return renderer.page("article", ["title": l.render(topic.title), "html": Markdown.html(body)],
                                 title: l.render(topic.title), tab: .learn, context: context)
        }
    }
}
