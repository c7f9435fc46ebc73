/// The logging streak (docs/rules.md §5). A day is active when it has at least one meal or weight
/// entry on its local date.
public struct StreakStatus: Hashable, Sendable, Codable {
    /// Consecutive active days ending today, or ending yesterday while today is still open.
    public let count: Int
    /// The flame is lit only when today is active.
    public let isLit: Bool
    /// Today starts a new run after a break (there was activity before, but not yesterday).
    public let isFreshStart: Bool
    /// A milestone (7, 30, 90, 365 days) reached today.
    public let milestoneToday: Int?

    public static let milestones = [7, 30, 90, 365]

    /// - Parameters:
    ///   - activeDays: the local dates with a meal or a weight: at least the current run and
    ///     the latest active day before it.
    ///   - today: today's local date.
    public init(activeDays: Set<LocalDate>, today: LocalDate) {
        let todayActive = activeDays.contains(today)
        var count = 0
        var cursor = todayActive ? today : today.adding(days: -1)
        while activeDays.contains(cursor) {
            count += 1
            cursor = cursor.adding(days: -1)
        }
        self.count = count
        isLit = todayActive
        isFreshStart = todayActive && count == 1 && activeDays.contains { $0 < today.adding(days: -1) }
        milestoneToday = todayActive && Self.milestones.contains(count) ? count : nil
    }

    /// The longest run of consecutive active days on or before `date` (future days ignored).
    public static func longest(activeDays: Set<LocalDate>, through date: LocalDate) -> Int {
        let days = activeDays.filter { $0 <= date }.map(\.dayNumber).sorted()
        var best = 0
        var run = 0
        var previous: Int?
        for day in days {
            run = previous.map { $0 + 1 == day } == true ? run + 1 : 1
            best = max(best, run)
            previous = day
        }
        return best
    }

    /// The celebration line for a milestone reached today ("7 days in a row!"), if any.
    public var milestoneMessage: Message? {
        milestoneToday.map { Message("streak.milestone", ["days": .integer($0)]) }
    }

    /// The welcome-back line after a break, when today is a fresh start.
    public var freshStartMessage: Message? {
        isFreshStart ? Message("streak.fresh_start") : nil
    }

    /// "5-day streak" / "Log something today to keep your 5-day streak" / "Start a streak today".
    public var message: Message {
        if count == 0 { return Message("streak.start") }
        return Message(isLit ? "streak.lit" : "streak.keep", ["count": .integer(count)])
    }

    enum CodingKeys: String, CodingKey {
        case count
        case isFreshStart = "is_fresh_start"
        case isLit = "is_lit"
        case milestoneToday = "milestone_today"
    }
}
