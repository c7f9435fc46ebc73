import DietCore
import Foundation

/// Red recovery: take it easy, consider moving the first demanding event, active recovery only.
public struct RedRecoveryRule: RecommendationRule {
    public init() {}

    public func recommendations(in context: BriefingContext) -> [Recommendation] {
        guard context.zone == .red, let score = context.recovery?.score else { return [] }
        var result = [
            Recommendation(
                rule: "recovery.red",
                kind: .warning,
                priority: .high,
                title: Message("readyday.rec.red.title", ["score": .integer(score)]),
                body: Message("readyday.rec.red.body")
            )
        ]
        if let hardest = context.events.first(where: { $0.demand == .high && $0.event.blocksTime }) {
            result.append(
                Recommendation(
                    rule: "recovery.red.move",
                    kind: .calendar,
                    priority: .high,
                    title: Message("readyday.rec.move.title", ["event": .text(hardest.event.title)]),
                    body: Message("readyday.rec.move.body", ["score": .integer(score)])
                )
            )
        }
        result.append(
            Recommendation(
                rule: "recovery.red.workout",
                kind: .workout,
                priority: .medium,
                title: Message("readyday.rec.activeRecovery.title"),
                body: Message("readyday.rec.activeRecovery.body")
            )
        )
        return result
    }
}

public struct YellowRecoveryRule: RecommendationRule {
    public init() {}

    public func recommendations(in context: BriefingContext) -> [Recommendation] {
        guard context.zone == .yellow, let score = context.recovery?.score else { return [] }
        return [
            Recommendation(
                rule: "recovery.yellow",
                kind: .info,
                priority: .medium,
                title: Message("readyday.rec.yellow.title", ["score": .integer(score)]),
                body: Message("readyday.rec.yellow.body")
            )
        ]
    }
}

/// A busy calendar (load over 60) on a day of moderate recovery.
public struct BusyDayModerateRecoveryRule: RecommendationRule {
    public static let threshold = 60.0

    public init() {}

    public func recommendations(in context: BriefingContext) -> [Recommendation] {
        guard context.zone == .yellow, let load = context.load, load > Self.threshold else { return [] }
        return [
            Recommendation(
                rule: "calendar.busy.yellow",
                kind: .warning,
                priority: .high,
                title: Message("readyday.rec.busyYellow.title"),
                body: Message("readyday.rec.busyYellow.body", ["load": .integer(Int(load.rounded()))])
            )
        ]
    }
}

public struct GreenRecoveryRule: RecommendationRule {
    public init() {}

    public func recommendations(in context: BriefingContext) -> [Recommendation] {
        guard context.zone == .green, let score = context.recovery?.score else { return [] }
        return [
            Recommendation(
                rule: "recovery.green",
                kind: .positive,
                priority: .medium,
                title: Message("readyday.rec.green.title", ["score": .integer(score)]),
                body: Message("readyday.rec.green.body")
            ),
            Recommendation(
                rule: "recovery.green.workout",
                kind: .workout,
                priority: .low,
                title: Message("readyday.rec.intense.title"),
                body: Message("readyday.rec.intense.body")
            ),
        ]
    }
}

/// Sleep efficiency under 75 %.
public struct SleepEfficiencyRule: RecommendationRule {
    public static let threshold = 0.75

    public init() {}

    public func recommendations(in context: BriefingContext) -> [Recommendation] {
        guard let efficiency = context.sleep?.efficiency, efficiency < Self.threshold else { return [] }
        return [
            Recommendation(
                rule: "sleep.efficiency",
                kind: .sleep,
                priority: .medium,
                title: Message("readyday.rec.efficiency.title", ["percent": .integer(Int((efficiency * 100).rounded(.down)))]),
                body: Message("readyday.rec.efficiency.body")
            )
        ]
    }
}

/// Less than six hours asleep.
public struct ShortSleepRule: RecommendationRule {
    public static let threshold: TimeInterval = 6 * 3600

    public init() {}

    public func recommendations(in context: BriefingContext) -> [Recommendation] {
        guard let sleep = context.sleep, sleep.asleep < Self.threshold else { return [] }
        return [
            Recommendation(
                rule: "sleep.short",
                kind: .sleep,
                priority: .high,
                title: Message("readyday.rec.shortSleep.title", ["hours": .decimal(sleep.hours, digits: 1)]),
                body: Message("readyday.rec.shortSleep.body")
            )
        ]
    }
}

/// Three or more hours of meetings without a break.
public struct MeetingMarathonRule: RecommendationRule {
    public static let threshold: TimeInterval = 3 * 3600

    public init() {}

    public func recommendations(in context: BriefingContext) -> [Recommendation] {
        MeetingBlocks.blocks(context.events).filter { $0.duration >= Self.threshold }.map { block in
            Recommendation(
                rule: "calendar.marathon",
                kind: .calendar,
                priority: .high,
                title: Message("readyday.rec.marathon.title"),
                body: Message(
                    "readyday.rec.marathon.body",
                    [
                        "hours": .decimal(block.duration / 3600, digits: block.duration.truncatingRemainder(dividingBy: 3600) == 0 ? 0 : 1),
                        "time": .time(TimeOfDay(block.start, in: context.timeZone)),
                    ]
                )
            )
        }
    }
}

/// Where the three systems meet (docs/rules.md §7): red recovery on a diet day puts protein first and
/// adds no extra deficit.
public struct NutritionEmphasisRule: RecommendationRule {
    public init() {}

    public func recommendations(in context: BriefingContext) -> [Recommendation] {
        guard context.zone == .red, context.phase == .diet, !context.recoveryMode else { return [] }
        return [
            Recommendation(
                rule: "nutrition.redDiet",
                kind: .nutrition,
                priority: .medium,
                title: Message("readyday.rec.nutritionRed.title"),
                body: Message("readyday.rec.nutritionRed.body")
            )
        ]
    }
}
