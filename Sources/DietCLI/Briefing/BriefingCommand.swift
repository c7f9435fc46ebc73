import ArgumentParser
import DietBriefing
import DietCore
import DietStore
import Foundation
import ReadyDay

/// `wdiet briefing`: the morning screen from the calendars (and WHOOP, once connected).
struct BriefingCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "briefing", abstract: "The morning briefing: recovery, the day's demands, advice, workout windows.")

    @Option(help: "The day (YYYY-MM-DD; default today).") var date: LocalDate?
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let whoopConnected = FileManager.default.fileExists(atPath: options.resolvedPath(environment: context.environment) + ".whoop.json")
        let stored = try session.run {
            try StoredBriefing.make(store: session.store, day: date ?? session.today, today: session.today, now: session.clock.now(),
                                    timeZone: session.timeZone, whoopConnected: whoopConnected)
        }
        if json { return try JSONOutput.encode(BriefingJSON(stored.briefing, localizer: session.localizer)) }
        return BriefingView(briefing: stored.briefing, localizer: session.localizer, timeZone: session.timeZone,
                            calendarsUpdated: stored.calendarsUpdated, whoopUpdated: stored.whoopUpdated).render()
    }
}

/// The briefing as text.
struct BriefingView {
    let briefing: DayBriefing
    let localizer: Localizer
    let timeZone: TimeZone
    let calendarsUpdated: Date?
    let whoopUpdated: Date?

    private func time(_ date: Date) -> String { TimeOfDay(date, in: timeZone).formatted }

    func render() -> String {
        let l = localizer
        var lines = [l.text("cli.briefing.title", ["date": .date(briefing.date)])]
        var status: [String] = []
        if let score = briefing.recovery?.score {
            status.append(l.text("cli.briefing.recovery", ["score": .integer(score), "zone": .text(l.text("cli.briefing.zone.\(briefing.zone.rawValue)"))]))
        }
        if let sleep = briefing.sleep {
            status.append(sleep.need.map {
                l.text("cli.briefing.sleepNeed", ["hours": .decimal(sleep.hours, digits: 1), "need": .decimal($0 / 3600, digits: 1)])
            } ?? l.text("cli.briefing.sleep", ["hours": .decimal(sleep.hours, digits: 1)]))
        }
        if !status.isEmpty { lines.append(status.joined(separator: " · ")) }
        if let events = briefing.events {
            lines.append("")
            if events.isEmpty {
                lines.append(l.text("cli.briefing.free"))
            } else {
                lines.append(l.text(events.count == 1 ? "cli.briefing.day.one" : "cli.briefing.day", ["count": .integer(events.count), "load": .integer(Int((briefing.load ?? 0).rounded()))]))
                for item in events {
                    let when = item.event.isAllDay ? l.text("cli.briefing.allDay") : "\(time(item.event.start))–\(time(item.event.end))"
                    var tags = [l.text("cli.briefing.demand.\(item.demand.rawValue)")]
                    if !item.event.blocksTime { tags = [l.text("cli.briefing.free.note")] }
                    lines.append("  \(when)  \(item.event.title) · \(tags.joined(separator: ", "))")
                }
            }
        }
        if !briefing.recommendations.isEmpty {
            lines.append("")
            lines.append(l.text("cli.briefing.recommendations"))
            for (index, recommendation) in briefing.recommendations.enumerated() {
                lines.append("  \(index + 1). \(l.render(recommendation.title)) — \(l.render(recommendation.body))")
            }
        }
        lines.append("")
        if briefing.workoutWindows.isEmpty {
            lines.append(l.text("cli.briefing.noWindows"))
        } else {
            lines.append(l.text("cli.briefing.windows") + ": " + briefing.workoutWindows.map {
                "\(time($0.start))–\(time($0.end)) (\(l.text("cli.briefing.intensity.\($0.intensity.rawValue)")))"
            }.joined(separator: ", "))
        }
        if let nutrition = briefing.nutrition {
            lines.append(l.text("cli.briefing.nutrition") + ": " + l.render(nutrition.message))
        }
        for alert in briefing.alerts {
            lines.append(l.text("cli.briefing.alert", ["time": .text(time(alert.alertAt))]) + ": " + l.render(alert.message))
        }
        if !briefing.notes.isEmpty || calendarsUpdated != nil || whoopUpdated != nil { lines.append("") }
        lines += briefing.notes.map(l.render)
        if let whoopUpdated {
            lines.append(l.text("cli.briefing.whoopUpdated", ["date": .date(LocalDate(whoopUpdated, in: timeZone)),
                                                              "time": .time(TimeOfDay(whoopUpdated, in: timeZone))]))
        }
        if let calendarsUpdated {
            lines.append(l.text("cli.briefing.calendarsUpdated", ["date": .date(LocalDate(calendarsUpdated, in: timeZone)),
                                                                  "time": .time(TimeOfDay(calendarsUpdated, in: timeZone))]))
        }
        return lines.joined(separator: "\n")
    }
}

/// The briefing for scripts: the domain values plus every message rendered in the user's language.
struct BriefingJSON: Encodable {
    struct Rendered: Encodable {
        let rule: String
        let kind: String
        let priority: String
        let title: String
        let body: String
    }

    let briefing: DayBriefing
    let recommendations: [Rendered]
    let nutrition: String?
    let notes: [String]

    init(_ briefing: DayBriefing, localizer: Localizer) {
        self.briefing = briefing
        recommendations = briefing.recommendations.map {
            Rendered(rule: $0.rule, kind: $0.kind.rawValue, priority: "\($0.priority)", title: localizer.render($0.title),
                     body: localizer.render($0.body))
        }
        nutrition = briefing.nutrition.map { localizer.render($0.message) }
        notes = briefing.notes.map(localizer.render)
    }
}
