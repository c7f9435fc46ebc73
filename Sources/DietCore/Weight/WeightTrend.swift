/// Weight trends (docs/rules.md §4, §5, §8).
public enum WeightTrend {
    /// How many of the latest entries the dashboard average spans.
    public static let rollingCount = 7
    /// The smoothing of the Hacker's Diet trend.
    public static let smoothing = 0.1

    /// The mean of the last 7 entries up to and including `date` (fewer → all of them);
    /// nil without any.
    public static func rollingAverage(_ entries: [WeightEntry], through date: LocalDate) -> Double? {
        let recent = entries.filter { $0.date <= date }.sorted { $0.date < $1.date }.suffix(rollingCount)
        guard !recent.isEmpty else { return nil }
        return recent.reduce(0) { $0 + $1.kg } / Double(recent.count)
    }

    /// The Hacker's Diet trend, `T₀ = W₀, Tₜ = Tₜ₋₁ + 0.1·(Wₜ − Tₜ₋₁)`, over one weight per
    /// day from the first entry to the last; days without an entry take the straight line
    /// between their neighbours.
    public static func smoothed(_ entries: [WeightEntry]) -> [TrendPoint] {
        let daily = interpolated(entries)
        var points: [TrendPoint] = []
        for (date, weight, logged) in daily {
            let trend = points.last.map { $0.trendKg + smoothing * (weight - $0.trendKg) } ?? weight
            points.append(TrendPoint(date: date, weightKg: weight, trendKg: trend, logged: logged))
        }
        return points
    }

    /// One weight per day between the first and last entry, gaps filled linearly.
    static func interpolated(_ entries: [WeightEntry]) -> [(LocalDate, Double, Bool)] {
        let sorted = entries.sorted { $0.date < $1.date }
        guard var previous = sorted.first else { return [] }
        var result = [(previous.date, previous.kg, true)]
        for next in sorted.dropFirst() {
            let gap = previous.date.days(to: next.date)
            for step in 1..<max(gap, 1) {
                let weight = previous.kg + (next.kg - previous.kg) * Double(step) / Double(gap)
                result.append((previous.date.adding(days: step), weight, false))
            }
            result.append((next.date, next.kg, true))
            previous = next
        }
        return result
    }

    /// The weight the picker starts at (docs/rules.md §4): the last entry, else the onboarding weight,
    /// else, where no weight is known at all (the onboarding step itself), the default
    /// by sex (male 90.0, female 70.0, other 80.0).
    public static func pickerDefault(entries: [WeightEntry], onboardingKg: Double? = nil, sex: Sex) -> Double {
        if let last = entries.max(by: { $0.date < $1.date }) { return last.kg }
        if let onboardingKg { return onboardingKg }
        return switch sex {
        case .male: 90.0
        case .female: 70.0
        case .other: 80.0
        }
    }
}

/// One day of the smoothed trend.
public struct TrendPoint: Hashable, Sendable, Codable {
    public let date: LocalDate
    /// The logged weight, or the interpolated one on a day without an entry.
    public let weightKg: Double
    public let trendKg: Double
    /// Whether the weight was logged that day (false: interpolated).
    public let logged: Bool

    enum CodingKeys: String, CodingKey {
        case date, logged
        case weightKg = "weight_kg"
        case trendKg = "trend_kg"
    }
}

/// The dashboard's weight card (docs/rules.md §5): coach, not judge.
public struct WeightCard: Hashable, Sendable, Codable {
    /// The latest weight up to today; nil before the first entry.
    public let currentKg: Double?
    public let averageKg: Double?
    /// Today has no entry yet: show the prompt card.
    public let promptToday: Bool
    /// The green ↓ and how far below the average, only when current < average; never an up
    /// arrow (setbacks are not shown).
    public let downBy: Double?
    /// Where the weight picker starts: the latest weight, else the onboarding weight.
    public let pickerStartKg: Double

    public init(entries: [WeightEntry], today: LocalDate, onboardingKg: Double, sex: Sex) {
        let upToToday = entries.filter { $0.date <= today }
        let current = upToToday.max { $0.date < $1.date }?.kg
        let average = WeightTrend.rollingAverage(upToToday, through: today)
        currentKg = current
        averageKg = average
        promptToday = !upToToday.contains { $0.date == today }
        pickerStartKg = WeightTrend.pickerDefault(entries: upToToday, onboardingKg: onboardingKg, sex: sex)
        if let current, let average, Int((current * 100).rounded()) < Int((average * 100).rounded()) {
            downBy = average - current
        } else {
            downBy = nil
        }
    }

    enum CodingKeys: String, CodingKey {
        case currentKg = "current_kg"
        case averageKg = "average_kg"
        case promptToday = "prompt_today"
        case downBy = "down_by"
        case pickerStartKg = "picker_start_kg"
    }
}
