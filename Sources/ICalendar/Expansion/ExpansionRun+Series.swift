import Foundation

extension ExpansionRun {
    /// The wall-clock starts of a series that may overlap the window, with RDATEs, in order:
    /// the union of every RRULE's set, each start once. `reach` widens the window on both
    /// sides (occurrences a THISANDFUTURE override moves, RDATE periods longer than the event).
    /// The recurrence takes from the event's and the calendar's work budgets; when it runs out
    /// the later starts are missing, and that is reported.
    mutating func starts(of event: Event, reach: Int64 = 0) -> [CivilDateTime] {
        let zone = document.rules(for: event.start, floating)
        var starts: [CivilDateTime] = []
        var seen = Set<CivilDateTime>()
        if event.rules.isEmpty {
            starts = [event.start.civil]
            seen = [event.start.civil]
            steps += 1
        } else {
            let end = window.end + reach
            let earliest = zone.local(for: window.start - reach - Int64(Self.maxLength(of: event)) - 2 * 86400)
            var eventSteps = 0
            for rule in event.rules {
                let eventLeft = Limits.stepsPerEvent - eventSteps
                let budget = min(eventLeft, Limits.steps - steps)
                var iterator = iterator(for: event, rule: rule, zone: zone)
                iterator.stepLimit = max(0, budget)
                for civil in ruleStarts(&iterator, zone: zone, from: earliest, to: end) where seen.insert(civil).inserted {
                    starts.append(civil)
                }
                eventSteps += iterator.steps
                steps += iterator.steps
                if iterator.isCutShort {
                    reportCutShort(event, byCalendar: budget < eventLeft)
                    break
                }
            }
            // DTSTART is always an occurrence, even when the rules would not produce it.
            if !seen.contains(event.start.civil), zone.utc(for: event.start.civil) <= end {
                starts.append(event.start.civil)
                seen.insert(event.start.civil)
            }
        }
        steps += event.extraDates.count
        for extra in event.extraDates {
            let civil = event.isAllDay ? extra.civil : zone.local(for: document.rules(for: extra, floating).utc(for: extra.civil))
            if seen.insert(civil).inserted { starts.append(civil) }
        }
        return starts.sorted()
    }

    /// The starts of one rule from `earliest` (wall time) up to the instant `end`.
    private func ruleStarts(_ iterator: inout RecurrenceIterator, zone: any ZoneRules, from earliest: CivilDateTime, to end: Int64) -> [CivilDateTime]
    {
        // Occurrences that end before the window do not matter: skip them when the rule allows.
        iterator.skip(toPeriodContaining: earliest)
        let limitWall = zone.local(for: end + 2 * 86400)
        // Before this wall time every start is surely before the end (no zone offset moves by
        // two days), so the zone is only asked near the end.
        let surelyBeforeEnd = zone.local(for: end - 2 * 86400)
        var starts: [CivilDateTime] = []
        while iterator.until.map({ $0 >= earliest }) ?? true, let civil = iterator.next() {
            if civil > limitWall || (civil >= surelyBeforeEnd && zone.utc(for: civil) > end) { break }
            if civil >= earliest { starts.append(civil) }
        }
        return starts
    }

    private mutating func reportCutShort(_ event: Event, byCalendar: Bool) {
        if byCalendar {
            stopForWork(at: event.line)
        } else {
            problems.add(
                line: event.line,
                "the event repeats too densely to expand (more than \(Limits.stepsPerEvent) steps); "
                    + "its later occurrences are left out"
            )
        }
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
    /// time `start` in the event's zone; `length` (an RDATE period's) replaces the event's.
    func span(of event: Event, startingAt start: CivilDateTime, length periodLength: Int64? = nil) -> (Int64, Int64) {
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
        if let periodLength {
            length = periodLength
        } else if let end = event.end {
            length = document.rules(for: end, floating).utc(for: end.civil) - zone.utc(for: event.start.civil)
        } else {
            length = Int64(event.duration ?? 0)
        }
        return (begin, begin + max(0, length))
    }

    func occurrence(of event: Event, from begin: Int64, to finish: Int64, recurrenceStart: Date?) -> Occurrence {
        Occurrence(
            uid: event.uid,
            summary: event.summary,
            location: event.location,
            start: Date(timeIntervalSince1970: TimeInterval(begin)),
            end: Date(timeIntervalSince1970: TimeInterval(finish)),
            isAllDay: event.isAllDay,
            status: event.status,
            isTransparent: event.isTransparent,
            attendees: event.attendees,
            organizer: event.organizer,
            recurrenceStart: recurrenceStart
        )
    }
}
