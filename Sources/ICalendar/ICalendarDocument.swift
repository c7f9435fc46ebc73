import Foundation

/// A parsed iCalendar file: its events, the zones they use, and what was damaged.
///
/// Damaged lines and events are skipped and listed in `problems` with their line numbers;
/// the rest of the calendar is kept. Only input that is not an iCalendar document at all
/// throws.
public struct ICalendarDocument: Sendable {
    public let events: [Event]
    public let problems: [ICalendarProblem]
    /// X-WR-TIMEZONE: the calendar's zone for floating times, when it names one.
    public let defaultZone: TimeZone?
    /// Resolved TZIDs; a TZID missing here could not be resolved (reported in `problems`).
    let zones: [String: any ZoneRules]

    public init(parsing text: String) throws(ICalendarError) {
        let (root, parseProblems) = try ComponentParser.parse(text)
        var problems = parseProblems
        let definitions = Dictionary(root.children.filter { $0.name == "VTIMEZONE" }.compactMap { component in
            component.first("TZID").map { ($0.value.trimmingCharacters(in: .whitespaces), component) }
        }, uniquingKeysWith: { first, _ in first })

        var events: [Event] = []
        for component in root.children where component.name == "VEVENT" {
            do {
                events.append(try EventBuilder.event(from: component))
            } catch let .invalidLine(line, message) {
                problems.append(ICalendarProblem(line: line, message: "event skipped: \(message)"))
            } catch {
                problems.append(ICalendarProblem(line: component.line, message: "event skipped: \(error)"))
            }
        }

        var zones: [String: any ZoneRules] = [:]
        var unresolved: [String: Int] = [:]
        for event in events {
            for time in [event.start, event.end, event.recurrenceID].compactMap({ $0 }) + event.extraDates + event.exceptionDates {
                guard case let .zoned(_, zone) = time, zones[zone.tzid] == nil, unresolved[zone.tzid] == nil else { continue }
                if let rules = ZoneResolver.resolve(zone.tzid, definitions: definitions) {
                    zones[zone.tzid] = rules
                } else {
                    unresolved[zone.tzid] = event.line
                }
            }
        }
        for (tzid, line) in unresolved.sorted(by: { $0.value < $1.value }) {
            problems.append(ICalendarProblem(line: line, message: "time zone “\(tzid)” is unknown; its times are read as local times"))
        }
        self.events = events
        self.problems = problems.sorted { $0.line < $1.line }
        self.zones = zones
        defaultZone = root.first("X-WR-TIMEZONE").flatMap { ZoneResolver.iana($0.value.trimmingCharacters(in: .whitespaces)) }
    }
}
