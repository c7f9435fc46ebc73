/// Facts about one year that recurrence expansion looks up per day: where months start,
/// weekdays, and the days picked by ordinal weekdays (`2MO`, `-1FR`). Day indexes are 0-based
/// from 1 January.
struct YearInfo {
    let year: Int
    let firstDayNumber: Int
    let yearLength: Int
    /// monthStart[m] is the index of the first day of month m + 1; monthStart[12] == yearLength.
    let monthStart: [Int]
    private let firstWeekday: Int
    private(set) var nthWeekdayMask = Set<Int>()
    private let rule: RecurrenceRule
    private var maskedMonth: Int?

    init(year: Int, rule: RecurrenceRule) {
        self.year = year
        self.rule = rule
        firstDayNumber = Civil.dayNumber(year: year, month: 1, day: 1)
        yearLength = Civil.daysInYear(year)
        var starts = [0]
        for month in 1...12 { starts.append(starts[month - 1] + Civil.daysInMonth(year, month)) }
        monthStart = starts
        firstWeekday = Civil.weekday(dayNumber: firstDayNumber)
    }

    func weekday(_ index: Int) -> Int {
        (firstWeekday + index) % 7
    }

    /// The days picked by ordinal weekdays: within the year, within each BYMONTH month (yearly
    /// rules), or within the current month (monthly rules).
    mutating func rebuildMonthMasks(
        month: Int,
        byNthWeekday: [RecurrenceRule.WeekdayNum],
        frequency: RecurrenceRule.Frequency,
        hasByMonth: Bool
    ) {
        guard !byNthWeekday.isEmpty else { return }
        if frequency == .yearly, maskedMonth != nil || !nthWeekdayMask.isEmpty { return }
        if frequency == .monthly, maskedMonth == month { return }
        var ranges: [(Int, Int)] = []
        switch frequency {
        case .yearly:
            if hasByMonth {
                for month in rule.byMonth.sorted() { ranges.append((monthStart[month - 1], monthStart[month])) }
            } else {
                ranges = [(0, yearLength)]
            }
        case .monthly:
            ranges = [(monthStart[month - 1], monthStart[month])]
        default:
            break
        }
        var mask = Set<Int>()
        for (first, end) in ranges {
            let last = end - 1
            for item in byNthWeekday {
                guard let ordinal = item.ordinal else { continue }
                var index: Int
                if ordinal < 0 {
                    index = last + (ordinal + 1) * 7
                    index -= ((weekday(index) - item.weekday) % 7 + 7) % 7
                } else {
                    index = first + (ordinal - 1) * 7
                    index += ((7 - weekday(index) + item.weekday) % 7 + 7) % 7
                }
                if first <= index, index <= last { mask.insert(index) }
            }
        }
        nthWeekdayMask = mask
        maskedMonth = month
    }
}

/// Week-numbering years (RFC 5545 BYWEEKNO): weeks start on WKST, and week 1 is the first week
/// with at least four days in the calendar year (ISO 8601 when WKST is Monday).
enum WeekYear {
    /// The day number of the first day of week 1 of `year`.
    static func week1Start(_ year: Int, weekStart: Int) -> Int {
        let january1 = Civil.dayNumber(year: year, month: 1, day: 1)
        let position = (Civil.weekday(dayNumber: january1) - weekStart + 7) % 7
        return position <= 3 ? january1 - position : january1 + 7 - position
    }

    static func containing(dayNumber: Int, weekStart: Int) -> Int {
        let (year, _, _) = Civil.date(dayNumber: dayNumber)
        if dayNumber < week1Start(year, weekStart: weekStart) { return year - 1 }
        if dayNumber >= week1Start(year + 1, weekStart: weekStart) { return year + 1 }
        return year
    }

    /// The days of the listed weeks of week-year `year` (negative numbers count from the end).
    static func days(of year: Int, weekStart: Int, weeks: [Int]) -> [Int] {
        let first = week1Start(year, weekStart: weekStart)
        let count = (week1Start(year + 1, weekStart: weekStart) - first) / 7
        var result: [Int] = []
        for number in Set(weeks.map { $0 < 0 ? count + 1 + $0 : $0 }).sorted() where number >= 1 && number <= count {
            let start = first + (number - 1) * 7
            result += start..<start + 7
        }
        return result
    }
}
