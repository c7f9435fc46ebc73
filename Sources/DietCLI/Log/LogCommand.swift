import ArgumentParser
import DietCore
import DietStore
import FoodKit
import Foundation

/// `wdiet log meal|weight`.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Log a meal, a meal in words, or your weight.",
        subcommands: [LogMealCommand.self, LogTextCommand.self, LogWeightCommand.self, LogAgainCommand.self, CopyDayCommand.self])
}

/// Meal values shared by `log meal` and `edit meal`.
struct MealOptions: ParsableArguments {
    @Option(help: "Calories, 1–9999.") var kcal: Int?
    @Option(help: "Protein in g, 0–999.") var protein: Double?
    @Option(help: "Carbohydrate in g, 0–999.") var carbs: Double?
    @Option(help: "Fat in g, 0–999.") var fat: Double?
    @Option(help: "Fibre in g, 0–999.") var fiber: Double?
    @Option(help: "When you ate: HH:MM today, or YYYY-MM-DD HH:MM (default: now).") var at: String?
    @Option(help: "The day you ate, YYYY-MM-DD (with --at as the time, else the current time).") var date: LocalDate?

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
    @Option(help: "With --food: how many grams.") var grams: Double?
    @Option(help: "With --food: a portion, e.g. \"1 large\" or \"2 slice\" (see `wdiet food show`).") var portion: String?
    @Option(help: "Log servings of one of your recipes by its id (see `wdiet recipe list`).") var recipe: String?
    @Option(help: "With --recipe: how many servings (default 1).") var servings: Double = 1
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let settings = try session.requireSettings()
        let instant = try meal.instant(now: session.clock.now(), timeZone: session.timeZone, localizer: session.localizer)
        let (entry, portion) = try recipe.map { (try recipeEntry($0, at: instant, session), nil) }
            ?? food.map { try foodEntry($0, at: instant, session) } ?? (manualEntry(at: instant, session), nil)
        let saved = try session.run { try session.store.logMeal(entry, source: recipe != nil ? .recipe : food == nil ? .manual : .search, food: portion) }
        var lines = [session.localizer.text("cli.log.meal.saved", [
            "name": .text(entry.name), "kcal": .integer(entry.kcal), "date": .date(entry.localDate),
            "time": .time(entry.localTime), "id": .text(ShortID.make(saved.id)),
        ])]
        lines += MealNotes.notes(for: entry, window: settings.profile.eatingWindow).map { "  " + session.localizer.render($0.message) }
        if let snapshot = try session.store.today(timeZone: session.timeZone), entry.localDate == snapshot.report.date {
            let report = snapshot.report
            let roar = Roar.level(for: .init(mealSaved: true, allMacrosGood: MacroFeedback.allGood(report.macros),
                                             streakMilestone: report.streak.milestoneToday != nil))
            lines.append(session.localizer.render(report.calories.message) + "  " + report.smileys.map(\.emoji).joined(separator: " "))
            if let roar { lines.append(session.localizer.text("cli.roar.\(roar.rawValue)")) }
        }
        return lines.joined(separator: "\n")
    }

    private func manualEntry(at instant: Date, _ session: Session) throws -> MealEntry {
        guard let kcal = meal.kcal else { throw CLIError(session.localizer.text("cli.error.kcalRequired")) }
        return try session.run {
            try MealEntry(name: name.joined(separator: " "), kcal: kcal, proteinG: meal.protein, carbsG: meal.carbs,
                          fatG: meal.fat, fiberG: meal.fiber, at: instant, in: session.timeZone)
        }
    }

    /// `servings` of a recipe.
    private func recipeEntry(_ id: String, at instant: Date, _ session: Session) throws -> MealEntry {
        let l = session.localizer
        if meal.kcal != nil || food != nil { throw CLIError(l.text("cli.error.kcalWithFood")) }
        guard let recipe = try session.run({ try session.store.recipe(id) }) else {
            throw CLIError(l.text("cli.error.recipe", ["id": .text(id)]))
        }
        return try session.run {
            try session.store.mealEntry(servings: servings, of: recipe, named: name.isEmpty ? nil : name.joined(separator: " "), at: instant,
                                        in: session.timeZone, language: session.language)
        }
    }

    /// The meal of `grams`, a `portion` or the default portion of a database food.
    private func foodEntry(_ id: String, at instant: Date, _ session: Session) throws -> (MealEntry, FoodPortion) {
        let l = session.localizer
        if meal.kcal != nil { throw CLIError(l.text("cli.error.kcalWithFood")) }
        guard let food = try session.run({ try session.store.food(id: id, language: session.language) }) else {
            throw CLIError(StoreError.unknownFood("\(id)").message(l))
        }
        let amount = try grams ?? portion.map { try Self.grams(of: $0, in: food, l) }
            ?? PortionChooser.grams(quantity: 1, unit: nil, portions: food.portions, foodName: food.usdaName).grams
        guard amount > 0 && amount <= 5000 else {
            throw CLIError(l.render(DietCore.ValidationError(field: .init("grams"), allowed: .range(min: 1, max: 5000, digits: 0, unit: "g"),
                                                             received: amount.formatted()).message))
        }
        let n = food.per100g.scaled(toGrams: amount)
        let title = name.isEmpty ? food.name : name.joined(separator: " ")
        let entry = try session.run { try n.mealEntry(named: title, at: instant, in: session.timeZone) }
        return (entry, FoodPortion(foodID: food.id, grams: amount))
    }

    /// "1 large", "2 slice", "cup": a count (default 1) and a portion of the food.
    static func grams(of text: String, in food: Food, _ l: Localizer) throws -> Double {
        let words = text.split(separator: " ").map(String.init)
        let count = words.first.flatMap { Double($0.replacingOccurrences(of: ",", with: ".")) }
        let wanted = SearchText.fold(words.dropFirst(count == nil ? 0 : 1).joined(separator: " "))
        let match = food.portions.first { SearchText.fold($0.name) == wanted }
            ?? food.portions.first { SearchText.fold($0.name).hasPrefix(wanted) && !wanted.isEmpty }
        guard let match else {
            throw CLIError(l.text("cli.error.portion", ["portion": .text(text), "portions": .text(food.portions.map(\.label).joined(separator: ", "))]))
        }
        return (count ?? 1) * match.gramsPerUnit
    }
}

