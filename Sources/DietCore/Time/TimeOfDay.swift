import Foundation

/// A wall-clock time of day, to the minute.
public struct TimeOfDay: Hashable, Comparable, Sendable {
    public let hour: Int
    public let minute: Int

    public init?(hour: Int, minute: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    public init(minutesSinceMidnight minutes: Int) {
        let m = ((minutes % 1440) + 1440) % 1440
        self.hour = m / 60
        self.minute = m % 60
    }

    /// Parses `H:MM` or `HH:MM` (24-hour).
    public init?(string: String) {
        let parts = string.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            let h = Int(parts[0]), let m = Int(parts[1])
        else { return nil }
        self.init(hour: h, minute: m)
    }

    /// The wall time of `instant` in `timeZone`.
    public init(_ instant: Date, in timeZone: TimeZone) {
        let parts = LocalDate.gregorian(timeZone).dateComponents([.hour, .minute], from: instant)
        self.hour = parts.hour ?? 0
        self.minute = parts.minute ?? 0
    }

    public var minutesSinceMidnight: Int { hour * 60 + minute }

    /// `HH:MM`.
    public var formatted: String { String(format: "%02d:%02d", hour, minute) }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        lhs.minutesSinceMidnight < rhs.minutesSinceMidnight
    }
}

extension TimeOfDay: CustomStringConvertible {
    public var description: String { formatted }
}

extension TimeOfDay: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let time = TimeOfDay(string: string) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected a time as HH:MM, got \"\(string)\"")
        }
        self = time
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(formatted)
    }
}
