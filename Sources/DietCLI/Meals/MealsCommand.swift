import ArgumentParser
import DietCore
import DietStore
import FoodKit
import Foundation

/// `wdiet meals [--date]`: a day's meals with running totals; in recovery mode the meals and
/// mindful meals by eating moment, without amounts (`RecoveryMeals`).
struct MealsCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "meals", abstract: "List a day's meals with running totals.")

    @Option(help: "The day, YYYY-MM-DD (default: today).") var date: LocalDate?
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let window = try session.requireSettings().profile.eatingWindow
        let day = date ?? session.today
        let meals = try session.run { try session.store.meals(on: day) }
        if session.recoveryMode {
            let mindful = try session.run { try session.store.mindfulMeals(on: day) }
            return try RecoveryMeals.render(day: day, meals: meals, mindful: mindful, window: window, json: json, session.localizer)
        }
        if json { return try JSONOutput.encode(meals.map(MealJSON.init)) }
        let l = session.localizer
        // meals noted mindfully while recovery mode was on stay in the day, without numbers
        let mindful = try session.run { try session.store.mindfulMeals(on: day) }.map { meal in
            "  " + meal.entry.localTime.formatted + "  " + meal.entry.name + " · " + l.text("meal.mindfulNoted")
        }
        guard !meals.isEmpty else {
            return mindful.isEmpty ? l.text("cli.meals.none", ["date": .date(day)]) : ([l.date(day)] + mindful).joined(separator: "\n")
        }
        var table = TextTable([.left, .left, .left, .right, .right, .right, .right, .right])
        table.append([
            l.text("cli.meals.id"), l.text("cli.meals.time"), l.text("cli.meals.name"), "kcal", "P", "C", "F",
            l.text("cli.meals.running"),
        ])
        // grouped by eating moment (the day's meal slots), in the order eaten within each
        var running = 0
        let byMoment = Dictionary(grouping: meals) { window.moment(of: $0.entry) }
        for moment in window.eatingMoments {
            guard let group = byMoment[moment.number] else { continue }
            table.append(["", "", l.render(moment.label), "", "", "", "", ""])
            for meal in group {
                running += meal.entry.kcal
                let grams = [meal.entry.proteinG, meal.entry.carbsG, meal.entry.fatG].map { $0.map { l.number($0, digits: 0) } ?? "–" }
                table.append(
                    [
                        ShortID.make(meal.id), meal.entry.localTime.formatted, meal.entry.name,
                        l.number(Double(meal.entry.kcal), digits: 0),
                    ] + grams + [l.number(Double(running), digits: 0)]
                )
            }
        }
        let totals = DailyTotals(date: day, meals: meals.map(\.entry))
        let total = l.text(
            "cli.meals.total",
            [
                "kcal": .integer(totals.kcal), "protein": .decimal(totals.proteinG, digits: 0),
                "carbs": .decimal(totals.carbsG, digits: 0), "fat": .decimal(totals.fatG, digits: 0),
            ]
        )
        return ([l.date(day), table.render()] + mindful + [total]).joined(separator: "\n")
    }
}

/// Finds a meal (or with `deleted` a deleted one) by a typed id prefix, with clear errors.
func resolveMeal(_ id: String, in session: Session, deleted: Bool = false) throws -> Meal {
    let matches = try session.run { try session.store.meals(idPrefix: id, deleted: deleted) }
    guard let meal = matches.first else { throw CLIError(session.localizer.text("cli.error.mealID", ["id": .text(id)])) }
    guard matches.count == 1 else { throw CLIError(session.localizer.text("cli.error.mealIDAmbiguous", ["id": .text(id)])) }
    return meal
}

/// `wdiet edit meal ID …`.
struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a logged meal.",
        subcommands: [EditMealCommand.self]
    )
}

