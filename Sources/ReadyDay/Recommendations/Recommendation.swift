import DietCore
import Foundation

/// One piece of advice for the day; texts are messages rendered in the user's language.
public struct Recommendation: Hashable, Codable, Sendable {
    public enum Kind: String, Codable, Sendable {
        case warning, calendar, workout, info, positive, sleep, nutrition
    }

    public enum Priority: Int, Codable, Sendable, Comparable {
        case low = 1
        case medium = 2
        case high = 3

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The rule that made it (a stable id for tests and analytics).
    public let rule: String
    public let kind: Kind
    public let priority: Priority
    public let title: Message
    public let body: Message

    public init(rule: String, kind: Kind, priority: Priority, title: Message, body: Message) {
        self.rule = rule
        self.kind = kind
        self.priority = priority
        self.title = title
        self.body = body
    }
}

/// What the rules look at.
public struct BriefingContext: Sendable {
    public let zone: RecoveryZone
    public let recovery: Recovery?
    public let sleep: Sleep?
    /// The day's events in start order, with their demand.
    public let events: [ClassifiedEvent]
    /// Calendar load 0–100; nil without a calendar.
    public let load: Double?
    /// The MATADOR phase of the day, when the user has a programme.
    public let phase: Phase?
    public let timeZone: TimeZone
    /// Recovery mode: no advice about amounts (calories, deficits, protein goals).
    public var recoveryMode = false
}

/// A recommendation rule (docs/rules.md §7, open/closed): a new rule is a new type in the list,
/// no existing rule changes.
public protocol RecommendationRule: Sendable {
    func recommendations(in context: BriefingContext) -> [Recommendation]
}

/// Runs the rules in order, then keeps the five most important (higher priority first; among
/// equals, the order the rules gave them).
public enum RecommendationEngine {
    public static let limit = 5

    public static let defaultRules: [any RecommendationRule] = [
        RedRecoveryRule(), YellowRecoveryRule(), BusyDayModerateRecoveryRule(), GreenRecoveryRule(),
        SleepEfficiencyRule(), ShortSleepRule(), MeetingMarathonRule(), NutritionEmphasisRule(),
    ]

    public static func recommendations(for context: BriefingContext, rules: [any RecommendationRule] = defaultRules) -> [Recommendation] {
        let all = rules.flatMap { $0.recommendations(in: context) }
        return all.enumerated()
            .sorted { ($0.element.priority, -$0.offset) > ($1.element.priority, -$1.offset) }
            .prefix(limit).map(\.element)
    }
}
