import Foundation

/// A parsed iCalendar file: its events, the zones they use, and what was damaged.
///
/// Damaged lines and events are skipped and listed in `problems` with their line numbers;
/// the rest of the calendar is kept. So is anything beyond the bounds that keep a hostile
/// calendar from exhausting memory or time (a line over 1 MB, more than 100,000 components …).
/// Only input that is not an iCalendar document at all throws.
public struct ICalendarDocument: Sendable {
    public let events: [Event]
    public let problems: [ICalendarProblem]
    /// X-WR-TIMEZONE: the calendar's zone for floating times, when it names one.
    public let defaultZone: TimeZone?
    /// Resolved TZIDs; a TZID missing here could not be resolved (reported in `problems`).
    let zones: [String: any ZoneRules]

    public init(parsing text: String) throws(ICalendarError) {
        var (root, problems) = try ComponentParser.parse(text)
        var events: [Event] = []
        for component in root.children where component.name == "VEVENT" {
            do {
                events.append(try EventBuilder.event(from: component, problems: &problems))
            } catch let .invalidLine(line, message) {
                problems.add(line: line, "event skipped: \(message)")
            } catch {
                problems.add(line: component.line, "event skipped: \(error)")
            }
        }
        self.events = events
        zones = Self.resolveZones(of: events, root: root, problems: &problems)
        self.problems = problems.sorted
        defaultZone = root.first("X-WR-TIMEZONE").flatMap { ZoneResolver.iana($0.value.trimmingCharacters(in: .whitespaces)) }
    }

    /// The rules of every TZID the events use. VTIMEZONE transitions share one work budget;
    /// a zone that cannot be resolved within it is read as local times and reported.
    private static func resolveZones(of events: [Event], root: Component, problems: inout ProblemList) -> [String: any ZoneRules] {
        let definitions = Dictionary(
            root.children.filter { $0.name == "VTIMEZONE" }.compactMap { component in
                component.first("TZID").map { ($0.value.trimmingCharacters(in: .whitespaces), component) }
            },
            uniquingKeysWith: { first, _ in first }
        )
        var zones: [String: any ZoneRules] = [:]
        var unresolved: [String: (line: Int, tooComplex: Bool)] = [:]
        var budget = Limits.zoneSteps
        for event in events {
            for time in [event.start, event.end, event.recurrenceID].compactMap({ $0 }) + event.extraDates + event.exceptionDates {
                guard case let .zoned(_, zone) = time, zones[zone.tzid] == nil, unresolved[zone.tzid] == nil else { continue }
                if let rules = ZoneResolver.resolve(zone.tzid, definitions: definitions, budget: &budget) {
                    zones[zone.tzid] = rules
                } else {
                    // Only a defined zone can be too complex; an unknown name stays unknown.
                    let defined = definitions[zone.tzid.trimmingCharacters(in: .whitespaces)] != nil
                    unresolved[zone.tzid] = (event.line, defined && budget <= 0)
                }
            }
        }
        for (tzid, (line, tooComplex)) in unresolved.sorted(by: { $0.value.line < $1.value.line }) {
            problems.add(
                line: line,
                tooComplex
                    ? "time zone “\(tzid)” has more transitions than are read; its times are read as local times"
                    : "time zone “\(tzid)” is unknown; its times are read as local times"
            )
        }
        return zones
    }
}
