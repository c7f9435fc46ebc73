import DietCore
import Foundation

/// When and how hard to train, and why this time was chosen.
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
    /// Why this window: the gap it fills, the preparation kept, the preferred hours and the
    /// recovery behind the intensity.
    public let reason: WindowReason

    public var duration: TimeInterval { end.timeIntervalSince(start) }
}

/// The facts behind a workout window, for the sentence every surface shows ("the free gap
/// between A and B, after your 30-minute preparation, in your preferred hours 06:00–21:00;
/// moderate because recovery is yellow (55 %)").
public struct WindowReason: Hashable, Codable, Sendable {
    public enum Gap: String, Codable, Sendable {
        /// No busy event in the preferred hours.
        case freeDay
        /// Before the first busy event.
        case beforeFirst
        /// Between two busy events.
        case between
        /// After the last busy event.
        case afterLast
    }

    public let gap: Gap
    /// The event the window follows (nil before the first one or on a free day).
    public let after: String?
    /// The event the window ends at (nil after the last one or on a free day).
    public let before: String?
    /// The preparation kept after `after`, in minutes; nil when the window does not follow an event.
    public let preparationMinutes: Int?
    /// The window starts now because the earlier part of the gap has passed.
    public let startsNow: Bool
    /// The preferred hours it lies in, in minutes since midnight.
    public let preferredFrom: Int
    public let preferredTo: Int
    /// The longest of the day's windows (only said when there is more than one).
    public let longest: Bool
    /// The recovery behind the intensity.
    public let zone: RecoveryZone
    public let score: Int?
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

    /// A window before its reason is complete (whether it is the longest is known at the end).
    private struct Candidate {
        let start: Date
        let end: Date
        let gap: WindowReason.Gap
        let after: String?
        let before: String?
        let prepared: Bool
        let startsNow: Bool
        let range: ClosedRange<Int>
    }

    public static func windows(
        on date: LocalDate,
        events: [CalendarEvent],
        zone: RecoveryZone,
        preferences: WorkoutPreferences,
        timeZone: TimeZone,
        now: Date,
        recoveryScore: Int? = nil
    ) -> [WorkoutWindow] {
        let intensity: WorkoutWindow.Intensity =
            switch zone {
            case .green: .high
            case .yellow, .unknown: .moderate
            case .red: .recovery
            }
        let busy = events.filter { $0.blocksTime && !$0.isAllDay }.sorted { $0.start < $1.start }
        var candidates: [Candidate] = []
        for range in preferences.windows.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            candidates += gaps(in: range, on: date, busy: busy, preferences: preferences, timeZone: timeZone, now: now)
        }
        let chosen = Array(candidates.sorted { $0.start < $1.start }.prefix(maximum))
        // the first of the longest, when there is a choice
        let durations = chosen.map { $0.end.timeIntervalSince($0.start) }
        let longest = chosen.count > 1 ? durations.indices.max { durations[$0] < durations[$1] || (durations[$0] == durations[$1] && $0 > $1) } : nil
        return chosen.enumerated().map { index, candidate in
            let reason = WindowReason(
                gap: candidate.gap,
                after: candidate.after,
                before: candidate.before,
                preparationMinutes: candidate.prepared ? Int((preferences.preparation / 60).rounded()) : nil,
                startsNow: candidate.startsNow,
                preferredFrom: candidate.range.lowerBound,
                preferredTo: candidate.range.upperBound,
                longest: index == longest,
                zone: zone,
                score: recoveryScore
            )
            return WorkoutWindow(start: candidate.start, end: candidate.end, intensity: intensity, reason: reason)
        }
    }

    /// The gaps of one preferred range, each with what bounds it.
    private static func gaps(
        in range: ClosedRange<Int>,
        on date: LocalDate,
        busy: [CalendarEvent],
        preferences: WorkoutPreferences,
        timeZone: TimeZone,
        now: Date
    ) -> [Candidate] {
        let open = date.instant(at: TimeOfDay(minutesSinceMidnight: range.lowerBound), in: timeZone)
        let close =
            range.upperBound >= 1440
            ? date.adding(days: 1).instant(at: TimeOfDay(minutesSinceMidnight: 0), in: timeZone)
            : date.instant(at: TimeOfDay(minutesSinceMidnight: range.upperBound), in: timeZone)
        var result: [Candidate] = []
        var cursor = max(open, now)
        var previous: CalendarEvent?
        func candidate(until end: Date, before next: CalendarEvent?) -> Candidate {
            let gap: WindowReason.Gap =
                switch (previous, next) {
                case (nil, nil): .freeDay
                case (nil, _): .beforeFirst
                case (_, nil): .afterLast
                default: .between
                }
            let prepared = previous.map { cursor == $0.end.addingTimeInterval(preferences.preparation) } ?? false
            return Candidate(
                start: cursor,
                end: end,
                gap: gap,
                after: previous?.title,
                before: next?.title,
                prepared: prepared,
                startsNow: cursor == now && now > open,
                range: range
            )
        }
        for event in busy where event.end > cursor && event.start < close {
            if event.start.timeIntervalSince(cursor) >= preferences.minimum {
                result.append(candidate(until: event.start, before: event))
            }
            let next = event.end.addingTimeInterval(preferences.preparation)
            if next >= cursor { previous = event }
            cursor = max(cursor, next)
        }
        if close.timeIntervalSince(cursor) >= preferences.minimum {
            result.append(candidate(until: close, before: nil))
        }
        return result
    }
}
