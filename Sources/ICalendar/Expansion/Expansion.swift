import Foundation

/// The occurrences of a calendar in a window, and what was left out to keep the work bounded.
public struct Expansion: Sendable {
    /// Every occurrence that overlaps the window, in start order.
    public let occurrences: [Occurrence]
    /// What was not expanded fully (an event repeating more densely than any real one, a
    /// window with more occurrences than `Limits.occurrences` …), by the event's line.
    public let problems: [ICalendarProblem]
}

extension ICalendarDocument {
    /// Every occurrence that overlaps `interval`, in start order (see `expansion(in:floatingZone:)`).
    public func occurrences(in interval: DateInterval, floatingZone: TimeZone) -> [Occurrence] {
        expansion(in: interval, floatingZone: floatingZone).occurrences
    }

    /// Every occurrence that overlaps `interval`, in start order: recurrences expanded in the
    /// event's own zone (so 09:00 stays 09:00 across DST), EXDATEs removed, RDATEs added,
    /// overrides (RECURRENCE-ID) in place of the occurrences they replace. Floating times and
    /// all-day events are read in X-WR-TIMEZONE, else `floatingZone` (the user's).
    ///
    /// The work is bounded (see `Limits`): a hostile calendar yields at most a bounded number
    /// of occurrences, and what it left out is listed in `problems`.
    public func expansion(in interval: DateInterval, floatingZone: TimeZone) -> Expansion {
        var run = ExpansionRun(document: self, interval: interval, floating: SystemZone(zone: defaultZone ?? floatingZone))
        return run.expand()
    }

    func rules(for time: EventTime, _ floating: any ZoneRules) -> any ZoneRules {
        switch time {
        case .utc: FixedOffset(seconds: 0)
        case .floating, .date: floating
        case let .zoned(_, zone): zones[zone.tzid] ?? floating
        }
    }

    /// Series positions compare by instant, or by date in an all-day series.
    func key(_ time: EventTime, allDay: Bool, floating: any ZoneRules) -> Int64 {
        if allDay {
            let civil = time.civil
            return CivilDateTime(year: civil.year, month: civil.month, day: civil.day).secondsAsUTC
        }
        return rules(for: time, floating).utc(for: time.civil)
    }
}

/// One expansion of a document over a window, with its work budget and its problems.
struct ExpansionRun {
    let document: ICalendarDocument
    let floating: any ZoneRules
    /// The window in seconds since 1970: [start, end).
    let window: (start: Int64, end: Int64)
    /// Work done so far, against `Limits.steps`.
    var steps = 0
    var problems = ProblemList()
    var result: [Occurrence] = []
    /// More than `Limits.occurrences` overlapped the window: only the earliest are kept.
    var overflowed = false
    var outOfWork = false

    init(document: ICalendarDocument, interval: DateInterval, floating: any ZoneRules) {
        self.document = document
        self.floating = floating
        window = (Int64(interval.start.timeIntervalSince1970.rounded(.down)), Int64(interval.end.timeIntervalSince1970.rounded(.up)))
    }

    mutating func expand() -> Expansion {
        var masterIsAllDay: [String: Bool] = [:]
        for event in document.events where event.recurrenceID == nil && masterIsAllDay[event.uid] == nil {
            masterIsAllDay[event.uid] = event.isAllDay
        }
        var overrides: [String: [Int64: Event]] = [:]
        for event in document.events {
            guard let recurrenceID = event.recurrenceID else { continue }
            let allDay = masterIsAllDay[event.uid] ?? event.isAllDay
            overrides[event.uid, default: [:]][document.key(recurrenceID, allDay: allDay, floating: floating)] = event
        }
        var used: [String: Set<Int64>] = [:]
        for master in document.events where master.recurrenceID == nil {
            // Out of work, single events (bounded by the calendar's size) are still read.
            guard steps < Limits.steps || master.rule == nil else {
                stopForWork(at: master.line)
                continue
            }
            used[master.uid, default: []].formUnion(expand(master, overrides: overrides[master.uid] ?? [:]))
        }
        // Overrides whose series is missing or no longer has that occurrence stand on their own.
        for (uid, byKey) in overrides {
            for (originalKey, override) in byKey where used[uid]?.contains(originalKey) != true {
                steps += 1
                let (begin, finish) = span(of: override, startingAt: override.start.civil)
                if overlaps(begin, finish) {
                    keep(occurrence(of: override, from: begin, to: finish, recurrenceStart: Date(timeIntervalSince1970: TimeInterval(originalKey))))
                }
            }
        }
        trimToLimit()
        if overflowed {
            problems.add(line: 1, "more than \(Limits.occurrences) occurrences overlap the window; only the earliest \(Limits.occurrences) are used")
        }
        return Expansion(occurrences: result, problems: problems.sorted)
    }

    /// Adds the occurrences of a series (or a single event) in the window; returns the series
    /// positions its overrides took.
    private mutating func expand(_ master: Event, overrides: [Int64: Event]) -> Set<Int64> {
        let excluded = Set(master.exceptionDates.map { document.key($0, allDay: master.isAllDay, floating: floating) })
        let zone = document.rules(for: master.start, floating)
        let isSeries = master.rule != nil || !master.extraDates.isEmpty
        var used = Set<Int64>()
        var kept = 0
        for originalStart in starts(of: master) {
            let originalKey = master.isAllDay ? originalStart.secondsAsUTC : zone.utc(for: originalStart)
            guard !excluded.contains(originalKey) else { continue }
            let recurrenceStart = isSeries
                ? Date(timeIntervalSince1970: TimeInterval(master.isAllDay ? floating.utc(for: originalStart) : originalKey)) : nil
            var source = master, wallStart = originalStart
            if let override = overrides[originalKey] {
                used.insert(originalKey)
                (source, wallStart) = (override, override.start.civil)
            }
            let (begin, finish) = span(of: source, startingAt: wallStart)
            guard overlaps(begin, finish) else { continue }
            kept += 1
            guard kept <= Limits.occurrencesPerEvent else {
                problems.add(line: master.line, "the event has more than \(Limits.occurrencesPerEvent) occurrences in the window; "
                                 + "only the first \(Limits.occurrencesPerEvent) are used")
                break
            }
            keep(occurrence(of: source, from: begin, to: finish, recurrenceStart: recurrenceStart))
        }
        return used
    }

    mutating func stopForWork(at line: Int) {
        guard !outOfWork else { return }
        outOfWork = true
        problems.add(line: line, "expanding the calendar took more than \(Limits.steps) steps; "
                         + "this recurring event and the ones after it are left out")
    }

    private func overlaps(_ begin: Int64, _ finish: Int64) -> Bool {
        begin < window.end && (finish > window.start || (begin == finish && begin >= window.start))
    }

    /// Keeps an occurrence; past twice the limit, only the earliest are kept (so memory stays
    /// bounded however many overlap).
    private mutating func keep(_ occurrence: Occurrence) {
        result.append(occurrence)
        if result.count >= 2 * Limits.occurrences { trimToLimit() }
    }

    private mutating func trimToLimit() {
        result.sort { ($0.start, $0.uid) < ($1.start, $1.uid) }
        if result.count > Limits.occurrences {
            overflowed = true
            result.removeSubrange(Limits.occurrences...)
        }
    }
}
