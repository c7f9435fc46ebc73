/// Why a calendar, or a part of one, could not be read.
public enum ICalendarError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An RRULE that is not valid: the rule and what is wrong with it.
    case invalidRule(String, String)
    /// A line that cannot be read, with its (1-based, unfolded) line number.
    case invalidLine(line: Int, String)
    /// The input is not an iCalendar document at all.
    case notACalendar(String)

    public var description: String {
        switch self {
        case let .invalidRule(rule, problem): "RRULE “\(rule)”: \(problem)"
        case let .invalidLine(line, problem): "line \(line): \(problem)"
        case let .notACalendar(problem): "not an iCalendar file: \(problem)"
        }
    }
}
