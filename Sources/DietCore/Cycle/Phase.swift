/// A phase of the MATADOR programme (docs/rules.md §3).
public enum Phase: String, CaseIterable, Codable, Sendable {
    /// Days 1–7: learn to log, eat at maintenance.
    case habit
    /// A 14-day diet (energy restriction) block.
    case diet
    /// A 14-day maintenance (energy balance) block.
    case maintenance
    /// The study preset has ended; the user eats at maintenance from now on.
    case completed

    /// The calorie target this phase eats at.
    public var targetKind: TargetKind {
        switch self {
        case .diet: .deficit
        case .habit, .maintenance, .completed: .maintenance
        }
    }
}
