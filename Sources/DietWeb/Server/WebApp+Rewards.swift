import DietCore
import DietStore
import Foundation
import Hummingbird

/// Badges earned by a save, announced on the page the save returns to (docs/rules.md §5: the triple
/// roar when a badge is earned).
extension WebApp {
    /// Stores the badges the history has earned and returns the ones to announce (none in
    /// recovery mode). The save itself already succeeded: when claiming fails, the save is not
    /// undone and no error is shown; the badge is found and announced by the next save, since
    /// claiming evaluates the whole history again.
    func claimNewBadges() -> [Badge] {
        (try? store.claimNewBadges(timeZone: timeZone)) ?? []
    }

    /// After saving a weight: the dashboard with "Weight logged!" (or the flame lit), or, when
    /// the weight earned a badge, "New badge: …" with the triple roar.
    func weightSaved(streakWasLit: Bool, goalReached: Bool = false) -> Response {
        // reaching the goal weight is the milestone of all (docs/rules.md §2, §5): the triple roar and
        // its own words; a badge earned with it is announced on the next save
        if goalReached { return redirect("/", toast: .goalReached, roar: .triple) }
        return redirectAnnouncingBadges("/", toast: streakWasLit ? .weightSaved : .streakLit)
    }

    /// See other to `path` with `toast`, or, when the write before it earned badges, with the
    /// badge toast and the triple roar instead.
    func redirectAnnouncingBadges(_ path: String, toast: Toast, undo: UUID? = nil) -> Response {
        let badges = claimNewBadges()
        guard badges.isEmpty else { return badgeRedirect(path, badges: badges) }
        return redirect(path, toast: toast, undo: undo)
    }

    /// See other to `path` with the badge toast and the triple roar. The flash cookie is the
    /// usual `toast.roar` with the badges appended as a third part,
    /// `badge_earned.3.milestone-bronze+streak-bronze`, which older readers of the cookie ignore.
    func badgeRedirect(_ path: String, badges: [Badge]) -> Response {
        var response = Response(status: .seeOther, headers: [.location: path])
        let value = "\(Toast.badgeEarned.rawValue).\(Roar.triple.rawValue).\(Self.badgeFlash(badges))"
        response.setCookie(Cookie(name: SessionMiddleware.flashCookie, value: value, path: "/", httpOnly: true, sameSite: .strict))
        return response
    }

    /// `milestone-bronze+streak-bronze`: cookie-safe (no comma, semicolon or space).
    static func badgeFlash(_ badges: [Badge]) -> String {
        badges.map { "\($0.category.rawValue)-\($0.tier.rawValue)" }.joined(separator: "+")
    }

    /// The badges named in a flash cookie's third part; unknown names are skipped.
    static func badges(fromFlash part: Substring) -> [Badge] {
        part.split(separator: "+").compactMap { name in
            let halves = name.split(separator: "-", maxSplits: 1)
            guard halves.count == 2, let category = Badge.Category(rawValue: String(halves[0])),
                let tier = Badge.Tier(rawValue: String(halves[1]))
            else { return nil }
            return Badge(category, tier)
        }
    }

    /// The toast's words for a badge flash: "New badge: Bronze: 50 meals logged" (one line per
    /// badge, joined), or nil when the flash names none. For `Renderer.toast`, which today shows
    /// `web.toast.badge_earned` for every badge.
    static func badgeToastText(flash: String, _ l: Localizer) -> String? {
        let parts = (flash.split(separator: "~", maxSplits: 1).first ?? "").split(separator: ".")
        guard parts.first == Substring(Toast.badgeEarned.rawValue), parts.count >= 3 else { return nil }
        let badges = badges(fromFlash: parts[2])
        guard !badges.isEmpty else { return nil }
        return badges.map { l.render($0.unlockedMessage) }.joined(separator: " ")
    }
}
