import ArgumentParser
import DietBriefing
import DietCore
import DietStore
import Foundation
import ReadyDay

/// `wdiet briefing`: the morning screen from the calendars (and WHOOP, once connected).
struct BriefingCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "briefing",
        abstract: "The morning briefing: recovery, the day's demands, advice, workout windows."
    )

    @Option(help: "The day (YYYY-MM-DD; default today).") var date: LocalDate?
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    /// How long the stale calendar addresses may take to read again (all at once) before the
    /// briefing answers from the stored copies: short, since offline it is waited for each time.
    static let refreshTimeLimit: Duration = .seconds(3)

    func execute(_ context: CLIContext) async throws -> String {
        let session = try Session.open(options, context: context)
        // Addresses read more than an hour ago are read again first (not offline), so this
        // device refreshes them for the others too; one that fails keeps its copy and says so.
        var kept: [String] = []
        let due = StaleCalendars.due(in: session.store, now: session.clock.now(), environment: context.environment)
        if !due.isEmpty {
            let outcome = await StaleCalendars.refresh(due, in: session.store, timeLimit: Self.refreshTimeLimit)
            kept = outcome.failures.map { failure in
                session.localizer.text(
                    "cli.calendar.refreshFailed",
                    [
                        "name": .text(failure.calendar.name), "reason": .text(failure.failure.localized(session.localizer)),
                        "date": .date(LocalDate(failure.calendar.fetchedAt, in: session.timeZone)),
                        "time": .time(TimeOfDay(failure.calendar.fetchedAt, in: session.timeZone)),
                    ]
                )
            }
        }
        let stored = try session.run {
            try StoredBriefing.make(
                store: session.store,
                databasePath: options.resolvedPath(environment: context.environment),
                day: date ?? session.today,
                today: session.today,
                now: session.clock.now(),
                timeZone: session.timeZone
            )
        }
        if json { return try JSONOutput.encode(BriefingJSON(stored.briefing, localizer: session.localizer)) }
        let view = BriefingView(
            text: BriefingText(stored, timeZone: session.timeZone, localizer: session.localizer),
            localizer: session.localizer
        ).render()
        return ([view] + kept).joined(separator: "\n")
    }
}

/// The briefing as text.
struct BriefingView {
    let text: BriefingText
    let localizer: Localizer

    func render() -> String {
        let l = localizer
        var lines = [l.text("cli.briefing.title", ["date": .text(text.date)])]
        if text.hasNoSources { return (lines + [""] + text.notes + [l.text("cli.briefing.connectHint")]).joined(separator: "\n") }
        let status = [text.recovery, text.sleep].compactMap { $0 }
        if !status.isEmpty { lines.append(status.joined(separator: " · ")) }
        if let summary = text.calendarSummary {
            lines += ["", summary] + text.events.map { "  \($0.when)  \($0.title) · \($0.tag)" }
        }
        if !text.recommendations.isEmpty {
            lines += ["", l.text("cli.briefing.recommendations")]
            lines += text.recommendations.enumerated().map { "  \($0.offset + 1). \($0.element.title) — \($0.element.body)" }
        }
        lines.append("")
        lines.append(
            text.windows.isEmpty
                ? l.text("cli.briefing.noWindows")
                : l.text("cli.briefing.windows") + ": " + text.windows.joined(separator: ", ")
        )
        lines += text.windowReasons.map { "  " + $0 }
        if let nutrition = text.nutrition { lines.append(l.text("cli.briefing.nutrition") + ": " + nutrition) }
        lines += text.alerts
        if !text.notes.isEmpty { lines += [""] + text.notes }
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

    /// A workout window with why it was chosen, in words.
    struct Window: Encodable {
        let start: Date
        let end: Date
        let intensity: String
        let reason: String
    }

    let briefing: DayBriefing
    let recommendations: [Rendered]
    let windows: [Window]
    let nutrition: String?
    let notes: [String]

    init(_ briefing: DayBriefing, localizer: Localizer) {
        self.briefing = briefing
        windows = briefing.workoutWindows.map {
            Window(start: $0.start, end: $0.end, intensity: $0.intensity.rawValue, reason: BriefingText.reason($0.reason, localizer: localizer))
        }
        recommendations = briefing.recommendations.map {
            Rendered(
                rule: $0.rule,
                kind: $0.kind.rawValue,
                priority: "\($0.priority)",
                title: localizer.render($0.title),
                body: localizer.render($0.body)
            )
        }
        nutrition = briefing.nutrition.map { localizer.render($0.message) }
        notes = briefing.notes.map(localizer.render)
    }
}
