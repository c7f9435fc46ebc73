import DietCore
import Foundation

/// When and how hard to train.
public struct WorkoutWindow: Hashable, Codable, Sendable {
    public enum Intensity: String, Codable, Sendable {
        /// Zone 1–2: a walk, yoga, mobility.
        case recovery
        case moderate
        case high
    }

    public let start: Date
    public let end: Date
    public let intensity: Intensity

    public var duration: TimeInterval { end.timeIntervalSince(start) }
}

/// The user's training preferences.
public struct WorkoutPreferences: Hashable, Codable, Sendable {
    /// Local times the user would train in.
    public var windows: [ClosedRange<Int>]
    /// Time after an event before training can start (changing, travelling).
    public var preparation: TimeInterval
    /// The shortest useful session.
    public var minimum: TimeInterval

    /// Windows in minutes since midnight; by default 06:00–21:00, 30 minutes to prepare, 60 to train.
    public init(windows: [ClosedRange<Int>] = [360...1260], preparation: TimeInterval = 30 * 60, minimum: TimeInterval = 60 * 60) {
        self.windows = windows
        self.preparation = preparation
        self.minimum = minimum
    }
}

/// Gaps of at least the minimum between the day's busy events, after the preparation time,
/// inside the preferred times, not in the past; intensity from the recovery zone.
public enum WorkoutWindowFinder {
    public static let maximum = 3

    public static func windows(on date: LocalDate, events: [CalendarEvent], zone: RecoveryZone, preferences: WorkoutPreferences,
                               timeZone: TimeZone, now: Date) -> [WorkoutWindow] {
        let intensity: WorkoutWindow.Intensity = switch zone {
        case .green: .high
        case .yellow, .unknown: .moderate
        case .red: .recovery
        }
        let busy = events.filter { $0.blocksTime && !$0.isAllDay }.sorted { $0.start < $1.start }
        var result: [WorkoutWindow] = []
        for range in preferences.windows.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let open = date.instant(at: TimeOfDay(minutesSinceMidnight: range.lowerBound), in: timeZone)
            let close = range.upperBound >= 1440
                ? date.adding(days: 1).instant(at: TimeOfDay(minutesSinceMidnight: 0), in: timeZone)
                : date.instant(at: TimeOfDay(minutesSinceMidnight: range.upperBound), in: timeZone)
            var cursor = max(open, now)
            for event in busy where event.end > cursor && event.start < close {
                if event.start.timeIntervalSince(cursor) >= preferences.minimum {
                    result.append(WorkoutWindow(start: cursor, end: event.start, intensity: intensity))
                }
                cursor = max(cursor, event.end.addingTimeInterval(preferences.preparation))
            }
            if close.timeIntervalSince(cursor) >= preferences.minimum {
                result.append(WorkoutWindow(start: cursor, end: close, intensity: intensity))
            }
        }
        return Array(result.sorted { $0.start < $1.start }.prefix(maximum))
    }
}
