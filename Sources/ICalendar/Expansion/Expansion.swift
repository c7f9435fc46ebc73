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
    /// event's own zone (so 09:00 stays 09:00 across DST), the union of every RRULE, EXDATEs
    /// removed, RDATEs added (an RDATE period with its own length), overrides (RECURRENCE-ID)
    /// in place of the occurrences they replace, and with RANGE=THISANDFUTURE of every later
    /// one too. Of several copies of one event or override (one UID, one RECURRENCE-ID) only
    /// the latest counts (`Event.supersedes`), and an occurrence deleted by EXDATE stays
    /// deleted. Floating times and all-day events are read in X-WR-TIMEZONE, else
    /// `floatingZone` (the user's).
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
        let masters = Self.latestMasters(of: document.events)
        let masterIsAllDay = Dictionary(masters.map { ($0.uid, $0.isAllDay) }, uniquingKeysWith: { first, _ in first })
        var overrides: [String: SeriesOverrides] = [:]
        for event in document.events {
            guard let recurrenceID = event.recurrenceID else { continue }
            let allDay = masterIsAllDay[event.uid] ?? event.isAllDay
            overrides[event.uid, default: SeriesOverrides()].add(event, key: document.key(recurrenceID, allDay: allDay, floating: floating))
        }
        for uid in overrides.keys { overrides[uid]?.seal() }
        var used: [String: Set<Int64>] = [:]
        for master in masters {
            // Out of work, single events (bounded by the calendar's size) are still read.
            guard steps < Limits.steps || master.rules.isEmpty else {
                stopForWork(at: master.line)
                continue
            }
            used[master.uid] = expand(master, overrides: overrides[master.uid] ?? SeriesOverrides())
        }
        // Overrides whose series is missing or no longer has that occurrence stand on their own
        // (not those of an occurrence the series deleted with EXDATE: deleted stays deleted).
        for (uid, series) in overrides {
            for (originalKey, override) in series.unused(used[uid] ?? []) {
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

    /// One master per UID, in file order: of several copies of one event, the one that
    /// supersedes the others (higher SEQUENCE, then changed later), so no occurrence is doubled.
    static func latestMasters(of events: [Event]) -> [Event] {
        var latest: [String: Event] = [:]
        var order: [String] = []
        for event in events where event.recurrenceID == nil {
            if let current = latest[event.uid] {
                if event.supersedes(current) { latest[event.uid] = event }
            } else {
                latest[event.uid] = event
                order.append(event.uid)
            }
        }
        return order.compactMap { latest[$0] }
    }

    /// Adds the occurrences of a series (or a single event) in the window; returns the series
    /// positions its overrides took and those it deleted (EXDATE).
    private mutating func expand(_ master: Event, overrides: SeriesOverrides) -> Set<Int64> {
        let excluded = Set(master.exceptionDates.map { document.key($0, allDay: master.isAllDay, floating: floating) })
        let zone = document.rules(for: master.start, floating)
        let isSeries = !master.rules.isEmpty || !master.extraDates.isEmpty
        let periods = periodLengths(of: master)
        var used = excluded
        var kept = 0
        for originalStart in starts(of: master, reach: reach(of: master, overrides: overrides, periods: periods)) {
            let originalKey = master.isAllDay ? originalStart.secondsAsUTC : zone.utc(for: originalStart)
            guard !excluded.contains(originalKey) else { continue }
            let recurrenceStart =
                isSeries
                ? Date(timeIntervalSince1970: TimeInterval(master.isAllDay ? floating.utc(for: originalStart) : originalKey)) : nil
            var source = master
            var wallStart = originalStart
            var length = periods[originalKey]
            if let (override, rangeKey) = overrides.replacement(at: originalKey) {
                used.insert(originalKey)
                if let rangeKey {
                    used.insert(rangeKey)
                    wallStart = shifted(originalStart, by: override, from: rangeKey, of: master, zone: zone)
                } else {
                    wallStart = override.start.civil
                }
                (source, length) = (override, nil)
            }
            let (begin, finish) = span(of: source, startingAt: wallStart, length: length)
            guard overlaps(begin, finish) else { continue }
            kept += 1
            guard kept <= Limits.occurrencesPerEvent else {
                problems.add(
                    line: master.line,
                    "the event has more than \(Limits.occurrencesPerEvent) occurrences in the window; "
                        + "only the first \(Limits.occurrencesPerEvent) are used"
                )
                break
            }
            keep(occurrence(of: source, from: begin, to: finish, recurrenceStart: recurrenceStart))
        }
        return used
    }

    mutating func stopForWork(at line: Int) {
        guard !outOfWork else { return }
        outOfWork = true
        problems.add(
            line: line,
            "expanding the calendar took more than \(Limits.steps) steps; "
                + "this recurring event and the ones after it are left out"
        )
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
