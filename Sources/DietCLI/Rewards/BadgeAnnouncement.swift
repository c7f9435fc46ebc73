import DietCore
import DietStore

/// The badge lines after a meal or weight is saved (docs/rules.md §5): the triple roar and
/// "New badge: …" per badge earned.
enum BadgeAnnouncement {
    /// Stores the badges the history has earned and returns the ones to announce (none in
    /// recovery mode). The save already succeeded: a failure here neither undoes it nor fails
    /// the command; the next save claims the badge again (claiming reads the whole history).
    static func claim(_ session: Session) -> [Badge] {
        (try? session.store.claimNewBadges(timeZone: session.timeZone)) ?? []
    }

    /// The triple roar (unless the save's own roar line already said it) and one line per badge.
    static func lines(_ badges: [Badge], _ l: Localizer, roared: Bool) -> [String] {
        guard !badges.isEmpty else { return [] }
        return (roared ? [] : [l.text("cli.roar.\(Roar.triple.rawValue)")]) + badges.map { l.render($0.unlockedMessage) }
    }

    /// Claims the badges a save earned and returns their lines, the triple roar first: for the
    /// saves whose own output has no roar line.
    static func claimedLines(_ session: Session) -> [String] {
        lines(claim(session), session.localizer, roared: false)
    }
}
