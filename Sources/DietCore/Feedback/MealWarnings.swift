/// Gentle notes on a meal as it is logged (docs/rules.md §4): never a refusal.
public enum MealNote: Hashable, Sendable {
    /// Macros missing: a nudge to add them next time.
    case macrosMissing
    /// 4P + 4C + 9F differs from the stated calories by more than 20 %.
    case macrosInconsistent(macroKcal: Int, statedKcal: Int)
    /// Logged outside the eating window.
    case outsideEatingWindow(EatingWindow)

    public var message: Message {
        switch self {
        case .macrosMissing:
            Message("feedback.note.macrosMissing")
        case let .macrosInconsistent(macroKcal, statedKcal):
            Message("feedback.note.macrosInconsistent", ["macroKcal": .integer(macroKcal), "kcal": .integer(statedKcal)])
        case let .outsideEatingWindow(window):
            Message("feedback.note.outsideWindow", ["start": .time(window.start), "end": .time(window.end)])
        }
    }
}

public enum MealNotes {
    /// Share of the stated calories the macro energy may differ by before a warning.
    public static let consistencyTolerance = 0.20

    /// The notes for `meal` under `window`, in the order they are shown.
    ///
    /// Consistency is measured relative to the stated calories: |4P + 4C + 9F − kcal| / kcal.
    /// With only some macros given it is not checked (the missing ones are unknown, not 0).
    public static func notes(for meal: MealEntry, window: EatingWindow) -> [MealNote] {
        var notes: [MealNote] = []
        if let protein = meal.proteinG, let carbs = meal.carbsG, let fat = meal.fatG {
            let macroKcal = Energy.kcal(proteinG: protein, carbsG: carbs, fatG: fat)
            if abs(macroKcal - Double(meal.kcal)) > consistencyTolerance * Double(meal.kcal) {
                notes.append(.macrosInconsistent(macroKcal: Energy.wholeKcal(macroKcal), statedKcal: meal.kcal))
            }
        } else {
            notes.append(.macrosMissing)
        }
        if !window.contains(meal.localTime) {
            notes.append(.outsideEatingWindow(window))
        }
        return notes
    }
}
