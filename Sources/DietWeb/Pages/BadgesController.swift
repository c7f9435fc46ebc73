import DietCore
import DietStore
import Foundation
import Hummingbird

/// Badges and points (docs/rules.md §5): earned and next badges with progress, points with their history.
/// In recovery mode only a calm line: no points, streak counts or thresholds (docs/rules.md §8).
struct BadgesController: Controller {
    let app: WebApp

    /// Days of points history shown.
    static let historyDays = 14

    func register(on group: RouterGroup<OnboardedContext>) {
        group.get("/badges", use: screen)
    }

    func screen(_ request: Request, context: OnboardedContext) async throws -> Response {
        let l = localizer(context)
        let rewards = try store.rewards(timeZone: timeZone)
        var values: [String: Any] = ["sectionBadges": true]
        if rewards.recoveryMode {
            values["resting"] = ["text": l.text("badges.rest")]
        } else {
            values["rewards"] = Self.values(rewards, l)
        }
        return renderer.page("badges", values, title: l.text("web.badges.title"), tab: .progress, context: context)
    }

    /// The page's data outside recovery mode.
    static func values(_ rewards: Rewards, _ l: Localizer) -> [String: Any] {
        let earned: [[String: Any]] = rewards.earned.map { item in
            [
                "key": "\(item.badge.category.rawValue)-\(item.badge.tier.rawValue)", "tier": item.badge.tier.rawValue,
                "name": l.render(item.badge.nameMessage),
                "category": l.render(item.badge.categoryMessage), "date": l.text("badges.earnedOn", ["date": .date(item.earnedOn)]),
            ]
        }
        let next: [[String: Any]] = rewards.next.map { progress in
            var item: [String: Any] = [
                "key": "\(progress.badge.category.rawValue)-\(progress.badge.tier.rawValue)",
                "tier": progress.badge.tier.rawValue, "name": l.render(progress.badge.nameMessage),
                "category": l.render(progress.badge.categoryMessage),
                "description": l.render(progress.badge.descriptionMessage),
            ]
            if let current = progress.current {
                item["bar"] = ["value": min(current, progress.threshold), "max": progress.threshold, "text": l.render(progress.message)]
            } else {
                item["note"] = l.text("badges.progress.hold")
            }
            return item
        }
        return [
            "earned": earned, "hasEarned": !earned.isEmpty, "none": l.text("badges.none"),
            "next": next, "hasNext": !next.isEmpty, "allEarned": l.text("badges.allEarned"),
            "total": l.render(rewards.points.totalMessage), "decayRule": l.text("points.decayRule"),
            "history": history(rewards, l), "hasHistory": !rewards.points.days.isEmpty, "noPoints": l.text("points.nothing"),
        ]
    }

    /// The last 14 days of the ledger, newest first.
    static func history(_ rewards: Rewards, _ l: Localizer) -> [[String: Any]] {
        rewards.pointsHistory(days: historyDays).reversed().map { day in
            let earned = PointsLedger.Reason.allCases.compactMap { reason in
                day.breakdown[reason].map { l.text("points.earnedItem", ["reason": .message(reason.message), "points": .integer(Int($0))]) }
            }
            return [
                "date": l.date(day.date), "iso": day.date.iso, "earnedItems": earned,
                "decay": day.shownDecay > 0 ? l.text("points.decayed", ["points": .integer(day.shownDecay)]) : "",
                "balance": l.number(Double(day.shownBalance), digits: 0),
            ]
        }
    }
}
