import DietCore
import Foundation
import Testing

@Suite("Feedback above the goal (docs/rules.md §5, revised)")
struct OverStateTests {
    let day = LocalDate(year: 2026, month: 3, day: 2)!

    func meal(_ kcal: Int, protein: Double? = nil, carbs: Double? = nil, fat: Double? = nil) throws -> MealEntry {
        try MealEntry(
            name: "Meal",
            kcal: kcal,
            proteinG: protein,
            carbsG: carbs,
            fatG: fat,
            at: day.instant(at: TimeOfDay(hour: 13)!, in: .gmt),
            in: .gmt
        )
    }

    @Test("271 % of the carb goal is not 😊 Super: it is 😐 above the goal, with the grams over")
    func carbsFarAbove() {
        // Given 271 % of a 100 g carb goal (the finding)
        let smiley = MacroFeedback.smiley(.carbs, eatenG: 271, goalG: 100, anythingLogged: true)
        #expect(smiley == .above)
        #expect(smiley.emoji == "😐")
        let progress = MacroProgress(macro: .carbs, eatenG: 271, goalG: 100, smiley: smiley)
        #expect(Localizer(.en).render(progress.statusMessage) == "171 g above your goal")
        #expect(Localizer(.de).render(progress.statusMessage) == "171 g über deinem Ziel")
    }

    @Test(
        "up to 120 % is still good; above it carbs and fat turn, protein never does",
        arguments: [
            (Macro.carbs, 120.0, Smiley.good), (.carbs, 120.1, .above), (.fat, 121, .above), (.protein, 300, .good),
        ]
    )
    func boundary(macro: Macro, eaten: Double, expected: Smiley) {
        #expect(MacroFeedback.smiley(macro, eatenG: eaten, goalG: 100, anythingLogged: true) == expected)
    }

    @Test("1,390 of 1,373 kcal reads '17 kcal over' and closes the ring with an overshoot mark")
    func caloriesOver() throws {
        // Given a day whose calories pass the target although the macros alone do not
        let totals = DailyTotals(date: day, meals: [try meal(1390)])
        let ring = ProgressRing(totals: totals, targetKcal: 1373)
        let calories = CalorieProgress(eatenKcal: 1390, targetKcal: 1373)
        // Then every part of the feedback says "over", without judgement
        #expect(ring.isOver && ring.isFull)
        #expect(ring.overshootKcal == 17)
        #expect(calories.isOver)
        #expect(Localizer(.en).render(calories.message) == "1,390 of 1,373 kcal · 17 kcal over")
        #expect(Localizer(.de).render(calories.message) == "1.390 von 1.373 kcal · 17 kcal drüber")
    }

    @Test("under the target nothing is over")
    func under() throws {
        let totals = DailyTotals(date: day, meals: [try meal(500, protein: 30, carbs: 50, fat: 15)])
        let ring = ProgressRing(totals: totals, targetKcal: 1373)
        #expect(!ring.isOver && !ring.isFull && ring.overshootKcal == 0)
    }
}
