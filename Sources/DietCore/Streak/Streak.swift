/// The logging streak (SPEC §5). A day is active when it has at least one meal or weight
/// entry on its local date.
public struct StreakStatus: Hashable, Sendable, Codable {
    /// Consecutive active days ending today, or ending yesterday while today is still open.
    public let count: Int
    /// The flame is lit only when today is active.
    public let isLit: Bool
    /// The longest run ever, up to today.
    public let longest: Int
    /// A milestone (7, 30, 90, 365 days) reached today.
    public let milestoneToday: Int?

    public static let milestones = [7, 30, 90, 365]

    /// - Parameters:
    ///   - activeDays: every local date with a meal or a weight.
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
        longest = max(count, Self.longestRun(activeDays.filter { $0 <= today }))
        milestoneToday = todayActive && Self.milestones.contains(count) ? count : nil
    }

    static func longestRun(_ days: Set<LocalDate>) -> Int {
        var longest = 0
        for day in days where !days.contains(day.adding(days: -1)) {
            var length = 1
            while days.contains(day.adding(days: length)) { length += 1 }
            longest = max(longest, length)
        }
        return longest
    }

    /// "5-day streak" / "Log something today to keep your 5-day streak" / "Start a streak today".
    public var message: Message {
        if count == 0 { return Message("streak.start") }
        return Message(isLit ? "streak.lit" : "streak.keep", ["days": .integer(count)])
    }

    enum CodingKeys: String, CodingKey {
        case count, longest
        case isLit = "is_lit"
        case milestoneToday = "milestone_today"
    }
}
