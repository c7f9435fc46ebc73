/// The segmented calorie ring (docs/rules.md §5): protein, carbs and fat clockwise from 12 o'clock,
/// each `kcal_from_macro / target × 360°`, the total capped at 360° with the overshoot reported.
/// Calories above the target (also from meals logged without macros) make the ring full with
/// an overshoot mark (docs/rules.md §5): the ring never says "room left" when the day's calories are over.
public struct ProgressRing: Hashable, Sendable, Codable {
    public struct Segment: Hashable, Sendable, Codable {
        public let macro: Macro
        /// Degrees clockwise from 12 o'clock.
        public let startDegrees: Double
        public let endDegrees: Double
        public var sweepDegrees: Double { endDegrees - startDegrees }

        enum CodingKeys: String, CodingKey {
            case macro
            case startDegrees = "start_degrees"
            case endDegrees = "end_degrees"
        }
    }

    /// Always three segments, in the order protein, carbs, fat; later ones are empty once
    /// the ring is full.
    public let segments: [Segment]
    /// Degrees beyond the full circle (0 when under).
    public let overshootDegrees: Double
    /// Energy beyond the target, in kcal (0 when under): the calories eaten, or the macros'
    /// energy where that is larger.
    public let overshootKcal: Double

    public init(totals: DailyTotals, targetKcal: Int) {
        let target = Double(max(targetKcal, 1))
        var cursor = 0.0
        var segments: [Segment] = []
        for (macro, kcal) in [(Macro.protein, totals.proteinKcal), (.carbs, totals.carbsKcal), (.fat, totals.fatKcal)] {
            let end = min(360, cursor + kcal / target * 360)
            segments.append(Segment(macro: macro, startDegrees: cursor, endDegrees: end))
            cursor = end
        }
        let macroKcal = totals.proteinKcal + totals.carbsKcal + totals.fatKcal
        let energy = max(macroKcal, Double(totals.kcal))
        self.segments = segments
        overshootKcal = max(0, energy - target)
        overshootDegrees = max(0, energy / target * 360 - 360)
    }

    /// Whether the day's energy is above the target: the ring is drawn full with a mark.
    public var isOver: Bool { overshootKcal > 0 }

    /// Whether the ring is closed: the macros fill it, or the calories are over the target.
    public var isFull: Bool { isOver || (segments.last?.endDegrees ?? 0) >= 360 }

    enum CodingKeys: String, CodingKey {
        case segments
        case overshootDegrees = "overshoot_degrees"
        case overshootKcal = "overshoot_kcal"
    }
}

/// Calories eaten against the day's target.
public struct CalorieProgress: Hashable, Sendable, Codable {
    public let eatenKcal: Int
    public let targetKcal: Int

    public init(eatenKcal: Int, targetKcal: Int) {
        self.eatenKcal = eatenKcal
        self.targetKcal = targetKcal
    }

    public var remainingKcal: Int { max(0, targetKcal - eatenKcal) }
    public var overKcal: Int { max(0, eatenKcal - targetKcal) }
    /// Above the day's target: "N kcal over" stands where "N left" stood (docs/rules.md §5).
    public var isOver: Bool { overKcal > 0 }
    /// 0…1 for a progress bar (capped at full).
    public var fraction: Double { targetKcal > 0 ? min(1, Double(eatenKcal) / Double(targetKcal)) : 0 }

    /// "1,240 of 1,900 kcal · 660 left" — or, over the target, without judgement.
    public var message: Message {
        overKcal > 0
            ? Message("feedback.calories.over", ["eaten": .integer(eatenKcal), "target": .integer(targetKcal), "over": .integer(overKcal)])
            : Message("feedback.calories.left", ["eaten": .integer(eatenKcal), "target": .integer(targetKcal), "left": .integer(remainingKcal)])
    }

    enum CodingKeys: String, CodingKey {
        case eatenKcal = "eaten_kcal"
        case targetKcal = "target_kcal"
    }
}
