import ArgumentParser
import DietCore
import DietStore
import FoodKit
import Foundation

/// `wdiet recipe add|list`.
struct RecipeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recipe",
        abstract: "Your recipes: foods with amounts and a yield.",
        subcommands: [RecipeAddCommand.self, RecipeListCommand.self]
    )
}

struct RecipeAddCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a recipe.",
        discussion: "Example: wdiet recipe add Overnight oats --servings 2 --item 8120=80 --item 1077=300 --item 9050=100"
    )

    @Argument(help: "The recipe's name.") var name: [String]
    @Option(help: "How many servings it makes (0.5–100).") var servings = TypedNumber(1)
    @Option(help: "A food and its grams, FOOD_ID=GRAMS (repeatable; ids from `wdiet food search`).") var item: [String]
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        try RecoveryLog.refuseAmounts(session)
        let l = session.localizer
        let items = try item.map { text -> Recipe.Item in
            let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, let grams = NumberInput.decimal(parts[1]) else {
                throw CLIError(l.render(DietCore.ValidationError(field: .recipeItems, allowed: .format("FOOD_ID=GRAMS"), received: text).message))
            }
            return Recipe.Item(foodID: parts[0], grams: grams)
        }
        let recipe = try session.run {
            try session.store.addRecipe(
                name: name.joined(separator: " "),
                items: items,
                servings: servings.number(.servings, hint: Recipe.yieldRange, digits: 1, unit: nil)
            )
        }
        let serving = try session.run { try session.store.serving(of: recipe, language: session.language) }
        return l.text(
            "cli.recipe.added",
            [
                "name": .text(recipe.name), "id": .text(String(recipe.id.prefix(8))),
                "kcal": .integer(Int(serving.nutrients.kcal.rounded())),
                "grams": .integer(Int(serving.grams.rounded())),
            ]
        )
    }
}

struct RecipeListCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List your recipes with one serving's calories.")

    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        let recipes = try session.run { try session.store.recipes() }
        guard !recipes.isEmpty else { return l.text("cli.recipe.none") }
        if session.recoveryMode { return try RecoveryFoods.list(recipes.map { (String($0.id.prefix(8)), $0.name) }, json: false, l) }
        var table = TextTable([.left, .left, .right, .right])
        table.append(["ID", l.text("cli.recipe.name"), l.text("cli.recipe.servings"), l.text("cli.recipe.kcal")])
        for recipe in recipes {
            let serving = try session.run { try session.store.serving(of: recipe, language: session.language) }
            table.append([
                String(recipe.id.prefix(8)), recipe.name, l.number(recipe.servings, digits: 1),
                l.number(serving.nutrients.kcal, digits: 0),
            ])
        }
        return table.render()
    }
}
