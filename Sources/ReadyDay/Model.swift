import DietCore
import Foundation

/// WHOOP recovery zones (docs/rules.md §7): green 67–100, yellow 34–66, red 0–33, unknown without a score.
public enum RecoveryZone: String, Codable, Sendable, CaseIterable {
    case green, yellow, red, unknown

    public static func from(score: Int?) -> RecoveryZone {
        guard let score, (0...100).contains(score) else { return .unknown }
        switch score {
        case 67...: return .green
        case 34...: return .yellow
        default: return .red
        }
    }
}

/// A day's recovery as WHOOP scored it.
public struct Recovery: Hashable, Codable, Sendable {
    /// 0–100; nil while WHOOP has not scored it (PENDING_SCORE, UNSCORABLE).
    public var score: Int?
    public var restingHeartRate: Double?
    public var hrvMilliseconds: Double?
    /// When WHOOP recorded it.
    public var recordedAt: Date

    public init(score: Int?, restingHeartRate: Double? = nil, hrvMilliseconds: Double? = nil, recordedAt: Date) {
        self.score = score
        self.restingHeartRate = restingHeartRate
        self.hrvMilliseconds = hrvMilliseconds
        self.recordedAt = recordedAt
    }

    public var zone: RecoveryZone { .from(score: score) }
}

/// The night's sleep.
public struct Sleep: Hashable, Codable, Sendable {
    /// Time asleep (light + deep + REM).
    public var asleep: TimeInterval
    /// 0–1; nil when not scored.
    public var efficiency: Double?
    /// What WHOOP says the body needed.
    public var need: TimeInterval?
    public var endedAt: Date

    public init(asleep: TimeInterval, efficiency: Double? = nil, need: TimeInterval? = nil, endedAt: Date) {
        self.asleep = asleep
        self.efficiency = efficiency
        self.need = need
        self.endedAt = endedAt
    }

    public var hours: Double { asleep / 3600 }
}

/// A calendar occurrence as the briefing needs it.
public struct CalendarEvent: Hashable, Codable, Sendable {
    public var title: String
    public var start: Date
    public var end: Date
    /// People invited (rooms and resources not counted).
    public var attendeeCount: Int
    /// Cancelled and free events do not take up time or energy.
    public var blocksTime: Bool
    public var isAllDay: Bool

    public init(title: String, start: Date, end: Date, attendeeCount: Int = 0, blocksTime: Bool = true, isAllDay: Bool = false) {
        self.title = title
        self.start = start
        self.end = end
        self.attendeeCount = attendeeCount
        self.blocksTime = blocksTime
        self.isAllDay = isAllDay
    }

    public var duration: TimeInterval { max(0, end.timeIntervalSince(start)) }
}

/// How much an event asks of the user (docs/rules.md §7).
public enum EnergyDemand: String, Codable, Sendable, Comparable {
    case low, medium, high

    private var rank: Int {
        switch self {
        case .low: 0
        case .medium: 1
        case .high: 2
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

public struct ClassifiedEvent: Hashable, Codable, Sendable {
    public let event: CalendarEvent
    public let demand: EnergyDemand
    /// The points behind the demand.
    public let points: Int
}
