/// Reads a VEVENT component; throws a problem naming the line for a damaged event. Parts
/// beyond `Limits` (RDATE or EXDATE values, attendees) are dropped and reported in `problems`.
enum EventBuilder {
    static func event(from component: Component, problems: inout ProblemList) throws(ICalendarError) -> Event {
        guard let startLine = component.first("DTSTART") else {
            throw .invalidLine(line: component.line, "the event has no DTSTART")
        }
        let start = try time(startLine)
        var end = try component.first("DTEND").map { line throws(ICalendarError) in try time(line) }
        var duration = try component.first("DURATION").map { line throws(ICalendarError) -> Int in
            guard let seconds = Durations.seconds(line.value) else {
                throw .invalidLine(line: line.line, "DURATION “\(line.value)” is not a duration")
            }
            return seconds
        }
        if let endTime = end, !isZoneMix(start, endTime),
           endTime.civil < start.civil || (endTime.isDate && endTime.civil == start.civil) {
            // An end before the start is damaged: the event falls back to the default length.
            end = nil
        }
        if end != nil, duration != nil { duration = nil } // DTEND wins when both are (wrongly) given
        let rule = try component.first("RRULE").map { line throws(ICalendarError) -> RecurrenceRule in
            do throws(ICalendarError) {
                return try RecurrenceRule(parsing: line.value)
            } catch {
                throw .invalidLine(line: line.line, error.description)
            }
        }
        let extra = try dates("RDATE", of: component, problems: &problems)
        let exceptions = try dates("EXDATE", of: component, problems: &problems)
        let attendeeLines = component.all("ATTENDEE")
        if attendeeLines.count > Limits.attendeesPerEvent {
            problems.add(line: component.line, "the event has more than \(Limits.attendeesPerEvent) attendees; the rest are skipped")
        }
        let attendees = attendeeLines.prefix(Limits.attendeesPerEvent).map { line in
            Attendee(address: address(line.value),
                     name: line.parameter("CN"),
                     participation: Attendee.Participation(rawValue: (line.parameter("PARTSTAT") ?? "NEEDS-ACTION").uppercased()) ?? .needsAction,
                     userType: (line.parameter("CUTYPE") ?? "INDIVIDUAL").uppercased())
        }
        return Event(
            uid: component.first("UID")?.text ?? "line-\(component.line)",
            summary: component.first("SUMMARY")?.text ?? "",
            location: component.first("LOCATION")?.text,
            description: component.first("DESCRIPTION")?.text,
            start: start, end: end, duration: duration,
            status: Event.Status(rawValue: component.first("STATUS")?.value.uppercased() ?? "") ?? .confirmed,
            isTransparent: component.first("TRANSP")?.value.uppercased() == "TRANSPARENT",
            attendees: attendees,
            organizer: component.first("ORGANIZER").map { address($0.value) },
            rule: rule, extraDates: extra, exceptionDates: exceptions,
            recurrenceID: try component.first("RECURRENCE-ID").map { line throws(ICalendarError) in try time(line) },
            sequence: Int(component.first("SEQUENCE")?.value ?? "") ?? 0,
            line: component.line)
    }

    /// The values of every `name` line (RDATE or EXDATE), at most `Limits.datesPerEvent`.
    private static func dates(_ name: String, of component: Component, problems: inout ProblemList) throws(ICalendarError) -> [EventTime] {
        var result: [EventTime] = []
        for line in component.all(name) {
            result += try times(line)
            if result.count > Limits.datesPerEvent {
                problems.add(line: line.line, "the event has more than \(Limits.datesPerEvent) \(name) values; the rest are skipped")
                return Array(result.prefix(Limits.datesPerEvent))
            }
        }
        return result
    }

    /// A CAL-ADDRESS without its `mailto:`.
    private static func address(_ value: String) -> String {
        value.lowercased().hasPrefix("mailto:") ? String(value.dropFirst(7)) : value
    }

    /// Times in different zones cannot be compared as wall times.
    private static func isZoneMix(_ a: EventTime, _ b: EventTime) -> Bool {
        switch (a, b) {
        case (.zoned(_, let x), .zoned(_, let y)): x != y
        case (.utc, .utc), (.floating, .floating), (.date, .date): false
        default: true
        }
    }

    static func time(_ line: ContentLine) throws(ICalendarError) -> EventTime {
        guard let value = try times(line).first else { throw .invalidLine(line: line.line, "\(line.name) has no value") }
        return value
    }

    /// The (comma-separated) values of a date or date-time property. A PERIOD counts by its start.
    static func times(_ line: ContentLine) throws(ICalendarError) -> [EventTime] {
        let isDate = line.parameter("VALUE")?.uppercased() == "DATE"
        let tzid = line.parameter("TZID")
        var result: [EventTime] = []
        for item in line.value.split(separator: ",") {
            let text = item.split(separator: "/").first.map(String.init) ?? ""
            if isDate || text.count == 8 {
                guard let date = DateValue.parseDate(text) else {
                    throw .invalidLine(line: line.line, "\(line.name) “\(text)” is not a date (YYYYMMDD)")
                }
                result.append(.date(date))
                continue
            }
            guard let (value, utc) = DateValue.parseDateTime(text) else {
                throw .invalidLine(line: line.line, "\(line.name) “\(text)” is not a date-time (YYYYMMDDTHHMMSS)")
            }
            if utc {
                result.append(.utc(value))
            } else if let tzid, !tzid.isEmpty {
                result.append(.zoned(value, ZoneID(tzid: tzid)))
            } else {
                result.append(.floating(value))
            }
        }
        return result
    }
}

/// DURATION values (RFC 5545 §3.3.6): `P15DT5H0M20S`, `PT30M`, `-PT15M`, `P7W`.
enum Durations {
    static func seconds(_ text: String) -> Int? {
        var body = Substring(text)
        var sign = 1
        if body.hasPrefix("-") { sign = -1; body = body.dropFirst() } else if body.hasPrefix("+") { body = body.dropFirst() }
        guard body.hasPrefix("P") else { return nil }
        body = body.dropFirst()
        var total = 0
        var number = ""
        var inTime = false
        var sawPart = false
        for character in body {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            if character == "T" {
                guard number.isEmpty, !inTime else { return nil }
                inTime = true
                continue
            }
            guard let value = Int(number), value <= 100_000 else { return nil }
            number = ""
            sawPart = true
            switch (character, inTime) {
            case ("W", false): total += value * 7 * 86400
            case ("D", false): total += value * 86400
            case ("H", true): total += value * 3600
            case ("M", true): total += value * 60
            case ("S", true): total += value
            default: return nil
            }
        }
        guard number.isEmpty, sawPart else { return nil }
        return sign * total
    }
}
