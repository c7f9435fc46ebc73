import Foundation

extension ICalendarDocument {
    /// The most occurrences one event may generate while looking for the window; a denser
    /// rule (every second since 1990) stops there instead of hanging.
    static let expansionLimit = 200_000

    /// Every occurrence that overlaps `interval`, in start order: recurrences expanded in the
    /// event's own zone (so 09:00 stays 09:00 across DST), EXDATEs removed, RDATEs added,
    /// overrides (RECURRENCE-ID) in place of the occurrences they replace. Floating times and
    /// all-day events are read in X-WR-TIMEZONE, else `floatingZone` (the user's).
    public func occurrences(in interval: DateInterval, floatingZone: TimeZone) -> [Occurrence] {
        let floating: any ZoneRules = SystemZone(zone: defaultZone ?? floatingZone)
        let window = (Int64(interval.start.timeIntervalSince1970.rounded(.down)), Int64(interval.end.timeIntervalSince1970.rounded(.up)))
        var overrides: [String: [Int64: Event]] = [:]
        for event in events {
            guard let recurrenceID = event.recurrenceID else { continue }
            let masterIsAllDay = events.first { $0.uid == event.uid && $0.recurrenceID == nil }?.isAllDay ?? event.isAllDay
            overrides[event.uid, default: [:]][key(recurrenceID, allDay: masterIsAllDay, floating: floating)] = event
        }
        var used = Set<String>()
        var result: [Occurrence] = []
        for master in events where master.recurrenceID == nil {
            let excluded = Set(master.exceptionDates.map { key($0, allDay: master.isAllDay, floating: floating) })
            for originalStart in starts(of: master, floating: floating, from: window.0, until: window.1) {
                let originalKey = master.isAllDay ? originalStart.secondsAsUTC : rules(for: master.start, floating).utc(for: originalStart)
                guard !excluded.contains(originalKey) else { continue }
                let recurrenceStart = master.rule != nil || !master.extraDates.isEmpty
                    ? Date(timeIntervalSince1970: TimeInterval(master.isAllDay ? floating.utc(for: originalStart) : originalKey)) : nil
                if let override = overrides[master.uid]?[originalKey] {
                    used.insert("\(master.uid)|\(originalKey)")
                    if let occurrence = occurrence(of: override, startingAt: override.start.civil, floating: floating, recurrenceStart: recurrenceStart) {
                        result.append(occurrence)
                    }
                } else if let occurrence = occurrence(of: master, startingAt: originalStart, floating: floating, recurrenceStart: recurrenceStart) {
                    result.append(occurrence)
                }
            }
        }
        // Overrides whose series is missing or no longer has that occurrence stand on their own.
        for (uid, byKey) in overrides {
            for (originalKey, override) in byKey where !used.contains("\(uid)|\(originalKey)") {
                if let occurrence = occurrence(of: override, startingAt: override.start.civil, floating: floating,
                                               recurrenceStart: Date(timeIntervalSince1970: TimeInterval(originalKey))) {
                    result.append(occurrence)
                }
            }
        }
        let start = Date(timeIntervalSince1970: TimeInterval(window.0)), end = Date(timeIntervalSince1970: TimeInterval(window.1))
        return result.filter { $0.start < end && ($0.end > start || ($0.start == $0.end && $0.start >= start)) }
            .sorted { ($0.start, $0.uid) < ($1.start, $1.uid) }
    }

    func rules(for time: EventTime, _ floating: any ZoneRules) -> any ZoneRules {
        switch time {
        case .utc: FixedOffset(seconds: 0)
        case .floating, .date: floating
        case let .zoned(_, zone): zones[zone.tzid] ?? floating
        }
    }

    /// Series positions compare by instant, or by date in an all-day series.
    private func key(_ time: EventTime, allDay: Bool, floating: any ZoneRules) -> Int64 {
        if allDay {
            let civil = time.civil
            return CivilDateTime(year: civil.year, month: civil.month, day: civil.day).secondsAsUTC
        }
        return rules(for: time, floating).utc(for: time.civil)
    }

    /// The wall-clock starts of a series up to the instant `limit`, with RDATEs, in order.
    /// How far before the window an occurrence may start and still be looked at: its length,
    /// but at most 400 days. A series whose every occurrence lasts centuries (a mistyped year)
    /// would otherwise overlap every window with all of its occurrences.
    private func maxLength(of event: Event) -> Int {
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

    private func starts(of event: Event, floating: any ZoneRules, from windowStart: Int64, until limit: Int64) -> [CivilDateTime] {
        let zone = rules(for: event.start, floating)
        var starts: [CivilDateTime] = []
        if var rule = event.rule {
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
            var iterator = RecurrenceIterator(rule: rule, start: event.start.civil, until: until)
            // Occurrences that end before the window do not matter: skip them when the rule allows.
            let earliest = zone.local(for: windowStart - Int64(maxLength(of: event)) - 2 * 86400)
            iterator.skip(toPeriodContaining: earliest)
            let limitWall = zone.local(for: limit + 2 * 86400)
            var index = 0
            while let civil = iterator.next() {
                index += 1
                if index > Self.expansionLimit || civil > limitWall || zone.utc(for: civil) > limit { break }
                if civil >= earliest { starts.append(civil) }
            }
            // DTSTART is always an occurrence, even when the rule would not produce it.
            if !starts.contains(event.start.civil), zone.utc(for: event.start.civil) <= limit { starts.insert(event.start.civil, at: 0) }
        } else {
            starts = [event.start.civil]
        }
        var seen = Set(starts)
        for extra in event.extraDates {
            let civil = event.isAllDay ? extra.civil : zone.local(for: rules(for: extra, floating).utc(for: extra.civil))
            if seen.insert(civil).inserted { starts.append(civil) }
        }
        return starts.sorted()
    }

    /// The occurrence of `event` that starts at the wall time `start` in the event's zone.
    private func occurrence(of event: Event, startingAt start: CivilDateTime, floating: any ZoneRules,
                            recurrenceStart: Date?) -> Occurrence? {
        let zone = rules(for: event.start, floating)
        let begin: Int64
        let finish: Int64
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
            begin = floating.utc(for: first)
            finish = floating.utc(for: CivilDateTime(dayNumber: first.dayNumber + days))
        } else {
            begin = zone.utc(for: start)
            let length: Int64
            if let end = event.end {
                length = rules(for: end, floating).utc(for: end.civil) - zone.utc(for: event.start.civil)
            } else {
                length = Int64(event.duration ?? 0)
            }
            finish = begin + max(0, length)
        }
        return Occurrence(uid: event.uid, summary: event.summary, location: event.location,
                          start: Date(timeIntervalSince1970: TimeInterval(begin)), end: Date(timeIntervalSince1970: TimeInterval(finish)),
                          isAllDay: event.isAllDay, status: event.status, isTransparent: event.isTransparent,
                          attendees: event.attendees, organizer: event.organizer, recurrenceStart: recurrenceStart)
    }
}
