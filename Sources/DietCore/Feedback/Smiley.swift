/// Per-macro feedback (docs/rules.md §5): percent of goal ≥ 70 good, 50–69 on track, < 50 needs
/// attention; nothing logged today → neutral (shown as 😐, like on track). Carbs or fat above
/// 120 % of the goal → above (😐 "above your goal"); protein stays good at any amount.
public enum Smiley: String, CaseIterable, Codable, Sendable {
    case good
    case onTrack = "on_track"
    case needsAttention = "needs_attention"
    case neutral
    case above = "above_goal"

    public var emoji: String {
        switch self {
        case .good: "😊"
        case .onTrack, .neutral, .above: "😐"
        case .needsAttention: "😞"
        }
    }
}
