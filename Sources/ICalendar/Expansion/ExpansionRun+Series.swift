import Foundation

extension ExpansionRun {
    /// The wall-clock starts of a series that may overlap the window, with RDATEs, in order.
    /// The recurrence takes from the event's and the calendar's work budgets; when it runs out
    /// the later starts are missing, and that is reported.
    mutating func starts(of event: Event) -> [CivilDateTime] {
        let zone = document.rules(for: event.start, floating)
        var starts: [CivilDateTime] = []
        if let rule = event.rule {
            var iterator = iterator(for: event, rule: rule, zone: zone)
            // Occurrences that end before the window do not matter: skip them when the rule allows.
            let earliest = zone.local(for: window.start - Int64(Self.maxLength(of: event)) - 2 * 86400)
            iterator.skip(toPeriodContaining: earliest)
            let eventBudget = min(Limits.stepsPerEvent, Limits.steps - steps)
            iterator.stepLimit = eventBudget
            let limitWall = zone.local(for: window.end + 2 * 86400)
            // Before this wall time every start is surely before the window's end (no zone
            // offset moves by two days), so the zone is only asked near the end.
            let surelyBeforeEnd = zone.local(for: window.end - 2 * 86400)
            while iterator.until.map({ $0 >= earliest }) ?? true, let civil = iterator.next() {
                if civil > limitWall || (civil >= surelyBeforeEnd && zone.utc(for: civil) > window.end) { break }
                if civil >= earliest { starts.append(civil) }
            }
            steps += iterator.steps
            if iterator.isCutShort {
                if eventBudget < Limits.stepsPerEvent {
                    stopForWork(at: event.line)
                } else {
                    problems.add(line: event.line, "the event repeats too densely to expand (more than \(Limits.stepsPerEvent) steps); "
                                     + "its later occurrences are left out")
                }
            }
            // DTSTART is always an occurrence, even when the rule would not produce it.
            if !starts.contains(event.start.civil), zone.utc(for: event.start.civil) <= window.end { starts.insert(event.start.civil, at: 0) }
        } else {
            starts = [event.start.civil]
            steps += 1
        }
        steps += event.extraDates.count
        var seen = Set(starts)
        for extra in event.extraDates {
            let civil = event.isAllDay ? extra.civil : zone.local(for: document.rules(for: extra, floating).utc(for: extra.civil))
            if seen.insert(civil).inserted { starts.append(civil) }
        }
        return starts.sorted()
    }

    private func iterator(for event: Event, rule: RecurrenceRule, zone: any ZoneRules) -> RecurrenceIterator {
        var rule = rule
        if event.isAllDay {
            rule.byHour = []
            rule.byMinute = []
            rule.bySecond = []
        }
        var until: CivilDateTime?
        switch rule.until {
        case let .utc(value)?:
            let local = (event.isAllDay ? floating : zone).local(for: value.secondsAsUTC)
            until = event.isAllDay ? CivilDateTime(year: local.year, month: local.month, day: local.day) : local
        case let .floating(value)?:
            until = event.isAllDay ? CivilDateTime(year: value.year, month: value.month, day: value.day) : value
        case let .date(value)?:
            until = event.isAllDay ? value : CivilDateTime(year: value.year, month: value.month, day: value.day, hour: 23, minute: 59, second: 59)
        case nil:
            until = nil
        }
        return RecurrenceIterator(rule: rule, start: event.start.civil, until: until)
    }

    /// How far before the window an occurrence may start and still be looked at: its length,
    /// but at most 400 days. A series whose every occurrence lasts centuries (a mistyped year)
    /// would otherwise overlap every window with all of its occurrences.
    static func maxLength(of event: Event) -> Int {
        let length: Int
        if event.isAllDay, let end = event.end {
            length = max(1, end.civil.dayNumber - event.start.civil.dayNumber) * 86400
        } else if let end = event.end {
            length = max(0, Int(clamping: end.civil.secondsAsUTC - event.start.civil.secondsAsUTC)) + 86400
        } else {
            length = max(event.duration ?? 0, 86400)
        }
        return min(length, 400 * 86400)
    }

    /// Start and end (seconds since 1970) of the occurrence of `event` that starts at the wall
    /// time `start` in the event's zone.
    func span(of event: Event, startingAt start: CivilDateTime) -> (Int64, Int64) {
        if event.isAllDay {
            let days: Int
            if let end = event.end {
                days = max(1, end.civil.dayNumber - event.start.civil.dayNumber)
            } else if let duration = event.duration {
                days = max(1, duration / 86400)
            } else {
                days = 1
            }
            let first = CivilDateTime(year: start.year, month: start.month, day: start.day)
            return (floating.utc(for: first), floating.utc(for: CivilDateTime(dayNumber: first.dayNumber + days)))
        }
        let zone = document.rules(for: event.start, floating)
        let begin = zone.utc(for: start)
        let length: Int64
        if let end = event.end {
            length = document.rules(for: end, floating).utc(for: end.civil) - zone.utc(for: event.start.civil)
        } else {
            length = Int64(event.duration ?? 0)
        }
        return (begin, begin + max(0, length))
    }

    func occurrence(of event: Event, from begin: Int64, to finish: Int64, recurrenceStart: Date?) -> Occurrence {
        Occurrence(uid: event.uid, summary: event.summary, location: event.location,
                   start: Date(timeIntervalSince1970: TimeInterval(begin)), end: Date(timeIntervalSince1970: TimeInterval(finish)),
                   isAllDay: event.isAllDay, status: event.status, isTransparent: event.isTransparent,
                   attendees: event.attendees, organizer: event.organizer, recurrenceStart: recurrenceStart)
    }
}
