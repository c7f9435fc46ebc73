import DietCore
import Foundation

/// One day of the history: intake against the day's target, the phase and the weight logged.
public struct HistoryDay: Hashable, Sendable, Encodable {
    public let date: LocalDate
    public let intakeKcal: Int?
    public let targetKcal: Int
    /// nil for goals without cycling and before the start date.
    public let phase: Phase?
    public let weightKg: Double?

    enum CodingKeys: String, CodingKey {
        case date, phase
        case intakeKcal = "intake_kcal"
        case targetKcal = "target_kcal"
        case weightKg = "weight_kg"
    }
}

extension AppDatabase {
    /// The `days` local dates ending `last`, oldest first, each with the target that applied
    /// (from the weight known on that day) and its phase.
    public func history(days: Int, through last: LocalDate) throws -> [HistoryDay] {
        guard let settings = try settings() else { throw StoreError.notOnboarded }
        let first = last.adding(days: 1 - days)
        let intake = try dailyIntake(from: first, through: last)
        let weights = try weights(from: first.adding(days: -3650), through: last)
        let cycle = settings.cycleEngine
        return (0..<days).map { offset in
            let date = first.adding(days: offset)
            let known = weights.filter { $0.date <= date }
            let plan = EnergyPlan(
                profile: settings.profile,
                latestWeightKg: known.last?.kg,
                on: date,
                acceptedMaintenanceKcal: settings.acceptedMaintenanceKcal
            )
            let phase = settings.profile.goal == .lose && date >= settings.startDate ? cycle.day(on: date).phase : nil
            return HistoryDay(
                date: date,
                intakeKcal: intake[date],
                targetKcal: plan.targets(phase?.targetKind ?? plan.staticKind).kcal,
                phase: phase,
                weightKg: known.last(where: { $0.date == date })?.kg
            )
        }
    }
}
