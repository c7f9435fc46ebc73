import DietCore
import Foundation
import TestSupport
import Testing

@Suite("Energy and targets")
struct EnergyTests {
    let today = LocalDate.ymd(2026, 11, 22)

    @Test("Mifflin–St Jeor uses +5 / −161 / −78 for male / female / other")
    func bmr() {
        // 10·72.5 + 6.25·168 − 5·34 = 1,605; female −161 → 1,444
        #expect(Energy.bmr(sex: .female, weightKg: 72.5, heightCm: 168, age: 34) == 1444)
        #expect(Energy.bmr(sex: .male, weightKg: 72.5, heightCm: 168, age: 34) == 1610)
        #expect(Energy.bmr(sex: .other, weightKg: 72.5, heightCm: 168, age: 34) == 1527)
    }

    @Test("the five activity factors", arguments: zip(ActivityLevel.allCases, [1.2, 1.375, 1.55, 1.725, 1.9]))
    func factors(level: ActivityLevel, factor: Double) {
        #expect(level.factor == factor)
        #expect(Energy.tdee(bmr: 1000, activity: level) == 1000 * factor)
    }

    @Test("Alice: TDEE 1,986, diet 1,390, macros 141.2 / 110.9 / 42.4 g")
    func alice() {
        let plan = EnergyPlan(profile: .alice, on: today)
        // BMR 1,444 × 1.375 = 1,985.5 → 1,986; diet 1,986 × 0.7 = 1,390.2 → 1,390
        #expect(plan.maintenanceKcal == 1986)
        let diet = plan.targets(.deficit)
        #expect(diet.kcal == 1390)
        #expect(!diet.floorApplied)
        // reference 25 × 1.68² = 70.56 → 70.6 kg: protein 141.2 g; fat max(1,390 × 25 % ÷ 9 = 38.6,
        // 0.6 × 70.6 = 42.4) = 42.4 g; carbs (1,390 − 564.8 − 381.6) ÷ 4 = 110.9 g
        #expect(diet.proteinG == 141.2)
        #expect(diet.fatG == 42.4)
        #expect(diet.carbsG == 110.9)
    }

    @Test("a half kcal rounds up even when the product is inexact in binary")
    func roundingHalf() {
        // Bob: BMR 1,867.5 × 1.55 = 2,894.625 → 2,895; × 0.7 = 2,026.5 → 2,027
        let plan = EnergyPlan(profile: .bob, on: today)
        #expect(plan.maintenanceKcal == 2895)
        #expect(plan.targets(.deficit).kcal == 2027)
        #expect(plan.targets(.surplus).kcal == 3395)
    }

    @Test("targets below the safety floor are raised to it and say so")
    func floor() {
        // Small: BMR 876.5 × 1.2 = 1,051.8 → 1,052 < 1,200
        let plan = EnergyPlan(profile: .small, on: today)
        let maintenance = plan.targets(.maintenance)
        #expect(maintenance.kcal == 1200)
        #expect(maintenance.floorApplied)
        #expect(plan.targets(.deficit).kcal == 1200)
        let steps = plan.explainTarget(.deficit).steps.map(\.key)
        #expect(steps.contains("explain.target.floor"))
        #expect(SafetyFloor.kcal(for: .male) == 1500)
        #expect(SafetyFloor.kcal(for: .other) == 1200)
    }

    @Test("carbs are never negative")
    func carbsNeverNegative() {
        // 200 kg at 250 cm: reference 156.3 kg, protein 312.6 g (1,250 kcal) exceed 1,200 kcal
        let goals = MacroGoals(kcal: 1200, weightKg: 200, heightCm: 250)
        #expect(goals.carbsG == 0)
    }

    @Test("macro goals follow the latest weight, not the onboarding weight")
    func latestWeight() {
        let plan = EnergyPlan(profile: .alice, latestWeightKg: 70.0, on: today)
        #expect(plan.targets(.maintenance).proteinG == 140)
        #expect(plan.bmr == 1419)
    }

    @Test("locked goals replace the computed ones and ignore weight changes")
    func lockedGoals() throws {
        var profile = Profile.alice
        profile.lockedGoals = [.deficit: LockedGoals(kcal: 1500, proteinG: 130, carbsG: 140, fatG: 50)]
        try profile.validate()
        let before = EnergyPlan(profile: profile, latestWeightKg: 72.5, on: today).targets(.deficit)
        let after = EnergyPlan(profile: profile, latestWeightKg: 68.0, on: today).targets(.deficit)
        #expect(before == after)
        #expect(before.locked && before.kcal == 1500 && before.proteinG == 130)
        #expect(!EnergyPlan(profile: profile, on: today).targets(.maintenance).locked)
    }

    @Test("an accepted adaptive estimate replaces TDEE as maintenance")
    func adaptiveMaintenance() {
        let plan = EnergyPlan(profile: .alice, on: today, acceptedMaintenanceKcal: 2100)
        #expect(plan.targets(.maintenance).kcal == 2100)
        #expect(plan.targets(.deficit).kcal == 1470)
    }

    @Test("maintain eats at maintenance, gain at +500")
    func staticGoals() {
        #expect(EnergyPlan(profile: .kim, on: today).staticKind == .maintenance)
        #expect(EnergyPlan(profile: .kim, on: today).targets(.maintenance).kcal == 2011)
    }

    @Test("every number explains itself in the user's language")
    func explanations() {
        let plan = EnergyPlan(profile: .alice, on: today)
        let en = Localizer(.en)
        #expect(plan.explainBMR().steps.map(en.render).last == "10 × 72.5 + 6.25 × 168 − 5 × 34 + (-161, female) = 1,444 kcal")
        #expect(plan.explainTDEE().steps.map(en.render) == ["BMR 1,444 kcal × 1.375 (light) = 1,986 kcal"])
        #expect(Localizer(.de).render(plan.explainTarget(.deficit).steps[0]) == "Diätphase: Erhaltung 1.986 kcal minus 30 % = 1.390 kcal.")
        #expect(
            plan.explainMacros(.deficit).steps.map(en.render) == [
                "Reference weight: 70.6 kg, the weight of BMI 25 at your height (you weigh 72.5 kg); protein needs follow lean mass, not body fat",
                "Protein: 2.0 g per kg × 70.6 kg = 141 g",
                "Fat: 0.6 g per kg × 70.6 kg = 42 g (more than 25 % of the day's energy)",
                "Carbs: the rest, (1,390 − 4 × 141 − 9 × 42) ÷ 4 = 111 g",
            ]
        )
    }
}
