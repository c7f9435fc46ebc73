import DietCore
import Foundation
import TestSupport
import Testing

func entry(
    _ kcal: Int,
    _ protein: Double?,
    _ carbs: Double?,
    _ fat: Double?,
    on date: LocalDate = .ymd(2026, 3, 2),
    at hour: Int = 13,
    minute: Int = 0,
    in zone: TimeZone = Zones.berlin
) throws -> MealEntry {
    try MealEntry(
        name: "Meal",
        kcal: kcal,
        proteinG: protein,
        carbsG: carbs,
        fatG: fat,
        at: date.instant(at: .hm(hour, minute), in: zone),
        in: zone
    )
}

@Suite("Daily feedback")
struct FeedbackTests {
    let day = LocalDate.ymd(2026, 3, 2)
    let targets = DailyTargets(kind: .deficit, kcal: 2000, proteinG: 150, carbsG: 175, fatG: 75, floorApplied: false, locked: false)

    @Test("daily totals add only the day's meals, tenths exactly, and count meals without macros")
    func totals() throws {
        let meals = [try entry(300, 10.1, 20.2, 5.1), try entry(200, 0.2, nil, nil), try entry(999, 50, 50, 50, on: day.adding(days: 1))]
        let totals = DailyTotals(date: day, meals: meals)
        #expect(totals.kcal == 500 && totals.mealCount == 2 && totals.mealsWithoutMacros == 1)
        #expect(totals.proteinG == 10.3 && totals.carbsG == 20.2 && totals.fatG == 5.1)
    }

    @Test(
        "smiley thresholds at 49.9, 50, 69.9 and 70 percent",
        arguments: [
            (74.9, Smiley.needsAttention), (75.0, .onTrack), (104.9, .onTrack), (105.0, .good), (300.0, .good), (0.0, .needsAttention),
        ]
    )
    func thresholds(eaten: Double, expected: Smiley) {
        // goal 150 g: 50 % = 75 g, 70 % = 105 g
        #expect(MacroFeedback.smiley(.protein, eatenG: eaten, goalG: 150, anythingLogged: true) == expected)
    }

    @Test(
        "exactly 70 % is good even where floating point says 69.999…",
        arguments: [
            (18.9, 27.0), (34.3, 49.0), (65.1, 93.0), (101.5, 145.0),
        ]
    )
    func exactSeventy(eaten: Double, goal: Double) {
        // In Double, 18.9 × 100 / 27 is 69.99999999999999
        #expect(MacroFeedback.smiley(.protein, eatenG: eaten, goalG: goal, anythingLogged: true) == .good)
        #expect(MacroFeedback.smiley(.protein, eatenG: eaten - 0.1, goalG: goal, anythingLogged: true) == .onTrack)
    }

    @Test("nothing logged today shows every smiley neutral")
    func neutral() {
        let progress = MacroFeedback.progress(DailyTotals(date: day, meals: []), targets: targets)
        #expect(progress.map(\.smiley) == [.neutral, .neutral, .neutral])
        #expect(Smiley.neutral.emoji == "😐")
    }

    @Test("a meal without macros still counts as logged: smileys show attention, not neutral")
    func loggedWithoutMacros() throws {
        let progress = MacroFeedback.progress(DailyTotals(date: day, meals: [try entry(400, nil, nil, nil)]), targets: targets)
        #expect(progress.map(\.smiley) == [.needsAttention, .needsAttention, .needsAttention])
    }

    @Test("a carbohydrate goal floored to 0 g is met")
    func zeroGoal() {
        #expect(MacroFeedback.smiley(.protein, eatenG: 0, goalG: 0, anythingLogged: true) == .good)
    }

    @Test("ring segments in degrees: 150 g protein of 2,000 kcal is 108°")
    func ring() throws {
        // protein 600 kcal → 108°, carbs 100 g = 400 kcal → 72°, fat 40 g = 360 kcal → 64.8°
        let ring = ProgressRing(totals: DailyTotals(date: day, meals: [try entry(1400, 150, 100, 40)]), targetKcal: 2000)
        #expect(ring.segments.map(\.macro) == [.protein, .carbs, .fat])
        #expect(ring.segments[0].startDegrees == 0 && ring.segments[0].endDegrees == 108)
        #expect(ring.segments[1].startDegrees == 108 && ring.segments[1].endDegrees == 180)
        #expect(abs(ring.segments[2].endDegrees - 244.8) < 1e-9)
        #expect(ring.overshootDegrees == 0 && ring.overshootKcal == 0 && !ring.isFull)
    }

    @Test("an overshoot caps the ring at 360° and reports the excess")
    func overshoot() throws {
        // 200 g P = 800, 250 g C = 1,000, 50 g F = 450 → 2,250 kcal of 2,000: 45° and 250 kcal over
        let ring = ProgressRing(totals: DailyTotals(date: day, meals: [try entry(2250, 200, 250, 50)]), targetKcal: 2000)
        #expect(ring.segments[1].endDegrees == 324)
        #expect(ring.segments[2].startDegrees == 324 && ring.segments[2].endDegrees == 360)
        #expect(abs(ring.overshootDegrees - 45) < 1e-9 && abs(ring.overshootKcal - 250) < 1e-9)
        #expect(ring.isFull)
    }

    @Test("calorie progress: remaining, over, and a bar capped at full")
    func calories() {
        let under = CalorieProgress(eatenKcal: 1240, targetKcal: 1900)
        let over = CalorieProgress(eatenKcal: 2100, targetKcal: 1900)
        #expect(under.remainingKcal == 660 && under.overKcal == 0)
        #expect(Localizer(.en).render(under.message) == "1,240 of 1,900 kcal · 660 left")
        #expect(over.remainingKcal == 0 && over.overKcal == 200 && over.fraction == 1)
    }

    @Test("the macro-consistency warning appears beyond 20 %, not at 19 %")
    func consistency() throws {
        // 25 P + 50 C + 20 F = 100 + 200 + 180 = 480 kcal
        let within = try entry(400, 25, 50, 20)  // 480 vs 400: 20 % → fine
        let beyond = try entry(396, 25, 50, 20)  // 480 vs 396: 21.2 % → warning
        let close = try entry(590, 25, 50, 20)  // 480 vs 590: 18.6 % → fine
        #expect(MealNotes.notes(for: within, window: .standard).isEmpty)
        #expect(MealNotes.notes(for: close, window: .standard).isEmpty)
        #expect(MealNotes.notes(for: beyond, window: .standard) == [.macrosInconsistent(macroKcal: 480, statedKcal: 396)])
    }

    @Test("missing macros get a nudge; a meal outside the window gets its warning, never a refusal")
    func notes() throws {
        let breakfast = try entry(350, nil, nil, nil, at: 8)
        let notes = MealNotes.notes(for: breakfast, window: .standard)
        #expect(notes == [.macrosMissing, .outsideEatingWindow(.standard)])
        #expect(Localizer(.en).render(notes[1].message) == "Eating outside your window (12:00–18:00)")
    }

    @Test("a window across midnight: 23:30 is inside, 12:00 outside")
    func midnightWindow() throws {
        let window = try EatingWindow(start: .hm(20), end: .hm(2), moments: [.hm(20), .hm(23), .hm(1)])
        #expect(MealNotes.notes(for: try entry(500, 30, 40, 20, at: 23, minute: 30), window: window).isEmpty)
        #expect(MealNotes.notes(for: try entry(500, 30, 40, 20, at: 12), window: window) == [.outsideEatingWindow(window)])
    }
}
