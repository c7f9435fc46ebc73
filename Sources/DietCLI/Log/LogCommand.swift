import ArgumentParser
import DietCore
import DietStore
import FoodKit
import Foundation

/// `wdiet log meal|weight`.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Log a meal, a meal in words, or your weight.",
        subcommands: [LogMealCommand.self, LogTextCommand.self, LogWeightCommand.self, LogAgainCommand.self, CopyDayCommand.self],
        // `wdiet log "Pasta with friends" --hunger 4 --fullness 3` (recovery mode) is `log meal`.
        defaultSubcommand: LogMealCommand.self
    )
}

/// The checked numbers of `MealOptions`.
struct MealValues {
    var kcal: Int?
    var protein: Double?
    var carbs: Double?
    var fat: Double?
    var fiber: Double?
}

/// Meal values shared by `log meal` and `edit meal`.
struct MealOptions: ParsableArguments {
    @Option(help: "Calories, 1–9999 (\"450,5\" or \"450.5\" is rounded).") var kcal: TypedNumber?
    @Option(help: "Protein in g, 0–999 (decimal comma or point).") var protein: TypedNumber?
    @Option(help: "Carbohydrate in g, 0–999.") var carbs: TypedNumber?
    @Option(help: "Fat in g, 0–999.") var fat: TypedNumber?
    @Option(help: "Fibre in g, 0–999.") var fiber: TypedNumber?
    @Option(help: "When you ate: HH:MM today, or YYYY-MM-DD HH:MM (default: now).") var at: String?
    @Option(help: "The day you ate, YYYY-MM-DD (with --at as the time, else the current time).") var date: LocalDate?
    @Option(help: "The eating moment, 1–5 (default: the current or next one of your day).") var moment: Int?

    /// The eating moment a meal at `instant` goes to: the one given (1 to the day's count),
    /// else the current or next one.
    func checkedMoment(_ window: EatingWindow, at instant: Date, in timeZone: TimeZone) throws(DietCore.ValidationError) -> Int {
        try window.chosenMoment(moment.map(String.init)) ?? window.moment(at: TimeOfDay(instant, in: timeZone))
    }

    /// The typed numbers, each checked against its field's range.
    func values() throws(DietCore.ValidationError) -> MealValues {
        func grams(_ typed: TypedNumber?, _ field: DietCore.ValidationError.Field) throws(DietCore.ValidationError) -> Double? {
            try typed?.value(field, MealEntry.gramRange, digits: 0, unit: "g")
        }
        return MealValues(
            kcal: try kcal?.whole(.calories, MealEntry.kcalRange, unit: "kcal"),
            protein: try grams(protein, .protein),
            carbs: try grams(carbs, .carbs),
            fat: try grams(fat, .fat),
            fiber: try grams(fiber, .fiber)
        )
    }

    /// The instant the meal was eaten, from --date and --at, in `timeZone`.
    func instant(now: Date, timeZone: TimeZone, localizer: Localizer) throws -> Date {
        try Self.instant(at: at, date: date, now: now, timeZone: timeZone, localizer: localizer)
    }

    /// `at` is HH:MM (on `date`, else today) or a full date and time; nil means now.
    static func instant(at: String?, date: LocalDate?, now: Date, timeZone: TimeZone, localizer: Localizer) throws -> Date {
        if let at, let full = StoreOptions.instant(at, in: timeZone) {
            return full
        }
        let day = date ?? LocalDate(now, in: timeZone)
        let time: TimeOfDay
        if let at {
            guard let parsed = TimeOfDay(string: at) else {
                throw CLIError(localizer.render(DietCore.ValidationError(field: .time, allowed: .format("HH:MM"), received: at).message))
            }
            time = parsed
        } else {
            time = TimeOfDay(now, in: timeZone)
        }
        return day.instant(at: time, in: timeZone)
    }
}

