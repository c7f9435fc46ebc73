/// DATE and DATE-TIME values (RFC 5545 §3.3.4, §3.3.5).
enum DateValue {
    /// `19970714` → a date at midnight; nil if not a valid date.
    static func parseDate(_ text: some StringProtocol) -> CivilDateTime? {
        let digits = Array(text.utf8)
        guard digits.count == 8, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let year = Int(text.prefix(4)), let month = Int(text.dropFirst(4).prefix(2)), let day = Int(text.suffix(2)),
            (1...12).contains(month), (1...Civil.daysInMonth(year, month)).contains(day)
        else { return nil }
        return CivilDateTime(year: year, month: month, day: day)
    }

    /// `19970714T133000` or `19970714T133000Z` → the wall time and whether it is UTC.
    static func parseDateTime(_ text: some StringProtocol) -> (CivilDateTime, utc: Bool)? {
        var body = Substring(text)
        let utc = body.hasSuffix("Z")
        if utc { body = body.dropLast() }
        let parts = body.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2, var value = parseDate(parts[0]), parts[1].count == 6, parts[1].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let hour = Int(parts[1].prefix(2)), let minute = Int(parts[1].dropFirst(2).prefix(2)), let second = Int(parts[1].suffix(2)),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        value.hour = hour
        value.minute = minute
        value.second = min(second, 59)  // a leap second is read as :59
        return (value, utc)
    }

    static func parseUntil(_ text: String) -> RecurrenceRule.Until? {
        if let date = parseDate(text) { return .date(date) }
        guard let (value, utc) = parseDateTime(text) else { return nil }
        return utc ? .utc(value) : .floating(value)
    }
}
