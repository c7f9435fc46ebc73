/// A wall-clock date and time without a time zone (RFC 5545 "floating"), in the proleptic
/// Gregorian calendar. Recurrence expansion works on these; a zone turns them into instants.
public struct CivilDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.year, lhs.month, lhs.day, lhs.hour, lhs.minute, lhs.second)
            < (rhs.year, rhs.month, rhs.day, rhs.hour, rhs.minute, rhs.second)
    }

    /// `19970902T090000`.
    public var description: String {
        pad(year, 4) + pad(month, 2) + pad(day, 2) + "T" + pad(hour, 2) + pad(minute, 2) + pad(second, 2)
    }

    /// `19970902`.
    public var dateDescription: String {
        pad(year, 4) + pad(month, 2) + pad(day, 2)
    }

    /// Days since 1970-01-01 of the date.
    public var dayNumber: Int { Civil.dayNumber(year: year, month: month, day: day) }

    /// Seconds since 1970-01-01T00:00:00 of this wall-clock time read as UTC.
    public var secondsAsUTC: Int64 {
        Int64(dayNumber) * 86400 + Int64(hour * 3600 + minute * 60 + second)
    }

    public init(dayNumber: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        let (year, month, day) = Civil.date(dayNumber: dayNumber)
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    public init(secondsAsUTC seconds: Int64) {
        let days = Int((seconds - ((seconds % 86400) + 86400) % 86400) / 86400)
        let rest = Int(((seconds % 86400) + 86400) % 86400)
        self.init(dayNumber: days, hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60)
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

/// Proleptic Gregorian arithmetic (Howard Hinnant's civil-from-days algorithms).
enum Civil {
    static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func daysInYear(_ year: Int) -> Int { isLeap(year) ? 366 : 365 }

    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func date(dayNumber: Int) -> (Int, Int, Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// 0 = Monday … 6 = Sunday.
    static func weekday(dayNumber: Int) -> Int {
        ((dayNumber % 7) + 7 + 3) % 7
    }
}