struct LogMealCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "meal", abstract: "Log a meal: a name and its calories.")

    @Argument(help: "What you ate, 1–80 characters (default with --food: the food's name).") var name: [String] = []
    @OptionGroup var meal: MealOptions
    @Option(help: "Log a food by its id (see `wdiet food search`).") var food: String?
    @Option(help: "With --food: how many grams (default: the amount you logged last time).") var grams: TypedNumber?
    @Option(help: "With --food: a portion, e.g. \"1 large\" or \"2 slice\" (see `wdiet food show`).") var portion: String?
    @Option(help: "Log servings of one of your recipes by its id (see `wdiet recipe list`).") var recipe: String?
    @Option(help: "With --recipe: how many servings (default 1).") var servings = TypedNumber(1)
    @OptionGroup var mindful: MindfulOptions
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let settings = try session.requireSettings()
        let instant = try meal.instant(now: session.clock.now(), timeZone: session.timeZone, localizer: session.localizer)
        let moment = try session.run { try meal.checkedMoment(settings.profile.eatingWindow, at: instant, in: session.timeZone) }
        if session.recoveryMode {
            let amounts =
                [meal.kcal, meal.protein, meal.carbs, meal.fat, meal.fiber, grams].contains { $0 != nil }
                || food != nil || recipe != nil || portion != nil
            return try RecoveryLog.logMindful(name: name, mindful: mindful, amountGiven: amounts, instant: instant, moment: moment, session)
        }
        let (entry, portion) =
            try recipe.map { (try recipeEntry($0, at: instant, moment: moment, session), nil) }
            ?? food.map { try foodEntry($0, at: instant, moment: moment, session) } ?? (manualEntry(at: instant, moment: moment, session), nil)
        let source: AnalyticsEvent.MealSource = recipe != nil ? .recipe : food != nil ? .search : name.isEmpty ? .quickAdd : .manual
        let fromRecipe = try recipe.map { id in
            RecipeServings(
                recipeID: id,
                servings: try session.run { try self.servings.value(.servings, Recipe.servingsPerMeal, digits: 1, unit: nil) }
            )
        }
        let saved = try session.run { try session.store.logMeal(entry, source: source, food: portion, recipe: fromRecipe) }
        var lines = [
            session.localizer.text(
                "cli.log.meal.saved",
                [
                    "name": .text(entry.name), "kcal": .integer(entry.kcal), "date": .date(entry.localDate),
                    "time": .time(entry.localTime), "id": .text(ShortID.make(saved.id)),
                ]
            )
        ]
        lines += MealNotes.notes(for: entry, window: settings.profile.eatingWindow).map { "  " + session.localizer.render($0.message) }
        let badges = BadgeAnnouncement.claim(session)
        if let snapshot = try session.store.today(timeZone: session.timeZone), entry.localDate == snapshot.report.date {
            let report = snapshot.report
            lines.append(session.localizer.render(report.calories.message) + "  " + report.smileys.map(\.emoji).joined(separator: " "))
            lines.append(
                session.localizer.text("cli.roar.\(MealSaved(report: report, count: 1, streakWasLit: true, newBadges: badges).roar.rawValue)")
            )
        }
        lines += BadgeAnnouncement.lines(badges, session.localizer, roared: entry.localDate == session.today)
        return lines.joined(separator: "\n")
    }

    /// A meal by its calories (and optional macros); without a name it is a quick add.
    private func manualEntry(at instant: Date, moment: Int?, _ session: Session) throws -> MealEntry {
        let values = try session.run { try meal.values() }
        guard let kcal = values.kcal else { throw CLIError(session.localizer.text("cli.error.kcalRequired")) }
        return try session.run {
            try MealEntry.quickAdd(
                kcal: kcal,
                name: name.joined(separator: " "),
                proteinG: values.protein,
                carbsG: values.carbs,
                fatG: values.fat,
                fiberG: values.fiber,
                at: instant,
                in: session.timeZone,
                moment: moment,
                language: session.language
            )
        }
    }

    /// `servings` of a recipe.
    private func recipeEntry(_ id: String, at instant: Date, moment: Int?, _ session: Session) throws -> MealEntry {
        let l = session.localizer
        if meal.kcal != nil || food != nil { throw CLIError(l.text("cli.error.kcalWithFood")) }
        guard let recipe = try session.run({ try session.store.recipe(id) }) else {
            throw CLIError(l.text("cli.error.recipe", ["id": .text(id)]))
        }
        let count = try session.run { try servings.value(.servings, Recipe.servingsPerMeal, digits: 1, unit: nil) }
        var entry = try session.run {
            try session.store.mealEntry(
                servings: count,
                of: recipe,
                named: name.isEmpty ? nil : name.joined(separator: " "),
                at: instant,
                in: session.timeZone,
                language: session.language
            )
        }
        entry.moment = moment
        return entry
    }

    /// The meal of `grams`, a `portion` or the default portion of a database food.
    private func foodEntry(_ id: String, at instant: Date, moment: Int?, _ session: Session) throws -> (MealEntry, FoodPortion) {
        let l = session.localizer
        if meal.kcal != nil { throw CLIError(l.text("cli.error.kcalWithFood")) }
        guard let food = try session.run({ try session.store.food(id: id, language: session.language) }) else {
            throw CLIError(StoreError.unknownFood("\(id)").message(l))
        }
        let typed = try session.run { try grams?.number(.amount, hint: Food.gramRange, digits: 0, unit: "g") }
        // nothing given: the amount last logged of this food, else its serving or natural portion
        let amount =
            try typed ?? portion.map { try Self.grams(of: $0, in: food, l) }
            ?? session.run { try session.store.lastGrams(of: food.id) }
            ?? PortionChooser.grams(quantity: 1, unit: nil, portions: food.portions, foodName: food.usdaName, serving: food.serving).grams
        let checked = try session.run { try Food.checkedGrams(amount) }
        let n = food.per100g.scaled(toGrams: checked)
        let title = name.isEmpty ? food.name : name.joined(separator: " ")
        let entry = try session.run { try n.mealEntry(named: title, at: instant, in: session.timeZone, moment: moment) }
        return (entry, FoodPortion(foodID: food.id, grams: checked))
    }

    /// "1 large", "0,5 breast", "cup": a count (default 1, decimal comma or point) and a
    /// household measure of the food named exactly (or grams by a gram word), through the one
    /// portion rule (`Food.unit(named:)`, `Food.grams`).
    static func grams(of text: String, in food: Food, _ l: Localizer) throws -> Double {
        let words = text.split(separator: " ").map(String.init)
        let count = words.first.flatMap(NumberInput.decimal)
        let unit = words.dropFirst(count == nil ? 0 : 1).joined(separator: " ")
        guard let unit = food.unit(named: unit), let grams = food.grams(amount: count ?? 1, unit: unit) else {
            throw CLIError(
                l.text(
                    "cli.error.portion",
                    [
                        "portion": .text(text),
                        "portions": .text(food.offeredPortions().map(\.portion.label).joined(separator: ", ")),
                    ]
                )
            )
        }
        return grams
    }
}

