import DietCore
import Testing

@Suite("Macro goals (docs/rules.md §2, revised)")
struct MacroGoalsTests {
    @Test("the example of docs/rules.md §2: a woman of 168 cm and 80 kg on a 1,371 kcal diet day keeps about 106 g of carbs")
    func specExample() {
        // Given the example of docs/rules.md §2
        let goals = MacroGoals(kcal: 1371, weightKg: 80, heightCm: 168)
        // Then protein follows the reference weight of BMI 25 (70.6 kg), fat its 0.6 g/kg floor
        #expect(goals.referenceKg == 70.6)
        #expect(goals.proteinG == 141.2)
        #expect(goals.fatG == 42.4)
        #expect(Int(goals.carbsG) == 106)
        // and the energy adds up to the target
        #expect(abs(4 * goals.proteinG + 4 * goals.carbsG + 9 * goals.fatG - 1371) < 1)
    }

    @Test("diet-day goals leave real carbohydrate: the former 2.0/1.0 g per kg rule left about 40 g")
    func dietDayCarbs() {
        // Given a woman of 165 cm and 72.5 kg on a 1,390 kcal diet day (the finding)
        let goals = MacroGoals(kcal: 1390, weightKg: 72.5, heightCm: 165)
        // Then carbohydrate is well above the former rule's 39.4 g ((1,390 − 4·145 − 9·72.5) ÷ 4)
        #expect(goals.referenceKg == 68.1)
        #expect(goals.carbsG > 100)
    }

    @Test("fat is 25 % of the energy when that is more than 0.6 g per reference kg")
    func fatByEnergy() {
        // Given 2,600 kcal for a 60 kg person of 170 cm: 25 % is 72.2 g, 0.6 g/kg only 36 g
        let goals = MacroGoals(kcal: 2600, weightKg: 60, heightCm: 170)
        #expect(goals.referenceKg == 60)
        #expect(goals.proteinG == 120)
        #expect(goals.fatG == 72.2)
        #expect(goals.fatFromEnergy(kcal: 2600))
    }

    @Test("the reference weight is the weight itself below BMI 25")
    func referenceBelowBMI25() {
        #expect(MacroGoals.referenceKg(weightKg: 55, heightCm: 168) == 55)
        #expect(MacroGoals.referenceKg(weightKg: 120, heightCm: 190) == 90.3)
    }

    @Test("the explanation names the reference weight and each step in the user's language")
    func explanation() {
        let profile = Profile.alice
        var heavy = profile
        heavy.heightCm = 150
        let plan = EnergyPlan(profile: heavy, latestWeightKg: 80, on: LocalDate(year: 2026, month: 3, day: 2)!)
        let steps = plan.explainMacros(.maintenance).steps.map { Localizer(.de).render($0) }
        #expect(steps.first?.hasPrefix("Bezugsgewicht: 56,3 kg") == true, "\(steps)")
        #expect(steps.contains { $0.hasPrefix("Eiweiß: 2,0 g pro kg × 56,3 kg") })
    }
}
