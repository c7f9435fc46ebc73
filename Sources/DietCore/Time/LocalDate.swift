import Foundation

/// A civil calendar date (year, month, day) with no time and no time zone.
///
/// Every daily rule — the MATADOR phase, the streak, daily totals, one weight per day — works
/// on `LocalDate`s. Day arithmetic uses the proleptic Gregorian day number, so it never divides
/// seconds by 86,400 and is immune to DST and time-zone offsets.
public struct LocalDate: Hashable, Comparable, Sendable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Creates a date, or returns `nil` when the components do not name a real day.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...LocalDate.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The local date of `instant` as seen on a wall calendar in `timeZone`.
    public init(_ instant: Date, in timeZone: TimeZone) {
        let parts = LocalDate.gregorian(timeZone).dateComponents([.year, .month, .day], from: instant)
        self.year = parts.year ?? 1970
        self.month = parts.month ?? 1
        self.day = parts.day ?? 1
    }

    /// Parses `YYYY-MM-DD`.
    public init?(iso string: String) {
        let parts = string.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// `YYYY-MM-DD`.
    public var iso: String {
        Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2)
    }

    /// Zero-padded digits without Foundation's format machinery (this runs in hot loops).
    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Days since 1970-01-01 (negative before), by the civil-from-days algorithm.
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `dayNumber` days after 1970-01-01.
    public init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }

    public func adding(days: Int) -> LocalDate {
        LocalDate(dayNumber: dayNumber + days)
    }

    /// Whole calendar days from `self` to `other` (positive when `other` is later).
    public func days(to other: LocalDate) -> Int {
        other.dayNumber - dayNumber
    }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int {
        let w = (dayNumber + 3) % 7  // 1970-01-01 was a Thursday (ISO 4)
        return (w < 0 ? w + 7 : w) + 1
    }

    /// The first instant of this date in `timeZone`. Where a DST change skips local midnight
    /// (e.g. America/Santiago), the day starts at the first instant that exists.
    public func startOfDay(in timeZone: TimeZone) -> Date {
        let calendar = LocalDate.gregorian(timeZone)
        let noon = DateComponents(year: year, month: month, day: day, hour: 12)
        let anchor = calendar.date(from: noon) ?? Date(timeIntervalSince1970: Double(dayNumber) * 86_400)
        return calendar.startOfDay(for: anchor)
    }

    /// The instant at `time` on this date in `timeZone`; a wall time skipped by DST moves
    /// forward to the next existing time.
    public func instant(at time: TimeOfDay, in timeZone: TimeZone) -> Date {
        let calendar = LocalDate.gregorian(timeZone)
        let parts = DateComponents(year: year, month: month, day: day, hour: time.hour, minute: time.minute)
        return calendar.date(from: parts) ?? startOfDay(in: timeZone).addingTimeInterval(Double(time.minutesSinceMidnight) * 60)
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    static func gregorian(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}

extension LocalDate: CustomStringConvertible {
    public var description: String { iso }
}

extension LocalDate: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let date = LocalDate(iso: string) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected a date as YYYY-MM-DD, got \"\(string)\"")
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso)
    }
}
