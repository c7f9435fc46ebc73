import ArgumentParser
import DietCore
import DietStore
import Foundation

/// `wdiet badges [--json]`: earned and next badges, points and their history (docs/rules.md §5).
/// In recovery mode only a calm line: no points, streak counts or thresholds (docs/rules.md §8).
struct BadgesCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "badges",
        abstract: "Your badges and points.",
        discussion: """
            Earned badges with their dates, the next badge of each category with your progress, and your points \
            with the last 14 days. --json prints {"recovery_mode": false, "earned": [{"category", "tier", "name", \
            "earned_on"}], "next": [{"category", "tier", "name", "description", "current", "threshold"}], "points": \
            {"total", "decay_rule", "history": [{"date", "earned": {reason: points}, "decayed", "balance"}]}}; in \
            recovery mode only {"recovery_mode": true, "message"}.
            """
    )

    /// Days of points history shown.
    static let historyDays = 14

    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        _ = try session.requireSettings()
        let l = session.localizer
        let rewards = try session.run { try session.store.rewards(timeZone: session.timeZone) }
        if rewards.recoveryMode {
            return json ? try JSONOutput.encode(RestingJSON(message: l.text("badges.rest"))) : l.text("badges.rest")
        }
        if json { return try JSONOutput.encode(BadgesJSON(rewards, l, days: Self.historyDays)) }
        return text(rewards, l)
    }

    private func text(_ rewards: Rewards, _ l: Localizer) -> String {
        var lines = [l.text("cli.badges.earned")]
        lines +=
            rewards.earned.isEmpty
            ? ["  " + l.text("badges.none")]
            : rewards.earned.map {
                "  🏅 " + l.render($0.badge.nameMessage) + " · " + l.render($0.badge.categoryMessage) + " · "
                    + l.text("badges.earnedOn", ["date": .date($0.earnedOn)])
            }
        lines += ["", l.text("cli.badges.next")]
        lines +=
            rewards.next.isEmpty
            ? ["  " + l.text("badges.allEarned")]
            : rewards.next.map { progress in
                "  " + l.render(progress.badge.nameMessage) + " · " + Self.progressText(progress, l) + "\n    "
                    + l.render(progress.badge.descriptionMessage)
            }
        lines += [
            "", l.text("cli.badges.points", ["total": .integer(rewards.points.total)]), l.text("points.decayRule"), "",
            l.text("cli.badges.history"), historyTable(rewards, l),
        ]
        return lines.joined(separator: "\n")
    }

    /// "12 of 30 days  ████░░░░░░", or the hold's note for platinum weight progress.
    static func progressText(_ progress: BadgeProgress, _ l: Localizer) -> String {
        guard progress.current != nil else { return l.text("badges.progress.hold") }
        let filled = Int((progress.fraction * 10).rounded(.down))
        return l.render(progress.message) + "  " + String(repeating: "█", count: filled) + String(repeating: "░", count: 10 - filled)
    }

    private func historyTable(_ rewards: Rewards, _ l: Localizer) -> String {
        let days = rewards.pointsHistory(days: Self.historyDays)
        guard !days.isEmpty else { return "  " + l.text("points.nothing") }
        var table = TextTable([.left, .left, .right, .right])
        table.append([
            l.text("cli.badges.day"), l.text("cli.badges.earnedColumn"), l.text("cli.badges.decayColumn"),
            l.text("cli.badges.balanceColumn"),
        ])
        for day in days {
            let earned = PointsLedger.Reason.allCases.compactMap { reason in
                day.breakdown[reason].map { l.text("points.earnedItem", ["reason": .message(reason.message), "points": .integer(Int($0))]) }
            }
            table.append([
                l.date(day.date), earned.joined(separator: ", "),
                day.shownDecay > 0 ? "−" + l.number(Double(day.shownDecay), digits: 0) : "", l.number(Double(day.shownBalance), digits: 0),
            ])
        }
        return table.render()
    }
}

/// `wdiet badges --json` in recovery mode: only the calm line.
struct RestingJSON: Encodable {
    let recoveryMode = true
    let message: String

    enum CodingKeys: String, CodingKey {
        case message
        case recoveryMode = "recovery_mode"
    }
}

/// `wdiet badges --json`.
struct BadgesJSON: Encodable {
    struct Earned: Encodable {
        let category: String
        let tier: String
        let name: String
        let earnedOn: LocalDate

        enum CodingKeys: String, CodingKey {
            case category, tier, name
            case earnedOn = "earned_on"
        }
    }

    struct Next: Encodable {
        let category: String
        let tier: String
        let name: String
        let description: String
        /// nil for the goal-weight hold before gold.
        let current: Double?
        let threshold: Double
    }

    struct Day: Encodable {
        let date: LocalDate
        /// Reason → points earned that day.
        let earned: [String: Double]
        let decayed: Double
        /// Whole points after the day, as shown.
        let balance: Int
    }

    struct Points: Encodable {
        let total: Int
        let decayRule: String
        let history: [Day]

        enum CodingKeys: String, CodingKey {
            case total, history
            case decayRule = "decay_rule"
        }
    }

    let recoveryMode = false
    let earned: [Earned]
    let next: [Next]
    let points: Points

    enum CodingKeys: String, CodingKey {
        case earned, next, points
        case recoveryMode = "recovery_mode"
    }

    init(_ rewards: Rewards, _ l: Localizer, days: Int) {
        earned = rewards.earned.map {
            Earned(
                category: $0.badge.category.rawValue,
                tier: $0.badge.tier.rawValue,
                name: l.render($0.badge.nameMessage),
                earnedOn: $0.earnedOn
            )
        }
        next = rewards.next.map {
            Next(
                category: $0.badge.category.rawValue,
                tier: $0.badge.tier.rawValue,
                name: l.render($0.badge.nameMessage),
                description: l.render($0.badge.descriptionMessage),
                current: $0.current.map { ($0 * 10).rounded() / 10 },
                threshold: $0.threshold
            )
        }
        points = Points(
            total: rewards.points.total,
            decayRule: l.text("points.decayRule"),
            history: rewards.pointsHistory(days: days).map { day in
                Day(
                    date: day.date,
                    earned: Dictionary(uniqueKeysWithValues: day.breakdown.map { ($0.key.rawValue, $0.value) }),
                    decayed: (day.decayed * 100).rounded() / 100,
                    balance: Int(day.balance.rounded(.down))
                )
            }
        )
    }
}
