import Foundation

/// A time zone as offsets from UTC over time: a system zone, or one defined by a VTIMEZONE.
public protocol ZoneRules: Sendable {
    /// Seconds east of UTC at the instant `utc` (seconds since 1970).
    func offset(atUTC utc: Int64) -> Int
}

struct SystemZone: ZoneRules {
    let zone: TimeZone

    func offset(atUTC utc: Int64) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(utc)))
    }
}

struct FixedOffset: ZoneRules {
    let seconds: Int

    func offset(atUTC utc: Int64) -> Int { seconds }
}

extension ZoneRules {
    /// The instant of a wall time in this zone (RFC 5545 §3.3.5): in a gap (the hour skipped
    /// when clocks go forward) the offset before the gap applies, so 02:30 becomes 03:30; in an
    /// overlap (the hour repeated) the first occurrence is meant.
    public func utc(for local: CivilDateTime) -> Int64 {
        let wall = local.secondsAsUTC
        let before = offset(atUTC: wall - 86400)
        let after = offset(atUTC: wall + 86400)
        // Each offset around the wall time gives a candidate instant; it is valid when the zone
        // has that offset then. (No collections: this runs for every candidate of a series.)
        let early = wall - Int64(before)
        let late = wall - Int64(after)
        let earlyValid = offset(atUTC: early) == before
        let lateValid = before != after && offset(atUTC: late) == after
        switch (earlyValid, lateValid) {
        case (true, true): return min(early, late)
        case (false, true): return late
        default: return early
        }
    }

    /// The wall time of an instant in this zone.
    public func local(for utc: Int64) -> CivilDateTime {
        CivilDateTime(secondsAsUTC: utc + Int64(offset(atUTC: utc)))
    }
}

/// Offsets from the STANDARD and DAYLIGHT observances of a VTIMEZONE: each onset (DTSTART,
/// its RRULE occurrences and RDATEs, local time read with TZOFFSETFROM) switches to TZOFFSETTO.
struct VTimeZoneRules: ZoneRules {
    /// (onset in UTC seconds, offset from then on), sorted.
    let transitions: [(Int64, Int)]
    let initialOffset: Int

    /// Onsets are computed up to the end of `lastYear`. Every observance, onset and RDATE
    /// value takes from `budget`; nil when there are no usable observances or the budget runs
    /// out (a zone with that many transitions is not a real one).
    init?(_ component: Component, lastYear: Int = 2100, budget: inout Int) {
        var transitions: [(Int64, Int)] = []
        var earliest: (Int64, Int)?
        for observance in component.children where observance.name == "STANDARD" || observance.name == "DAYLIGHT" {
            // Some exporters (Lotus Notes) write the onset as a DATE: midnight of that day.
            guard let startLine = observance.first("DTSTART"), let start = Self.wallTime(startLine.value),
                let from = observance.first("TZOFFSETFROM").flatMap({ Self.offset($0.value) }),
                let to = observance.first("TZOFFSETTO").flatMap({ Self.offset($0.value) })
            else { continue }
            let onsets = Self.onsets(of: observance, start: start, from: from, lastYear: lastYear, budget: &budget)
            guard budget > 0 else { return nil }
            for onset in Set(onsets) {
                let instant = onset.secondsAsUTC - Int64(from)
                transitions.append((instant, to))
                if earliest.map({ instant < $0.0 }) ?? true { earliest = (instant, from) }
            }
        }
        guard let earliest else { return nil }
        self.transitions = transitions.sorted { $0.0 < $1.0 }
        initialOffset = earliest.1
    }

    /// The local onsets of one observance: DTSTART, its RRULE's occurrences and its RDATEs.
    private static func onsets(of observance: Component, start: CivilDateTime, from: Int, lastYear: Int, budget: inout Int) -> [CivilDateTime] {
        var onsets = [start]
        budget -= 1
        if let ruleLine = observance.first("RRULE"), let rule = try? RecurrenceRule(parsing: ruleLine.value), budget > 0 {
            var until: CivilDateTime?
            switch rule.until {
            case let .utc(value)?: until = CivilDateTime(secondsAsUTC: value.secondsAsUTC + Int64(from))
            case let .floating(value)?, let .date(value)?: until = value
            case nil: until = nil
            }
            let limit = CivilDateTime(year: lastYear, month: 12, day: 31, hour: 23, minute: 59, second: 59)
            var iterator = RecurrenceIterator(rule: rule, start: start, until: min(until ?? limit, limit))
            iterator.stepLimit = budget
            while onsets.count <= 2000, let onset = iterator.next() { onsets.append(onset) }
            budget -= iterator.steps
        }
        for line in observance.all("RDATE") {
            for item in line.value.split(separator: ",") {
                budget -= 1
                guard budget > 0 else { return onsets }
                if let (value, utc) = DateValue.parseDateTime(item) {
                    onsets.append(utc ? CivilDateTime(secondsAsUTC: value.secondsAsUTC + Int64(from)) : value)
                } else if let date = DateValue.parseDate(item) {
                    onsets.append(date)
                }
            }
        }
        return onsets
    }

    /// An onset's local wall time: a DATE-TIME, or a DATE read as its midnight.
    private static func wallTime(_ text: String) -> CivilDateTime? {
        DateValue.parseDateTime(text)?.0 ?? DateValue.parseDate(text)
    }

