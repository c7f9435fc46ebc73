import Foundation

/// The message shown once on the first open in a new phase (docs/rules.md §3: "Your
/// calories are increasing to 2,300 today!"), with why MATADOR alternates.
public struct PhaseSwitchNotice: Hashable, Sendable {
    public let from: Phase
    public let to: Phase
    /// The first day of the new phase.
    public let phaseStartDate: LocalDate
    public let kcal: Int
    public let previousKcal: Int
    /// The day the notice is shown: later than `phaseStartDate` when the user was away.
    public let shownOn: LocalDate

    /// The headline: increasing, decreasing, unchanged, or the study programme completed;
    /// "today" on the first day of the phase, "since {date}" on a later first open.
    public var headline: Message {
        let direction =
            switch to {
            case .completed: "completed"
            default: kcal > previousKcal ? "up" : kcal < previousKcal ? "down" : "same"
            }
        let suffix = shownOn > phaseStartDate ? "Since" : ""
        return Message(
            "cycle.switch.\(direction)\(suffix)",
            [
                "kcal": .integer(kcal), "phase": .message(to.nameMessage), "date": .date(phaseStartDate),
            ]
        )
    }

    /// "Why like this?": what the new phase is for.
    public var why: Message {
        Message("cycle.why.\(to.rawValue)")
    }

    /// The notice due on `day`, if its phase started after the last announced one. Nothing is
    /// due in the habit week (onboarding explains it) or when the clock went back into a phase
    /// that was already announced. A paused day (recovery mode) announces nothing: it shows
    /// no numbers, and the pause is no phase of the programme.
    public static func due(
        state: CycleState,
        day: CycleDay,
        plan: EnergyPlan,
        pauses: CyclePauses = .none
    ) -> PhaseSwitchNotice? {
        guard day.phase != .habit, !day.paused else { return nil }
        if let announced = state.announcedPhaseStart, announced >= day.phaseStartDate { return nil }
        let engine = CycleEngine(startDate: state.startDate, preset: state.preset, pauses: pauses)
        let previous = engine.day(on: day.phaseStartDate.adding(days: -1)).phase
        return PhaseSwitchNotice(
            from: previous,
            to: day.phase,
            phaseStartDate: day.phaseStartDate,
            kcal: plan.targets(day.phase.targetKind).kcal,
            previousKcal: plan.targets(previous.targetKind).kcal,
            shownOn: day.date
        )
    }
}

extension Phase {
    /// The localized name of the phase ("Diet phase").
    public var nameMessage: Message { Message("cycle.phase.\(rawValue)") }
}
