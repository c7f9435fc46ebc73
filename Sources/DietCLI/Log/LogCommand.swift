import ArgumentParser
import DietCore
import DietStore
import Foundation

/// `wdiet log meal|weight`.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Log a meal or your weight.", subcommands: [LogMealCommand.self, LogWeightCommand.self])
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

    @Argument(help: "What you ate, 1–80 characters.") var name: [String]
    @OptionGroup var meal: MealOptions
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let settings = try session.requireSettings()
        guard let kcal = meal.kcal else {
            throw CLIError(session.localizer.text("cli.error.kcalRequired"))
        }
        let instant = try meal.instant(now: session.clock.now(), timeZone: session.timeZone, localizer: session.localizer)
        let entry = try session.run {
            try MealEntry(name: name.joined(separator: " "), kcal: kcal, proteinG: meal.protein, carbsG: meal.carbs,
                          fatG: meal.fat, fiberG: meal.fiber, at: instant, in: session.timeZone)
        }
        let saved = try session.run { try session.store.logMeal(entry) }
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
