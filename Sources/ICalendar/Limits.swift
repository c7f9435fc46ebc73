/// The bounds that keep a hostile calendar from exhausting memory or time. A real calendar
/// stays far below every one of them; what goes beyond is skipped and reported as a problem,
/// never silently.
enum Limits {
    /// The longest unfolded content line kept (a long DESCRIPTION or an inline attachment fits).
    static let lineBytes = 1 << 20
    /// Components of any kind (events, alarms, time zones …) read from one calendar.
    static let components = 100_000
    /// Properties kept per component.
    static let propertiesPerComponent = 10_000
    /// RDATE values, and EXDATE values, kept per event.
    static let datesPerEvent = 10_000
    /// RRULE lines kept per event (real ones have one, rarely two).
    static let rulesPerEvent = 10
    /// ATTENDEE lines kept per event.
    static let attendeesPerEvent = 1_000
    /// The largest RRULE INTERVAL accepted (a million seconds, days or years is already absurd).
    static let interval = 1_000_000
    /// Problems listed one by one; the rest are counted in a last entry.
    static let listedProblems = 1_000

    /// Occurrences of one event kept in one window.
    static let occurrencesPerEvent = 2_000
    /// Occurrences of the whole calendar kept in one window (the earliest).
    static let occurrences = 20_000
    /// Work (periods, days and candidates the recurrence iterator looks at, plus RDATEs) one
    /// event may take to reach and fill a window.
    static let stepsPerEvent = 100_000
    /// The same work for the whole calendar in one window.
    static let steps = 1_000_000
    /// The same work for computing the transitions of the VTIMEZONEs a calendar uses.
    static let zoneSteps = 1_000_000
}

/// Problems in line order as they are found; beyond `Limits.listedProblems` only counted.
struct ProblemList {
    private(set) var listed: [ICalendarProblem] = []
    private var unlisted = 0
    private var firstUnlistedLine = 0

    mutating func add(line: Int, _ message: String) {
        guard listed.count < Limits.listedProblems else {
            if unlisted == 0 { firstUnlistedLine = line }
            unlisted += 1
            return
        }
        listed.append(ICalendarProblem(line: line, message: message))
    }

    /// The listed problems sorted by line, then one entry for those only counted.
    var sorted: [ICalendarProblem] {
        var result = listed.sorted { $0.line < $1.line }
        if unlisted > 0 {
            result.append(ICalendarProblem(line: firstUnlistedLine, message: "and \(unlisted) more problems, not listed"))
        }
        return result
    }
}