struct EditMealCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "meal",
        abstract: "Change a meal's name, amount, calories, macros or time."
    )

    @Argument(help: "The meal's id (the first characters are enough).") var id: String
    @Option(help: "A new name.") var name: String?
    @Option(help: "For a meal logged from a food: the amount now (calories and macros follow).") var amount: TypedNumber?
    @Option(help: "With --amount: g (default) or one of the food's portions, e.g. Scheibe (see `wdiet food show`).") var unit: String?
    @OptionGroup var meal: MealOptions
    @OptionGroup var mindful: MindfulOptions
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        _ = try session.requireSettings()
        if let noticed = try RecoveryMeals.mindful(id, in: session) {
            return try RecoveryMeals.edit(noticed, name: name, mindful: mindful, session)
        }
        let existing = try resolveMeal(id, in: session).entry
        let zone = TimeZone(identifier: existing.timeZoneIdentifier) ?? session.timeZone
        let instant =
            meal.at == nil && meal.date == nil
            ? existing.instant : try meal.instant(now: existing.instant, timeZone: zone, localizer: session.localizer)
        if amount != nil || unit != nil {
            return try editAmount(existing, instant: instant, zone: zone, session)
        }
        let updated = try session.run {
            let values = try meal.values()
            return try MealEntry(
                name: name ?? existing.name,
                kcal: values.kcal ?? existing.kcal,
                proteinG: values.protein ?? existing.proteinG,
                carbsG: values.carbs ?? existing.carbsG,
                fatG: values.fat ?? existing.fatG,
                fiberG: values.fiber ?? existing.fiberG,
                at: instant,
                in: zone,
                moment: meal.moment ?? existing.moment
            )
        }
        let saved = try session.run { try session.store.editMeal(try resolveMeal(id, in: session).id, to: updated) }
        if session.recoveryMode { return session.localizer.text("cli.recovery.editSaved", ["name": .text(saved.entry.name)]) }
        return session.localizer.text("cli.edit.saved", ["name": .text(saved.entry.name), "kcal": .integer(saved.entry.kcal)])
    }

    /// `--amount 80 --unit g`: the meal holds that amount of its food now, its calories and
    /// macros computed from the food as when it was logged (never typed alongside).
    private func editAmount(_ existing: MealEntry, instant: Date, zone: TimeZone, _ session: Session) throws -> String {
        let l = session.localizer
        guard meal.kcal == nil, meal.protein == nil, meal.carbs == nil, meal.fat == nil, meal.fiber == nil else {
            throw CLIError(l.text("cli.error.amountOrValues"))
        }
        let id = try resolveMeal(self.id, in: session).id
        guard let (food, _) = try session.run({ try session.store.mealFood(id, language: session.language) }) else {
            throw CLIError(l.text("cli.error.amountWithoutFood"))
        }
        guard let unit = food.unit(named: unit ?? "g"), let perUnit = food.gramsPerUnit(of: unit) else {
            throw CLIError(
                l.text(
                    "cli.error.portion",
                    [
                        "portion": .text(self.unit ?? ""),
                        "portions": .text((["g"] + food.offeredPortions().map(\.portion.name)).joined(separator: ", ")),
                    ]
                )
            )
        }
        let typed = try session.run {
            try (amount ?? TypedNumber(1)).number(.amount, hint: Food.gramRange, digits: 1, unit: unit == .grams ? "g" : nil)
        }
        let grams = try session.run { try Food.checkedGrams(typed * perUnit) }
        let entry = try session.run {
            try food.per100g.scaled(toGrams: grams).mealEntry(
                named: name ?? existing.name,
                at: instant,
                in: zone,
                moment: meal.moment ?? existing.moment
            )
        }
        let saved = try session.run { try session.store.editMeal(id, to: entry, grams: grams) }
        if session.recoveryMode { return l.text("cli.recovery.editSaved", ["name": .text(saved.entry.name)]) }
        return l.text(
            "cli.edit.savedAmount",
            ["name": .text(saved.entry.name), "amount": .text(food.amountLabel(grams: grams, l)), "kcal": .integer(saved.entry.kcal)]
        )
    }
}

/// `wdiet delete meal ID`.
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a logged meal or weight.",
        subcommands: [DeleteMealCommand.self]
    )
}

struct DeleteMealCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "meal", abstract: "Delete a meal.")

    @Argument(help: "The meal's id (the first characters are enough).") var id: String
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        _ = try session.requireSettings()
        if let mindful = try RecoveryMeals.mindful(id, in: session) {
            try session.run { try session.store.deleteMindfulMeal(mindful.id) }
            return session.localizer.text("cli.delete.done", ["name": .text(mindful.entry.name), "date": .date(mindful.entry.localDate)])
                + "\n" + session.localizer.text("cli.delete.undo", ["id": .text(ShortID.make(mindful.id))])
        }
        let meal = try resolveMeal(id, in: session)
        try session.run { try session.store.deleteMeal(meal.id, timeZone: session.timeZone) }
        return session.localizer.text("cli.delete.done", ["name": .text(meal.entry.name), "date": .date(meal.entry.localDate)]) + "\n"
            + session.localizer.text("cli.delete.undo", ["id": .text(ShortID.make(meal.id))])
    }
}

/// `wdiet restore meal ID`: the undo of `delete meal`.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Bring back a deleted meal (undo a delete).",
        subcommands: [RestoreMealCommand.self]
    )
}

struct RestoreMealCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "meal", abstract: "Restore a deleted meal.")

    @Argument(help: "The deleted meal's id, as `delete meal` printed it.") var id: String
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        _ = try session.requireSettings()
        if let mindful = try RecoveryMeals.mindful(id, in: session, deleted: true) {
            let restored = try session.run { try session.store.restoreMindfulMeal(mindful.id) }
            return session.localizer.text("cli.restore.done", ["name": .text(restored.entry.name), "date": .date(restored.entry.localDate)])
        }
        let meal = try resolveMeal(id, in: session, deleted: true)
        let restored = try session.run { try session.store.restoreMeal(meal.id, timeZone: session.timeZone) }
        return session.localizer.text("cli.restore.done", ["name": .text(restored.entry.name), "date": .date(restored.entry.localDate)])
    }
}