struct LogWeightCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "weight", abstract: "Log today's weight (replaces the day's entry).")

    @Argument(help: "Weight in kg, 30.0–200.0 (\"72,4\" or \"72.4\").") var kg: TypedNumber
    @Option(help: "The day, YYYY-MM-DD (default: today).") var date: LocalDate?
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        _ = try session.requireSettings()
        let day = date ?? session.today
        if day > session.today {
            throw CLIError(session.localizer.text("cli.error.futureDate", ["date": .date(day)]))
        }
        let entry = try session.run { try WeightEntry(date: day, kg: kg.number(.weight, hint: Profile.weightRange, digits: 1, unit: "kg")) }
        if session.recoveryMode { return try RecoveryLog.logWeight(entry, session) }
        let goalBefore = try session.store.goalForecast(timeZone: session.timeZone)
        try session.run { try session.store.logWeight(entry, timeZone: session.timeZone) }
        var lines = [session.localizer.text("cli.log.weight.saved", ["kg": .decimal(entry.kg, digits: 1), "date": .date(day)])]
        // reaching the goal weight is a milestone: the triple roar, and the offer to maintain (docs/rules.md §2)
        if goalBefore?.isReached == false, try session.store.goalForecast(timeZone: session.timeZone)?.isReached == true {
            lines += [session.localizer.text("cli.roar.3"), session.localizer.text("cli.today.goalReached")]
        }
        if let snapshot = try session.store.today(timeZone: session.timeZone) {
            let card = snapshot.report.weight
            if let average = card.averageKg {
                lines.append(session.localizer.text("weight.card.average", ["average": .decimal(average, digits: 1)]))
            }
            if let down = card.downBy {
                lines.append(session.localizer.text("weight.card.down", ["difference": .decimal(down, digits: 1)]))
            }
        }
        lines += BadgeAnnouncement.claimedLines(session)
        return lines.joined(separator: "\n")
    }
}

/// The first 8 hex digits of a meal id: enough to tell a user's meals apart, short to type.
enum ShortID {
    static func make(_ id: UUID) -> String {
        String(id.uuidString.prefix(8)).lowercased()
    }
}
