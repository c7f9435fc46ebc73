/// Per-macro feedback (SPEC §5): percent of goal ≥ 70 good, 50–69 on track, < 50 needs
/// attention; nothing logged today → neutral (shown as 😐, like on track).
public enum Smiley: String, CaseIterable, Codable, Sendable {
    case good
    case onTrack = "on_track"
    case needsAttention = "needs_attention"
    case neutral

    public var emoji: String {
        switch self {
        case .good: "😊"
        case .onTrack, .neutral: "😐"
        case .needsAttention: "😞"
        }
    }
}
