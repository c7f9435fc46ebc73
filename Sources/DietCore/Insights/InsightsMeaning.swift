import Foundation

/// The one sentence under the weekly summary: what the weeks mean, coach not judge. Setbacks
/// are never named; the sentence says what helps next.
public enum InsightsMeaning {
    /// The trend pace (kg per week) that counts as moving.
    public static let pace = 0.1

    /// In order: nothing logged yet → how to begin; fewer than half of the days since logging
    /// began were logged → log more to sharpen the picture; the trend moves the way the goal
    /// wants → say by how much (days recovery mode was on count for neither); at least 70 % of logged days adherent → on track; else a
    /// gentle next step.
    static func message(days: [InsightsDay], total: Tally, weight: WeightSummary, goal: Goal, startDate: LocalDate) -> Message {
        guard let firstLogged = days.first(where: { $0.intakeKcal != nil && !$0.rested })?.date else {
            return Message("insights.meaning.start")
        }
        // the days of the programme, and logged days before its start
        let counted = days.filter { ($0.counted || $0.date >= firstLogged) && !$0.rested }.count
        if total.loggedDays * 2 < counted {
            return Message("insights.meaning.logMore", ["logged": .integer(total.loggedDays), "days": .integer(counted)])
        }
        if let rate = weight.trendKgPerWeek {
            let moving = goal == .lose && rate <= -pace || goal == .gain && rate >= pace
            if moving {
                return Message(
                    rate < 0 ? "insights.meaning.trendDown" : "insights.meaning.trendUp",
                    ["kg": .decimal(abs(rate), digits: 1)]
                )
            }
        }
        let arguments: [String: Message.Argument] = ["adherent": .integer(total.adherentDays), "count": .integer(total.loggedDays)]
        if total.adherentDays * 10 >= total.loggedDays * 7 {
            return Message("insights.meaning.onTrack", arguments)
        }
        return Message("insights.meaning.keepGoing", arguments)
    }

    /// "1 day" / "5 days".
    public static func days(_ count: Int) -> Message {
        Message("insights.days", ["count": .integer(count)])
    }

    /// The calm line of recovery mode: regularity, no numbers.
    public static let recovery = Message("insights.recovery.calm")
}
