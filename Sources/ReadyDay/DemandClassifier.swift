import DietCore
import Foundation

/// Event demand (docs/rules.md §7): points for duration, attendees, the post-lunch dip and
/// title keywords; high ≥ 6, medium ≥ 3, else low.
public enum DemandClassifier {
    /// Keywords in the three languages of the app; matched in the lower-cased title.
    static let demanding = [
        "strategy", "review", "presentation", "interview", "planning", "brainstorm", "board", "all-hands",
        "pitch", "demo", "retrospective", "quarterly",
        "strategie", "präsentation", "vorstellungsgespräch", "planung", "vorstand", "quartal",
        "estrategia", "revisión", "presentación", "entrevista", "planificación", "junta", "trimestral",
    ]
    static let light = [
        "lunch", "break", "coffee", "social", "happy hour", "walk", "1:1", "check-in", "standup", "daily",
        "mittagessen", "pause", "kaffee", "spaziergang",
        "almuerzo", "descanso", "café", "paseo",
    ]

    public static func classify(_ event: CalendarEvent, timeZone: TimeZone) -> ClassifiedEvent {
        var points = 0
        let hours = event.duration / 3600
        points += hours >= 2 ? 3 : hours >= 1 ? 2 : 1
        points += event.attendeeCount >= 8 ? 3 : event.attendeeCount >= 4 ? 2 : event.attendeeCount >= 1 ? 1 : 0
        if (13...15).contains(TimeOfDay(event.start, in: timeZone).hour) { points += 1 }
        let title = event.title.lowercased()
        if demanding.contains(where: title.contains) {
            points += 2
        } else if light.contains(where: title.contains) {
            points -= 1
        }
        let demand: EnergyDemand = points >= 6 ? .high : points >= 3 ? .medium : .low
        return ClassifiedEvent(event: event, demand: demand, points: points)
    }
}

/// Calendar load (docs/rules.md §7): hours × 15 (high), 8 (medium) or 3 (low), capped at 100. Events
/// that do not block time (cancelled, free, all-day) add nothing.
public enum CalendarLoad {
    public static func score(_ events: [ClassifiedEvent]) -> Double {
        let total = events.filter { $0.event.blocksTime && !$0.event.isAllDay }.reduce(0.0) { sum, item in
            let weight: Double =
                switch item.demand {
                case .high: 15
                case .medium: 8
                case .low: 3
                }
            return sum + item.event.duration / 3600 * weight
        }
        return min(100, (total * 10).rounded() / 10)
    }
}

/// Runs of meetings with no real break between them.
public enum MeetingBlocks {
    /// A gap shorter than this does not break a run (walking to the next room).
    public static let maxGap: TimeInterval = 10 * 60

    public static func blocks(_ events: [ClassifiedEvent]) -> [DateInterval] {
        let busy = events.map(\.event).filter { $0.blocksTime && !$0.isAllDay && $0.duration > 0 }.sorted { $0.start < $1.start }
        var blocks: [DateInterval] = []
        for event in busy {
            if let last = blocks.last, event.start.timeIntervalSince(last.end) <= maxGap {
                blocks[blocks.count - 1] = DateInterval(start: last.start, end: max(last.end, event.end))
            } else {
                blocks.append(DateInterval(start: event.start, end: event.end))
            }
        }
        return blocks
    }
}