    func offset(atUTC utc: Int64) -> Int {
        // The last transition at or before `utc` (binary search).
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle].0 <= utc { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffset : transitions[low - 1].1
    }

    /// `+0100`, `-0530`, `+013045`.
    static func offset(_ text: String) -> Int? {
        let sign: Int
        switch text.first {
        case "+": sign = 1
        case "-": sign = -1
        default: return nil
        }
        let digits = text.dropFirst()
        guard digits.count == 4 || digits.count == 6, digits.allSatisfy(\.isNumber),
            let hours = Int(digits.prefix(2)), let minutes = Int(digits.dropFirst(2).prefix(2)), hours < 24, minutes < 60
        else { return nil }
        let seconds = digits.count == 6 ? Int(digits.suffix(2)) ?? 0 : 0
        return sign * (hours * 3600 + minutes * 60 + seconds)
    }
}

/// TZID → zone: an IANA name (also inside Mozilla-style paths), a common Windows name, the
/// VTIMEZONE's X-LIC-LOCATION, or the VTIMEZONE's own observances.
enum ZoneResolver {
    /// - Parameter budget: the work VTIMEZONE transitions may still take (see `Limits.zoneSteps`).
    static func resolve(_ tzid: String, definitions: [String: Component], budget: inout Int) -> (any ZoneRules)? {
        let trimmed = tzid.trimmingCharacters(in: .whitespaces)
        if let zone = iana(trimmed) { return SystemZone(zone: zone) }
        if let name = windowsZones[trimmed], let zone = TimeZone(identifier: name) { return SystemZone(zone: zone) }
        if let definition = definitions[trimmed] {
            if let location = definition.first("X-LIC-LOCATION")?.value, let zone = iana(location) { return SystemZone(zone: zone) }
            if budget > 0, let rules = VTimeZoneRules(definition, budget: &budget) { return rules }
        }
        return nil
    }

    static func iana(_ name: String) -> TimeZone? {
        if ["UTC", "GMT", "Z", "Etc/UTC", "Etc/GMT"].contains(name) { return TimeZone(identifier: "UTC") }
        // Only real region names: TimeZone(identifier:) also accepts abbreviations like "CET".
        let parts = name.split(separator: "/")
        for count in [2, 3] where parts.count >= count {
            let candidate = parts.suffix(count).joined(separator: "/")
            if knownIdentifiers.contains(candidate), let zone = TimeZone(identifier: candidate) { return zone }
        }
        return nil
    }

    /// Read once: a calendar may name thousands of zones.
    private static let knownIdentifiers = Set(TimeZone.knownTimeZoneIdentifiers)

    /// The Windows names Outlook and Exchange write most, mapped as CLDR's windowsZones does.
    static let windowsZones: [String: String] = [
        "W. Europe Standard Time": "Europe/Berlin", "Central Europe Standard Time": "Europe/Budapest",
        "Romance Standard Time": "Europe/Paris", "Central European Standard Time": "Europe/Warsaw",
        "GMT Standard Time": "Europe/London", "Greenwich Standard Time": "Atlantic/Reykjavik",
        "E. Europe Standard Time": "Europe/Chisinau", "FLE Standard Time": "Europe/Kiev", "GTB Standard Time": "Europe/Bucharest",
        "Russian Standard Time": "Europe/Moscow", "Turkey Standard Time": "Europe/Istanbul", "Israel Standard Time": "Asia/Jerusalem",
        "Eastern Standard Time": "America/New_York", "Central Standard Time": "America/Chicago",
        "Mountain Standard Time": "America/Denver", "US Mountain Standard Time": "America/Phoenix",
        "Pacific Standard Time": "America/Los_Angeles", "Alaskan Standard Time": "America/Anchorage",
        "Hawaiian Standard Time": "Pacific/Honolulu", "Atlantic Standard Time": "America/Halifax",
        "Newfoundland Standard Time": "America/St_Johns", "Canada Central Standard Time": "America/Regina",
        "Central Standard Time (Mexico)": "America/Mexico_City", "SA Pacific Standard Time": "America/Bogota",
        "E. South America Standard Time": "America/Sao_Paulo", "Argentina Standard Time": "America/Buenos_Aires",
        "Pacific SA Standard Time": "America/Santiago", "UTC": "UTC", "Tokyo Standard Time": "Asia/Tokyo",
        "China Standard Time": "Asia/Shanghai", "India Standard Time": "Asia/Kolkata", "Singapore Standard Time": "Asia/Singapore",
        "Korea Standard Time": "Asia/Seoul", "Taipei Standard Time": "Asia/Taipei", "SE Asia Standard Time": "Asia/Bangkok",
        "Pakistan Standard Time": "Asia/Karachi", "Iran Standard Time": "Asia/Tehran", "Arabian Standard Time": "Asia/Dubai",
        "Arab Standard Time": "Asia/Riyadh", "AUS Eastern Standard Time": "Australia/Sydney",
        "E. Australia Standard Time": "Australia/Brisbane", "AUS Central Standard Time": "Australia/Darwin",
        "W. Australia Standard Time": "Australia/Perth", "New Zealand Standard Time": "Pacific/Auckland",
        "South Africa Standard Time": "Africa/Johannesburg", "Egypt Standard Time": "Africa/Cairo",
        "W. Central Africa Standard Time": "Africa/Lagos", "Morocco Standard Time": "Africa/Casablanca",
    ]
}
