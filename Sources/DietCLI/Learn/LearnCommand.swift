import ArgumentParser
import DietCore
import DietStore

/// `wdiet learn [topic]`: the education articles.
struct LearnCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "learn", abstract: "Read why w-diet works the way it does.")

    @Argument(help: "A topic: matador-study, intermittent-fasting, tdee or protein (or part of its title).") var topic: String?
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        guard let topic else {
            if json {
                return try JSONOutput.encode(Dictionary(uniqueKeysWithValues: EducationTopic.allCases.map { ($0.rawValue, l.render($0.title)) }))
            }
            return
                ([l.text("cli.learn.topics")]
                + EducationTopic.allCases.map { "  \($0.rawValue.padding(toLength: 22, withPad: " ", startingAt: 0)) \(l.render($0.title))" })
                .joined(separator: "\n")
        }
        guard let found = EducationLibrary.topic(matching: topic, in: session.language) else {
            throw CLIError(
                l.text(
                    "cli.learn.unknown",
                    ["topic": .text(topic), "topics": .text(EducationTopic.allCases.map(\.rawValue).joined(separator: ", "))]
                )
            )
        }
        let text: String
        do {
            text = try EducationLibrary.article(found, in: session.language)
        } catch {
            throw CLIError(l.text("cli.learn.unknown", ["topic": .text(topic), "topics": .text("")]))
        }
        if session.settings != nil {
            try session.run { try session.store.record(.educationOpened(topic: found.rawValue), timeZone: session.timeZone) }
        }
        return json ? try JSONOutput.encode(["topic": found.rawValue, "title": l.render(found.title), "markdown": text]) : text
    }
}
