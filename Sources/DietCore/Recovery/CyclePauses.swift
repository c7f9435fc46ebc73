import Foundation

/// A closed stretch of recovery mode: from the local date it was turned on up to (not
/// including) the local date it was turned off. `from == until` is a switch turned on and off
/// on the same day: it pauses nothing but still marks that day as a switch of the pause.
public struct RecoveryPeriod: Hashable, Sendable, Codable {
    public let from: LocalDate
    /// The first day back on the programme.
    public let until: LocalDate

    /// nil when `until` is before `from`.
    public init?(from: LocalDate, until: LocalDate) {
        guard from <= until else { return nil }
        self.from = from
        self.until = until
    }

    /// The paused days: `until − from`.
    public var dayCount: Int { from.days(to: until) }

    enum CodingKeys: String, CodingKey {
        case from, until
    }

    /// At most this many periods are kept (the profile's row holds them in 4 KB).
    public static let maximumCount = 80

    /// `periods` with the stretch from `since` closed on `today` (a `today` before `since`, a
    /// clock set back, closes it empty). Empty periods of earlier days are dropped: they only
    /// mattered on their own day. Beyond `maximumCount` the two oldest periods become one
    /// that spans both, so the days between them are paused too: the programme then runs
    /// later, at maintenance meanwhile, never earlier.
    public static func closing(_ periods: [RecoveryPeriod], from since: LocalDate, on today: LocalDate) -> [RecoveryPeriod] {
        var kept = periods.filter { $0.dayCount > 0 || $0.from >= today }
        kept.append(RecoveryPeriod(from: since, until: max(since, today)) ?? RecoveryPeriod(uncheckedFrom: since, until: since))
        kept.sort { ($0.from, $0.until) < ($1.from, $1.until) }
        while kept.count > maximumCount {
            kept[1] = RecoveryPeriod(uncheckedFrom: kept[0].from, until: max(kept[0].until, kept[1].until))
            kept.removeFirst()
        }
        return kept
    }

    private init(uncheckedFrom from: LocalDate, until: LocalDate) {
        self.from = from
        self.until = until
    }

    /// Refuses a period that ends before it starts (a row edited outside the app).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let from = try container.decode(LocalDate.self, forKey: .from)
        let until = try container.decode(LocalDate.self, forKey: .until)
        guard from <= until else {
            throw DecodingError.dataCorruptedError(forKey: .until, in: container, debugDescription: "ends before it starts")
        }
        self.from = from
        self.until = until
    }
}

/// The days the MATADOR cycle stood still (docs/rules.md §8: "the cycle is paused at maintenance while
/// recovery mode is on").
///
/// How the pause works (the contract other parts rely on):
/// - A paused day eats at maintenance; `CycleEngine.day(on:)` reports it with `paused == true`
///   and `phase == .maintenance`, so every reader of `phase.targetKind` gets maintenance.
/// - Paused days do not count as programme days: the programme day stays where it was on the
///   day recovery mode was turned on, and the block resumes at that same programme day on the
///   day it is turned off. The civil start date never changes (docs/rules.md §3); the later phase
///   switches move later by the paused days.
/// - The day recovery mode is turned off is already back on the programme; a day it was
///   turned on is paused from its start.
public struct CyclePauses: Hashable, Sendable {
    /// Closed periods, sorted by `from`, not overlapping.
    public let periods: [RecoveryPeriod]
    /// The day recovery mode was turned on while it still is; nil while it is off.
    public let since: LocalDate?

    /// No pause: the programme as onboarding planned it.
    public static let none = CyclePauses(periods: [], since: nil)

    /// Sorts the periods and merges overlapping ones (rows synced from several devices may
    /// overlap); an open period starting inside a closed one starts after it.
    public init(periods: [RecoveryPeriod], since: LocalDate?) {
        var merged: [RecoveryPeriod] = []
        for period in periods.sorted(by: { ($0.from, $0.until) < ($1.from, $1.until) }) {
            if let last = merged.last, period.from < last.until, let joined = RecoveryPeriod(from: last.from, until: max(last.until, period.until)) {
                merged[merged.count - 1] = joined
            } else {
                merged.append(period)
            }
        }
        self.periods = merged
        self.since = since.map { start in merged.first(where: { $0.from <= start && start < $0.until })?.until ?? start }
    }

    /// Whether `date` is paused.
    public func isPaused(_ date: LocalDate) -> Bool {
        if let since, date >= since { return true }
        return periods.contains { $0.from <= date && date < $0.until }
    }

    /// The first paused day of the pause holding `date`, or nil when `date` is not paused.
    public func pauseStart(holding date: LocalDate) -> LocalDate? {
        if let since, date >= since { return since }
        return periods.first { $0.from <= date && date < $0.until }?.from
    }

    /// The last paused day of the closed pause holding `date`; nil when `date` is not paused
    /// or the pause is still open.
    public func pauseEnd(holding date: LocalDate) -> LocalDate? {
        if let since, date >= since { return nil }
        return periods.first { $0.from <= date && date < $0.until }?.until.adding(days: -1)
    }

    /// The first paused day after `date`, if any.
    public func nextPauseStart(after date: LocalDate) -> LocalDate? {
        let closed = periods.first { $0.from > date && $0.dayCount > 0 }?.from
        let open = since.flatMap { $0 > date ? $0 : nil }
        return [closed, open].compactMap { $0 }.min()
    }

    /// The paused days from `first` up to (not including) `date`.
    public func pausedDays(from first: LocalDate, before date: LocalDate) -> Int {
        guard first < date else { return 0 }
        var count = periods.reduce(0) { total, period in
            total + max(0, max(period.from, first).days(to: min(period.until, date)))
        }
        if let since { count += max(0, max(since, first).days(to: date)) }
        return count
    }

    /// The date of the `offset`-th programme day after `first` (offset 0: `first` itself, if
    /// not paused), skipping paused days; nil when it falls into the open pause (unknown).
    public func date(after first: LocalDate, programmeDays offset: Int) -> LocalDate? {
        var date = first.adding(days: offset)
        for period in periods where period.until > first && period.dayCount > 0 {
            guard max(period.from, first) <= date else { break }
            date = date.adding(days: max(period.from, first).days(to: period.until))
        }
        if let since, since <= date { return nil }
        return date
    }

    /// Whether recovery mode was switched on or off on `date` (or on and off the same day):
    /// the stored cycle state of that day may have been written either side of the switch.
    public func switches(on date: LocalDate) -> Bool {
        since == date || periods.contains { $0.from == date || $0.until == date }
    }
}
