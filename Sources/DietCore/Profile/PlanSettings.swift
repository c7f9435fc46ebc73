import Foundation

extension Profile {
    /// The profile with `preset` and `deficit` applied (each when given): the study preset
    /// always restricts by 0.33, whatever deficit was typed (docs/rules.md §3).
    public func applying(preset: CyclePreset?, deficit: Double?) -> Profile {
        var profile = self
        if let preset { profile.cyclePreset = preset }
        if let deficit { profile.deficit = deficit }
        if profile.cyclePreset == .study { profile.deficit = Profile.studyDeficit }
        return profile
    }
}

extension LockedGoals {
    /// Locked goals from four typed values (decimal comma or point): nil when all four are
    /// empty (no lock); an error naming the first missing or bad one otherwise. The calories
    /// are checked against the safety `floor`.
    public static func parse(
        kcal: String?,
        protein: String?,
        carbs: String?,
        fat: String?,
        floor: Int
    ) throws(ValidationError) -> LockedGoals? {
        let texts = [kcal, protein, carbs, fat].map { $0?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "" }
        if texts.allSatisfy(\.isEmpty) { return nil }
        let fields: [ValidationError.Field] = [.lockedCalories, .lockedProtein, .lockedCarbs, .lockedFat]
        if let missing = texts.firstIndex(where: \.isEmpty) {
            throw ValidationError(field: fields[missing], allowed: .rule(Message("allowed.lockAll")), received: "")
        }
        let calories = try NumberInput.whole(texts[0], field: .lockedCalories, range: floor...maxKcal, unit: "kcal")
        var grams: [Double] = []
        for index in 1...3 {
            grams.append(try NumberInput.value(texts[index], field: fields[index], range: gramRange, digits: 0, unit: "g"))
        }
        return LockedGoals(kcal: calories, proteinG: grams[0], carbsG: grams[1], fatG: grams[2])
    }
}
