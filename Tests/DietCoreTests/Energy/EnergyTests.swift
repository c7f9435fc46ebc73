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

    @Test("Alice: TDEE 1,986, diet 1,390, macros 145 / 39.4 / 72.5 g")
    func alice() {
        let plan = EnergyPlan(profile: .alice, on: today)
        // BMR 1,444 × 1.375 = 1,985.5 → 1,986; diet 1,986 × 0.7 = 1,390.2 → 1,390
        #expect(plan.maintenanceKcal == 1986)
        let diet = plan.targets(.deficit)
        #expect(diet.kcal == 1390)
        #expect(!diet.floorApplied)
        // protein 2 × 72.5 = 145 g, fat 72.5 g, carbs (1,390 − 580 − 652.5) / 4 = 39.375 → 39.4
        #expect(diet.proteinG == 145)
        #expect(diet.fatG == 72.5)
        #expect(diet.carbsG == 39.4)
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
        // 200 kg: protein 400 g (1,600 kcal) + fat 200 g (1,800 kcal) exceed a 2,000 kcal target
        let goals = MacroGoals(kcal: 2000, weightKg: 200)
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
        #expect(plan.explainMacros(.deficit).steps.map(en.render)[2] == "Carbs: the rest, (1,390 − 4 × 145 − 9 × 73) ÷ 4 = 39 g")
    }
}
