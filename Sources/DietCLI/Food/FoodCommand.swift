import ArgumentParser
import DietCore
import DietStore
import FoodKit
import Foundation

/// `wdiet food search|show`.
struct FoodCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "food",
        abstract: "Find foods in the bundled database.",
        subcommands: [FoodSearchCommand.self, FoodShowCommand.self, FoodRecentCommand.self, FoodBarcodeCommand.self, FoodAddCommand.self]
    )
}

struct FoodSearchCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Search foods as you would type them.")

    @Argument(help: "What to look for: \"hähn\", \"pan integral\", \"oat\".") var text: [String]
    @Option(help: "How many results, 1–50.") var limit = 10
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        guard (1...50).contains(limit) else {
            throw CLIError(
                l.render(
                    DietCore.ValidationError(
                        field: .init("limit"),
                        allowed: .range(min: 1, max: 50, digits: 0, unit: nil),
                        received: "\(limit)"
                    ).message
                )
            )
        }
        let query = text.joined(separator: " ")
        let hits = try session.run { try session.store.searchFoods(query, language: session.language, timeZone: session.timeZone, limit: limit) }
        if session.recoveryMode { return try RecoveryFoods.list(hits.map { ($0.food.id, $0.food.name) }, json: json, l) }
        if json { return try JSONOutput.encode(hits.map(\.food)) }
        guard !hits.isEmpty else { return l.text("cli.food.none", ["text": .text(query)]) }
        var table = TextTable([.right, .left, .right, .right, .right, .right])
        table.append(["ID", l.text("cli.food.name"), "kcal", "P", "C", "F"])
        for hit in hits {
            let n = hit.food.per100g
            table.append([
                "\(hit.food.id)", hit.food.name, l.number(n.kcal, digits: 0), l.number(n.proteinG, digits: 1),
                l.number(n.carbsG, digits: 1), l.number(n.fatG, digits: 1),
            ])
        }
        return [table.render(), l.text("cli.food.per100")].joined(separator: "\n")
    }
}

struct FoodShowCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a food's nutrients and portions.")

    @Argument(help: "The food's id (from `wdiet food search`).") var id: String
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        guard let food = try session.run({ try session.store.food(id: id, language: session.language) }) else {
            throw CLIError(StoreError.unknownFood("\(id)").message(l))
        }
        if session.recoveryMode { return try RecoveryFoods.show(food, json: json, l) }
        if json { return try JSONOutput.encode(food) }
        let n = food.per100g
        var lines = [
            food.name, l.text("cli.food.per100") + ":",
            "  \(l.number(n.kcal, digits: 0)) kcal · "
                + l.text(
                    "cli.food.macros",
                    [
                        "protein": .decimal(n.proteinG, digits: 1), "carbs": .decimal(n.carbsG, digits: 1),
                        "fat": .decimal(n.fatG, digits: 1), "fiber": .decimal(n.fiberG, digits: 1),
                        "sugars": .decimal(n.sugarsG, digits: 1),
                    ]
                ),
        ]
        if !food.portions.isEmpty {
            lines.append(l.text("cli.food.portions"))
            lines += food.portions.map { "  \($0.label(l)) = \(l.number($0.grams, digits: 1)) g" }
        }
        return lines.joined(separator: "\n")
    }
}

/// Foods in recovery mode: names and ids, without calories, macros or grams (docs/rules.md §8).
/// `--json` has only `id` and `name`.
enum RecoveryFoods {
    struct Named: Encodable {
        let id: String
        let name: String
    }

    static func list(_ foods: [(id: String, name: String)], json: Bool, _ l: Localizer) throws -> String {
        if json { return try JSONOutput.encode(foods.map { Named(id: $0.id, name: $0.name) }) }
        var table = TextTable([.right, .left])
        table.append(["ID", l.text("cli.food.name")])
        for food in foods { table.append([food.id, food.name]) }
        return [table.render(), l.text("cli.recovery.numbersHidden")].joined(separator: "\n")
    }

    static func show(_ food: Food, json: Bool, _ l: Localizer) throws -> String {
        if json { return try JSONOutput.encode(Named(id: food.id, name: food.name)) }
        return [food.name, l.text("cli.recovery.numbersHidden")].joined(separator: "\n")
    }
}
