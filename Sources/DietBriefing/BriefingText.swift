import DietCore
import Foundation
import ReadyDay

/// The briefing's words in the user's language, as every surface shows them: the CLI lays
/// them out as lines, the web app as cards.
public struct BriefingText: Sendable {
    public struct Event: Sendable {
        /// "09:00–10:30", or "all day".
        public let when: String
        public let title: String
        public let demand: EnergyDemand
        /// The demand ("high demand"), or that the event leaves the time free.
        public let tag: String
    }

    public let date: String
    /// "Recovery 40 % (yellow)", nil without a score.
    public let recovery: String?
    /// "Sleep 5.5 h of 8.1 h needed", nil without sleep data.
    public let sleep: String?
    /// "4 events · load 63" or "a free day"; nil without calendars.
    public let calendarSummary: String?
    public let events: [Event]
    public let recommendations: [(title: String, body: String)]
    /// "13:00–15:00 (moderate)".
    public let windows: [String]
    /// Why each window was chosen, in the order of `windows`: "13:00–15:00: the free gap
    /// between … ; moderate because recovery is yellow (55 %)".
    public let windowReasons: [String]
    public let nutrition: String?
    /// "13:45: …".
    public let alerts: [String]
    /// Missing or stale sources, then when WHOOP and the calendars were last updated.
    public let notes: [String]
    /// Neither WHOOP nor a calendar is connected: the briefing has nothing to say but that.
    public let hasNoSources: Bool

    public init(_ stored: StoredBriefing, timeZone: TimeZone, localizer l: Localizer) {
        let briefing = stored.briefing
        func time(_ date: Date) -> String { TimeOfDay(date, in: timeZone).formatted }
        func updated(_ key: String, _ instant: Date) -> String {
            l.text(key, ["date": .date(LocalDate(instant, in: timeZone)), "time": .time(TimeOfDay(instant, in: timeZone))])
        }
        date = l.date(briefing.date)
        recovery = briefing.recovery?.score.map {
            l.text("cli.briefing.recovery", ["score": .integer($0), "zone": .text(l.text("cli.briefing.zone.\(briefing.zone.rawValue)"))])
        }
        sleep = briefing.sleep.map { sleep in
            sleep.need.map {
                l.text("cli.briefing.sleepNeed", ["hours": .decimal(sleep.hours, digits: 1), "need": .decimal($0 / 3600, digits: 1)])
            } ?? l.text("cli.briefing.sleep", ["hours": .decimal(sleep.hours, digits: 1)])
        }
        calendarSummary = briefing.events.map { events in
            events.isEmpty
                ? l.text("cli.briefing.free")
                : l.text("cli.briefing.day", ["count": .integer(events.count), "load": .integer(Int((briefing.load ?? 0).rounded()))])
        }
        events = (briefing.events ?? []).map { item in
            Event(
                when: item.event.isAllDay ? l.text("cli.briefing.allDay") : "\(time(item.event.start))–\(time(item.event.end))",
                title: item.event.title,
                demand: item.demand,
                tag: item.event.blocksTime ? l.text("cli.briefing.demand.\(item.demand.rawValue)") : l.text("cli.briefing.free.note")
            )
        }
        recommendations = briefing.recommendations.map { (l.render($0.title), l.render($0.body)) }
        windows = briefing.workoutWindows.map {
            "\(time($0.start))–\(time($0.end)) (\(l.text("cli.briefing.intensity.\($0.intensity.rawValue)")))"
        }
        windowReasons = briefing.workoutWindows.map {
            "\(time($0.start))–\(time($0.end)): " + Self.reason($0.reason, localizer: l)
        }
        nutrition = briefing.nutrition.map { l.render($0.message) }
        alerts = briefing.alerts.map { l.text("cli.briefing.alert", ["time": .text(time($0.alertAt))]) + ": " + l.render($0.message) }
        hasNoSources = briefing.notes.contains { $0.key == BriefingNote.noSources }
        notes =
            briefing.notes.map(l.render)
            + [
                stored.whoopUpdated.map { updated("cli.briefing.whoopUpdated", $0) },
                stored.calendarsUpdated.map { updated("cli.briefing.calendarsUpdated", $0) },
            ].compactMap { $0 }
    }

    /// A window's reason in words: the gap, the preparation, the preferred hours; then the
    /// intensity and the recovery behind it.
    public static func reason(_ reason: WindowReason, localizer l: Localizer) -> String {
        var parts: [String] = []
        switch reason.gap {
        case .freeDay: parts.append(l.text("web.briefing.why.freeDay"))
        case .beforeFirst: parts.append(l.text("web.briefing.why.beforeFirst", ["event": .text(reason.before ?? "")]))
        case .afterLast: parts.append(l.text("web.briefing.why.afterLast", ["event": .text(reason.after ?? "")]))
        case .between: parts.append(l.text("web.briefing.why.between", ["after": .text(reason.after ?? ""), "before": .text(reason.before ?? "")]))
        }
        if reason.longest { parts.append(l.text("web.briefing.why.longest")) }
        if let minutes = reason.preparationMinutes { parts.append(l.text("web.briefing.why.preparation", ["minutes": .integer(minutes)])) }
        if reason.startsNow { parts.append(l.text("web.briefing.why.now")) }
        parts.append(
            l.text(
                "web.briefing.why.preferred",
                [
                    "from": .text(TimeOfDay(minutesSinceMidnight: reason.preferredFrom % 1440).formatted),
                    "to": .text(reason.preferredTo >= 1440 ? "24:00" : TimeOfDay(minutesSinceMidnight: reason.preferredTo).formatted),
                ]
            )
        )
        let intensity: String =
            if let score = reason.score {
                l.text("web.briefing.why.zone.\(reason.zone.rawValue)", ["score": .integer(score)])
            } else {
                l.text("web.briefing.why.zone.unknown")
            }
        return parts.joined(separator: ", ") + "; " + intensity
    }
}
