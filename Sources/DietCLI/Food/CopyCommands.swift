import ArgumentParser
import DietCore
import DietStore
import Foundation

/// `wdiet log again ID`: the same meal once more, now.
struct LogAgainCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "again", abstract: "Log a meal again (yesterday's breakfast, today).")

    @Argument(help: "The meal's id (`wdiet meals --date …` shows them).") var id: String
    @Option(help: "When: HH:MM today, or YYYY-MM-DD HH:MM (default: now).") var at: String?
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        _ = try session.requireSettings()
        try RecoveryLog.refuseAmounts(session)
        let meal = try resolveMeal(id, in: session)
        let instant = try MealOptions.instant(
            at: at,
            date: nil,
            now: session.clock.now(),
            timeZone: session.timeZone,
            localizer: session.localizer
        )
        let copy = try session.run { try session.store.logAgain(meal.id, at: instant, timeZone: session.timeZone) }
        let saved = session.localizer.text(
            "cli.log.meal.saved",
            [
                "name": .text(copy.entry.name), "kcal": .integer(copy.entry.kcal), "date": .date(copy.entry.localDate),
                "time": .time(copy.entry.localTime), "id": .text(ShortID.make(copy.id)),
            ]
        )
        return ([saved] + BadgeAnnouncement.claimedLines(session)).joined(separator: "\n")
    }
}

/// `wdiet log copy-day --from DATE [--to DATE]`.
struct CopyDayCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "copy-day", abstract: "Copy all meals of one day to another (default: today).")

    @Option(help: "The day to copy, YYYY-MM-DD.") var from: LocalDate
    @Option(help: "The day to copy to, YYYY-MM-DD (default: today).") var to: LocalDate?
    @Flag(help: "Into today: also the meals eaten later in the day than now (default: only those up to now).") var later = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        _ = try session.requireSettings()
        try RecoveryLog.refuseAmounts(session)
        let target = to ?? session.today
        let source = try session.run { try session.store.meals(on: from) }
        let copies = try session.run { try session.store.copyDay(from: from, to: target, later: later, timeZone: session.timeZone) }
        let skipped = source.count - copies.count
        guard !copies.isEmpty else {
            if skipped > 0 { return session.localizer.text("cli.copy.allLater", ["count": .integer(skipped)]) }
            return session.localizer.text("cli.meals.none", ["date": .date(from)])
        }
        let done = session.localizer.text(
            "cli.copy.done",
            [
                "count": .integer(copies.count), "from": .date(from), "to": .date(target),
                "kcal": .integer(copies.reduce(0) { $0 + $1.entry.kcal }),
            ]
        )
        let note = skipped > 0 ? [session.localizer.text("cli.copy.later", ["count": .integer(skipped)])] : []
        return ([done] + note + BadgeAnnouncement.claimedLines(session)).joined(separator: "\n")
    }
}

/// `wdiet food recent [--frequent]`.
struct FoodRecentCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "recent", abstract: "Foods you logged lately (or most often).")

    @Flag(help: "Most often instead of most recent.") var frequent = false
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    struct Row: Encodable {
        let id: String
        let name: String
        let uses: Int
        let lastDate: LocalDate
        let lastGrams: Double

        enum CodingKeys: String, CodingKey {
            case id, name, uses
            case lastDate = "last_date"
            case lastGrams = "last_grams"
        }
    }

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        let foods = try session.run { try session.store.usedFoods(frequent: frequent, language: session.language) }
        if session.recoveryMode { return try RecoveryFoods.list(foods.map { ($0.foodID, $0.name) }, json: json, l) }
        if json {
            return try JSONOutput.encode(
                foods.map { Row(id: $0.foodID, name: $0.name, uses: $0.uses, lastDate: $0.lastDate, lastGrams: $0.lastGrams) }
            )
        }
        guard !foods.isEmpty else { return l.text("cli.recent.none") }
        var table = TextTable([.right, .left, .right, .left, .right])
        table.append(["ID", l.text("cli.food.name"), "×", l.text("cli.recent.last"), l.text("cli.recent.amount")])
        for food in foods {
            table.append([
                String(food.foodID.prefix(8)), food.name, "\(food.uses)", l.date(food.lastDate), l.number(food.lastGrams, digits: 0) + " g",
            ])
        }
        return table.render()
    }
}
