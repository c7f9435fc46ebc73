import ArgumentParser
import DietCore
import DietStore
import FoodKit
import Foundation

/// `wdiet log text "2 eggs and a slice of toast"`: parse, show, confirm, log.
struct LogTextCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "text", abstract: "Log a meal written in words; shows what it understood first.")

    @Argument(help: "What you ate, e.g. \"2 eggs and a slice of toast\" or \"Haferflocken 60g mit Milch\".") var text: [String]
    @Flag(help: "Log without asking.") var yes = false
    @Option(help: "When you ate: HH:MM today, or YYYY-MM-DD HH:MM (default: now).") var at: String?
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        _ = try session.requireSettings()
        try RecoveryLog.refuseAmounts(session)
        let l = session.localizer
        let phrase = text.joined(separator: " ")
        // the limits first: a phrase that names thousands of foods is refused, never looked up
        try session.run { _ = try MealTextParser.checkedParse(phrase) }
        var meal = try session.run { try session.store.resolveMealText(phrase, language: session.language, timeZone: session.timeZone) }
        // no silent guess: where the words name several foods alike, or only part of one, the
        // person chooses; `--yes` takes only what is sure
        let unsure = meal.items.indices.filter { !meal.items[$0].isSure }
        if yes, !unsure.isEmpty {
            throw CLIError(unsure.map { Self.unsureLine(meal.items[$0], l) }.joined(separator: "\n"))
        }
        // a unit the food has no measure of is shown in the table below, to confirm; no food to choose
        for index in unsure where !meal.items[index].rivals.isEmpty || meal.items[index].partly {
            let item = meal.items[index]
            let choices = [item.food] + item.rivals
            if context.isTerminal {
                Terminal.print(l.text("cli.text.whichOne", ["typed": .text(item.parsed.text)]))
                for (number, food) in choices.enumerated() { Terminal.print("  \(number + 1)) \(food.name)") }
                Terminal.print(l.text("cli.text.choosePrompt"), terminator: " ")
            }
            let reply = context.readLine()?.trimmingCharacters(in: .whitespaces) ?? ""
            guard let number = reply.isEmpty ? 1 : Int(reply), choices.indices.contains(number - 1) else {
                return l.text("cli.text.notChosen", ["typed": .text(item.parsed.text)])
            }
            if number > 1 {
                meal.items[index] = TextMeal.Item(parsed: item.parsed, food: choices[number - 1], after: index > 0 ? meal.items[index - 1] : nil)
            }
        }
        var lines: [String] = []
        var table = TextTable([.left, .left, .right, .right, .right, .right, .right])
        table.append([l.text("cli.food.typed"), l.text("cli.food.name"), "g", "kcal", "P", "C", "F"])
        for item in meal.items {
            let n = item.nutrients
            table.append([
                item.parsed.text, item.food.name + (item.choice.portion.map { " (\($0.label(l)))" } ?? ""),
                l.number(item.choice.grams, digits: 0), l.number(n.kcal, digits: 0), l.number(n.proteinG, digits: 0),
                l.number(n.carbsG, digits: 0), l.number(n.fatG, digits: 0),
            ])
        }
        let t = meal.totals
        table.append([
            l.text("cli.meals.running"), "", "", l.number(t.kcal, digits: 0), l.number(t.proteinG, digits: 0),
            l.number(t.carbsG, digits: 0), l.number(t.fatG, digits: 0),
        ])
        if !meal.items.isEmpty { lines.append(table.render()) }
        lines += meal.items.compactMap { $0.parsed.note(l) }
        lines += meal.unmatched.map { l.text("cli.text.unmatched", ["food": .text($0.food)]) }
        lines += meal.unparsed.map { l.text("cli.text.unparsed", ["text": .text($0)]) }
        guard !meal.items.isEmpty else {
            throw CLIError((lines + [l.text("cli.text.nothing")]).joined(separator: "\n"))
        }
        if !yes {
            if context.isTerminal {
                Terminal.print(lines.joined(separator: "\n"))
                Terminal.print(l.text("cli.text.confirm"), terminator: " ")
            }
            let reply = context.readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            guard ["y", "yes", "j", "ja", "s", "si", "sí"].contains(reply) else {
                return (context.isTerminal ? [] : lines).joined(separator: "\n") + "\n" + l.text("cli.text.kept")
            }
            if context.isTerminal { lines = [] }
        }
        let instant = try MealOptions.instant(at: at, date: nil, now: session.clock.now(), timeZone: session.timeZone, localizer: l)
        let entries = try meal.items.map { item -> (MealEntry, FoodPortion?) in
            let entry = try session.run { try item.nutrients.mealEntry(named: item.food.name, at: instant, in: session.timeZone) }
            return (entry, FoodPortion(foodID: item.food.id, grams: item.choice.grams))
        }
        try session.run { try session.store.logMeals(entries, source: .text) }
        lines.append(l.text("cli.text.logged", ["count": .integer(entries.count), "kcal": .integer(Int(t.kcal.rounded()))]))
        lines += BadgeAnnouncement.claimedLines(session)
        return lines.joined(separator: "\n")
    }

    /// "„Hähnchen“ is not clear: Hähnchenbrust, Hähnchenschenkel or …": why `--yes` took nothing.
    static func unsureLine(_ item: TextMeal.Item, _ l: Localizer) -> String {
        if item.rivals.isEmpty, !item.partly, item.choice.unitIgnored {
            return l.text("cli.text.unitIgnored", ["typed": .text(item.parsed.text), "food": .text(item.food.name)])
        }
        let names = ([item.food] + item.rivals).map(\.name)
        return l.text("cli.text.unsure", ["typed": .text(item.parsed.text), "choices": .text(names.joined(separator: " · "))])
    }
}