struct LogWeightCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "weight", abstract: "Log today's weight (replaces the day's entry).")

    @Argument(help: "Weight in kg, 30.0–200.0.") var kg: Double
    @Option(help: "The day, YYYY-MM-DD (default: today).") var date: LocalDate?
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        _ = try session.requireSettings()
        let day = date ?? session.today
        if day > session.today {
            throw CLIError(session.localizer.text("cli.error.futureDate", ["date": .date(day)]))
        }
        let entry = try session.run { try WeightEntry(date: day, kg: kg) }
        try session.run { try session.store.logWeight(entry, timeZone: session.timeZone) }
        var lines = [session.localizer.text("cli.log.weight.saved", ["kg": .decimal(entry.kg, digits: 1), "date": .date(day)])]
        if let snapshot = try session.store.today(timeZone: session.timeZone) {
            let card = snapshot.report.weight
            if let average = card.averageKg {
                lines.append(session.localizer.text("weight.card.average", ["average": .decimal(average, digits: 1)]))
            }
            if let down = card.downBy {
                lines.append(session.localizer.text("weight.card.down", ["difference": .decimal(down, digits: 1)]))
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// The first 8 hex digits of a meal id: enough to tell a user's meals apart, short to type.
enum ShortID {
    static func make(_ id: UUID) -> String {
        String(id.uuidString.prefix(8)).lowercased()
    }
}
