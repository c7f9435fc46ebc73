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
            endTime.civil < start.civil || (endTime.isDate && endTime.civil == start.civil)
        {
            // An end before the start is damaged: the event falls back to the default length.
            end = nil
        }
        if end != nil, duration != nil { duration = nil }  // DTEND wins when both are (wrongly) given
        let uid = component.first("UID")?.text ?? "line-\(component.line)"
        let summary = component.first("SUMMARY")?.text ?? ""
        let name = summary.isEmpty ? "the event with UID \(uid)" : "event “\(summary)” (UID \(uid))"
        let rules = rules(of: component, naming: name, problems: &problems)
        let (extra, periodEnds) = try dates("RDATE", of: component, problems: &problems)
        let exceptions = try dates("EXDATE", of: component, problems: &problems).times
        let recurrenceLine = component.first("RECURRENCE-ID")
        return Event(
            uid: uid,
            summary: summary,
            location: component.first("LOCATION")?.text,
            description: component.first("DESCRIPTION")?.text,
            start: start,
            end: end,
            duration: duration,
            status: Event.Status(rawValue: component.first("STATUS")?.value.uppercased() ?? "") ?? .confirmed,
            isTransparent: component.first("TRANSP")?.value.uppercased() == "TRANSPARENT",
            attendees: attendees(of: component, problems: &problems),
            organizer: component.first("ORGANIZER").map { address($0.value) },
            rules: rules,
            extraDates: extra,
            periodEnds: periodEnds,
            exceptionDates: exceptions,
            recurrenceID: try recurrenceLine.map { line throws(ICalendarError) in try time(line) },
            isThisAndFuture: recurrenceLine?.parameter("RANGE")?.uppercased() == "THISANDFUTURE",
            sequence: Int(component.first("SEQUENCE")?.value.trimmingCharacters(in: .whitespaces) ?? "") ?? 0,
            stamp: component.first("DTSTAMP").flatMap { DateValue.parseDateTime($0.value)?.0 },
            lastModified: component.first("LAST-MODIFIED").flatMap { DateValue.parseDateTime($0.value)?.0 },
            line: component.line
        )
    }

    /// At most `Limits.attendeesPerEvent` ATTENDEEs.
    private static func attendees(of component: Component, problems: inout ProblemList) -> [Attendee] {
        let lines = component.all("ATTENDEE")
        if lines.count > Limits.attendeesPerEvent {
            problems.add(line: component.line, "the event has more than \(Limits.attendeesPerEvent) attendees; the rest are skipped")
        }
        return lines.prefix(Limits.attendeesPerEvent).map { line in
            Attendee(
                address: address(line.value),
                name: line.parameter("CN"),
                participation: Attendee.Participation(rawValue: (line.parameter("PARTSTAT") ?? "NEEDS-ACTION").uppercased()) ?? .needsAction,
                userType: (line.parameter("CUTYPE") ?? "INDIVIDUAL").uppercased()
            )
        }
    }

    /// The valid RRULEs (at most `Limits.rulesPerEvent`). A damaged one is left out and
    /// reported naming the event: the event keeps its own start (and its other rules) instead
    /// of disappearing, since DTSTART is always an occurrence (RFC 5545 §3.8.5.3).
    private static func rules(of component: Component, naming event: String, problems: inout ProblemList) -> [RecurrenceRule] {
        let lines = component.all("RRULE")
        if lines.count > Limits.rulesPerEvent {
            problems.add(line: lines[Limits.rulesPerEvent].line, "\(event) has more than \(Limits.rulesPerEvent) RRULEs; the rest are skipped")
        }
        var rules: [RecurrenceRule] = []
        for line in lines.prefix(Limits.rulesPerEvent) {
            do throws(ICalendarError) {
                let rule = try RecurrenceRule(parsing: line.value)
                if !rules.contains(rule) { rules.append(rule) }
            } catch {
                let reason: String
                if case let .invalidRule(_, problem) = error { reason = problem } else { reason = error.description }
                let kept = lines.count > 1 ? "its other rules and its own start are kept" : "only its own start is kept"
                problems.add(line: line.line, "\(event): RRULE “\(line.value)” is ignored (\(reason)); \(kept)")
            }
        }
        return rules
    }

    /// The values of every `name` line (RDATE or EXDATE), at most `Limits.datesPerEvent`, and
    /// the ends of those that are periods.
    private static func dates(
        _ name: String,
        of component: Component,
        problems: inout ProblemList
    ) throws(ICalendarError) -> (times: [EventTime], periodEnds: [EventTime: PeriodEnd]) {
        var result: [EventTime] = []
        var ends: [EventTime: PeriodEnd] = [:]
        for line in component.all(name) {
            for (time, end) in try periods(line) {
                guard result.count < Limits.datesPerEvent else {
                    problems.add(line: line.line, "the event has more than \(Limits.datesPerEvent) \(name) values; the rest are skipped")
                    return (result, ends)
                }
                result.append(time)
                if let end, ends[time] == nil { ends[time] = end }
            }
        }
        return (result, ends)
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
        guard let value = try periods(line).first?.start else { throw .invalidLine(line: line.line, "\(line.name) has no value") }
        return value
    }

    /// The (comma-separated) values of a date or date-time property; a PERIOD
    /// (`start/end` or `start/duration`, RFC 5545 §3.3.9) with its end.
    static func periods(_ line: ContentLine) throws(ICalendarError) -> [(start: EventTime, end: PeriodEnd?)] {
        let isDate = line.parameter("VALUE")?.uppercased() == "DATE"
        var result: [(EventTime, PeriodEnd?)] = []
        for item in line.value.split(separator: ",") {
            let parts = item.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            let start = try time(String(parts[0]), of: line, isDate: isDate)
            guard parts.count == 2, !start.isDate else {
                result.append((start, nil))
                continue
            }
            let text = String(parts[1])
            if text.hasPrefix("P") || text.hasPrefix("+P") {
                guard let seconds = Durations.seconds(text) else {
                    throw .invalidLine(line: line.line, "\(line.name) period length “\(text)” is not a duration")
                }
                result.append((start, .duration(seconds)))
            } else {
                result.append((start, .end(try time(text, of: line, isDate: false))))
            }
        }
        return result
    }

    private static func time(_ text: String, of line: ContentLine, isDate: Bool) throws(ICalendarError) -> EventTime {
        if isDate || text.count == 8 {
            guard let date = DateValue.parseDate(text) else {
                throw .invalidLine(line: line.line, "\(line.name) “\(text)” is not a date (YYYYMMDD)")
            }
            return .date(date)
        }
        guard let (value, utc) = DateValue.parseDateTime(text) else {
            throw .invalidLine(line: line.line, "\(line.name) “\(text)” is not a date-time (YYYYMMDDTHHMMSS)")
        }
        if utc { return .utc(value) }
        if let tzid = line.parameter("TZID"), !tzid.isEmpty { return .zoned(value, ZoneID(tzid: tzid)) }
        return .floating(value)
    }
}

/// DURATION values (RFC 5545 §3.3.6): `P15DT5H0M20S`, `PT30M`, `-PT15M`, `P7W`.
enum Durations {
    static func seconds(_ text: String) -> Int? {
        var body = Substring(text)
        var sign = 1
        if body.hasPrefix("-") {
            sign = -1
            body = body.dropFirst()
        } else if body.hasPrefix("+") {
            body = body.dropFirst()
        }
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
