/// An RRULE (RFC 5545 §3.3.10), checked when parsed.
public struct RecurrenceRule: Hashable, Sendable {
    public enum Frequency: Int, Comparable, Sendable, CaseIterable {
        case yearly, monthly, weekly, daily, hourly, minutely, secondly

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        var name: String {
            switch self {
            case .yearly: "YEARLY"
            case .monthly: "MONTHLY"
            case .weekly: "WEEKLY"
            case .daily: "DAILY"
            case .hourly: "HOURLY"
            case .minutely: "MINUTELY"
            case .secondly: "SECONDLY"
            }
        }
    }

    /// A weekday, 0 = Monday … 6 = Sunday, with an optional ordinal (`-1FR`, `2MO`).
    public struct WeekdayNum: Hashable, Sendable {
        public let weekday: Int
        public let ordinal: Int?

        public init(weekday: Int, ordinal: Int? = nil) {
            self.weekday = weekday
            self.ordinal = ordinal
        }
    }

    /// The end of a rule: UNTIL as a date (all-day events), a UTC time, or a floating time.
    public enum Until: Hashable, Sendable {
        case date(CivilDateTime)
        case utc(CivilDateTime)
        case floating(CivilDateTime)
    }

    public var frequency: Frequency
    public var interval = 1
    public var count: Int?
    public var until: Until?
    public var bySecond: [Int] = []
    public var byMinute: [Int] = []
    public var byHour: [Int] = []
    public var byDay: [WeekdayNum] = []
    public var byMonthDay: [Int] = []
    public var byYearDay: [Int] = []
    public var byWeekNo: [Int] = []
    public var byMonth: [Int] = []
    public var bySetPos: [Int] = []
    /// The first day of the week, 0 = Monday (the default).
    public var weekStart = 0

    public init(frequency: Frequency) {
        self.frequency = frequency
    }

    static let weekdayNames = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// Parses `FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10`; throws naming the part that is wrong.
    public init(parsing text: String) throws(ICalendarError) {
        var frequency: Frequency?
        var rule = RecurrenceRule(frequency: .daily)
        var seen = Set<String>()
        for part in text.split(separator: ";", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2 else { throw .invalidRule(text, "“\(part)” is not NAME=VALUE") }
            let name = pieces[0].uppercased()
            let value = String(pieces[1])
            guard seen.insert(name).inserted else { throw .invalidRule(text, "\(name) appears twice") }
            func integers(_ range: ClosedRange<Int>, allowNegative: Bool) throws(ICalendarError) -> [Int] {
                var result: [Int] = []
                // Repeated values mean nothing more; dropping them keeps every list short.
                var seen = Set<Int>()
                for item in value.split(separator: ",") {
                    guard let number = Int(item.trimmingPlus),
                        allowNegative ? (number != 0 && range.contains(abs(number))) : range.contains(number)
                    else { throw .invalidRule(text, "\(name) value “\(item)” is out of range") }
                    if seen.insert(number).inserted { result.append(number) }
                }
                guard !result.isEmpty else { throw .invalidRule(text, "\(name) is empty") }
                return result
            }
            switch name {
            case "FREQ":
                guard let match = Frequency.allCases.first(where: { $0.name == value.uppercased() }) else {
                    throw .invalidRule(text, "FREQ “\(value)” is not one of YEARLY, MONTHLY, WEEKLY, DAILY, HOURLY, MINUTELY, SECONDLY")
                }
                frequency = match
            case "INTERVAL":
                guard let number = Int(value), number >= 1, number <= Limits.interval else {
                    throw .invalidRule(text, "INTERVAL must be a whole number from 1 to \(Limits.interval)")
                }
                rule.interval = number
            case "COUNT":
                guard let number = Int(value), number >= 1 else { throw .invalidRule(text, "COUNT must be a whole number ≥ 1") }
                rule.count = number
            case "UNTIL":
                guard let until = DateValue.parseUntil(value) else { throw .invalidRule(text, "UNTIL “\(value)” is not a date or date-time") }
                rule.until = until
            case "BYSECOND": rule.bySecond = try integers(0...60, allowNegative: false)
            case "BYMINUTE": rule.byMinute = try integers(0...59, allowNegative: false)
            case "BYHOUR": rule.byHour = try integers(0...23, allowNegative: false)
            case "BYMONTHDAY": rule.byMonthDay = try integers(1...31, allowNegative: true)
            case "BYYEARDAY": rule.byYearDay = try integers(1...366, allowNegative: true)
            case "BYWEEKNO": rule.byWeekNo = try integers(1...53, allowNegative: true)
            case "BYMONTH": rule.byMonth = try integers(1...12, allowNegative: false)
            case "BYSETPOS": rule.bySetPos = try integers(1...366, allowNegative: true)
            case "WKST":
                guard let day = Self.weekdayNames.firstIndex(of: value.uppercased()) else {
                    throw .invalidRule(text, "WKST “\(value)” is not a weekday")
                }
                rule.weekStart = day
            case "BYDAY":
                var days: [WeekdayNum] = []
                var seenDays = Set<WeekdayNum>()
                for item in value.split(separator: ",").map(String.init) {
                    let upper = item.uppercased()
                    guard upper.count >= 2, let day = Self.weekdayNames.firstIndex(of: String(upper.suffix(2))) else {
                        throw .invalidRule(text, "BYDAY “\(item)” is not a weekday")
                    }
                    let prefix = upper.dropLast(2)
                    if prefix.isEmpty {
                        if seenDays.insert(WeekdayNum(weekday: day)).inserted { days.append(WeekdayNum(weekday: day)) }
                        continue
                    }
                    guard let ordinal = Int(prefix.trimmingPlus), ordinal != 0, (1...53).contains(abs(ordinal)) else {
                        throw .invalidRule(text, "BYDAY “\(item)” has an ordinal outside ±1…53")
                    }
                    if seenDays.insert(WeekdayNum(weekday: day, ordinal: ordinal)).inserted {
                        days.append(WeekdayNum(weekday: day, ordinal: ordinal))
                    }
                }
                guard !days.isEmpty else { throw .invalidRule(text, "BYDAY is empty") }
                rule.byDay = days
            default:
                // Extensions (RSCALE, SKIP, X-…) are not supported; an unknown part is refused
                // rather than silently expanded wrongly.
                throw .invalidRule(text, "\(name) is not supported")
            }
        }
        guard let frequency else { throw .invalidRule(text, "FREQ is missing") }
        guard rule.count == nil || rule.until == nil else { throw .invalidRule(text, "COUNT and UNTIL cannot both be given") }
        if !rule.bySetPos.isEmpty,
            [rule.bySecond, rule.byMinute, rule.byHour, rule.byMonthDay, rule.byYearDay, rule.byWeekNo, rule.byMonth].allSatisfy(\.isEmpty),
            rule.byDay.isEmpty
        {
            throw .invalidRule(text, "BYSETPOS needs another BYxxx part")
        }
        rule.frequency = frequency
        self = rule
    }
}

extension Substring {
    /// "+3" → "3": RFC 5545 allows an explicit plus sign.
    var trimmingPlus: String { hasPrefix("+") ? String(dropFirst()) : String(self) }
}
