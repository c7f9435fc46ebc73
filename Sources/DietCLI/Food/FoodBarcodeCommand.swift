import ArgumentParser
import DietCore
import DietStore
import FoodFacts
import FoodKit
import Foundation

/// `wdiet food barcode CODE`: your own foods first, then Open Food Facts (cached).
struct FoodBarcodeCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "barcode",
        abstract: "Look up a packaged food by its EAN-13, EAN-8 or UPC-A barcode."
    )

    @Argument(help: "The digits under the barcode.") var code: String
    @Flag(help: "Do not ask Open Food Facts (offline use).") var offline = false
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) async throws -> String {
        let session = try Session.open(options, context: context)
        try RecoveryLog.refuseAmounts(session)
        let l = session.localizer
        let barcode: Barcode
        do throws(Barcode.Problem) {
            barcode = try Barcode(code)
        } catch {
            throw CLIError(Self.describe(error, code, l))
        }
        let lookup = BarcodeLookup(client: BarcodeLookup.client(environment: context.environment, offline: offline))
        let store = session.store
        let language = session.language
        let outcome = try await session.run {
            try await lookup.find(
                barcode,
                language: language,
                local: { try store.customFood(barcode: barcode) },
                save: { try store.addCustomFood($0) }
            )
        }
        switch outcome {
        case let .found(food, fromOpenFoodFacts):
            return try render(food, l)
                + (fromOpenFoodFacts ? "\n" + l.text("cli.barcode.source", ["source": .text(OpenFoodFactsClient.attribution)]) : "")
        case .unknown:
            return l.text("cli.barcode.unknown", ["code": .text(barcode.digits)])
        case .notOnDevice:
            return l.text("cli.barcode.unknownOffline", ["code": .text(barcode.digits)])
        case .incomplete(let name):
            return l.text("cli.barcode.incomplete", ["name": .text(name), "code": .text(barcode.digits)])
        case .serverError(let status):
            throw CLIError(l.text("cli.barcode.serverError", ["status": .integer(status)]))
        }
    }

    private func render(_ food: Food, _ l: Localizer) throws -> String {
        if json { return try JSONOutput.encode(food) }
        let n = food.per100g
        return "\(food.name) (id \(food.id))\n  \(l.number(n.kcal, digits: 0)) kcal · "
            + l.text(
                "cli.food.macros",
                [
                    "protein": .decimal(n.proteinG, digits: 1), "carbs": .decimal(n.carbsG, digits: 1), "fat": .decimal(n.fatG, digits: 1),
                    "fiber": .decimal(n.fiberG, digits: 1), "sugars": .decimal(n.sugarsG, digits: 1),
                ]
            ) + " · " + l.text("cli.food.per100")
    }

    static func describe(_ problem: Barcode.Problem, _ code: String, _ l: Localizer) -> String {
        switch problem {
        case .notDigits: l.text("cli.barcode.notDigits", ["code": .text(code)])
        case .wrongLength(let count): l.text("cli.barcode.length", ["count": .integer(count)])
        case let .checkDigit(expected, got): l.text("cli.barcode.checkDigit", ["expected": .integer(expected), "got": .integer(got)])
        }
    }
}

/// `wdiet food add NAME --kcal … per 100 g`.
struct FoodAddCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add your own food, with values per 100 g.")

    @Argument(help: "The food's name.") var name: [String]
    @Option(help: "Calories per 100 g (decimal comma or point).") var kcal: TypedNumber
    @Option(help: "Protein g per 100 g.") var protein = TypedNumber(0)
    @Option(help: "Carbohydrate g per 100 g (without fibre).") var carbs = TypedNumber(0)
    @Option(help: "Fat g per 100 g.") var fat = TypedNumber(0)
    @Option(help: "Fibre g per 100 g.") var fiber = TypedNumber(0)
    @Option(help: "Sugars g per 100 g.") var sugars = TypedNumber(0)
    @Option(help: "The package's barcode.") var barcode: String?
    @Option(help: "A portion as NAME=GRAMS, e.g. \"1 bar=45\" (repeatable).") var portion: [String] = []
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        try RecoveryLog.refuseAmounts(session)
        let l = session.localizer
        var code: Barcode?
        if let barcode {
            do throws(Barcode.Problem) {
                code = try Barcode(barcode)
            } catch {
                throw CLIError(FoodBarcodeCommand.describe(error, barcode, l))
            }
        }
        let portions = try portion.map { text -> Portion in
            let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, let grams = NumberInput.decimal(parts[1]) else {
                throw CLIError(l.render(DietCore.ValidationError(field: .portion, allowed: .format("NAME=GRAMS"), received: text).message))
            }
            // "1 Schale" → one "Schale"; "2 slices" → two "slices" weighing `grams` together
            let words = parts[0].split(separator: " ", maxSplits: 1).map(String.init)
            if words.count == 2, let amount = NumberInput.decimal(words[0]), amount > 0 {
                return Portion(amount: amount, name: words[1], grams: grams)
            }
            return Portion(amount: 1, name: parts[0], grams: grams)
        }
        let nutrients = try session.run {
            let (k, p, c, f, fi, s) = try (
                kcal.number(.calories, hint: 0...900, digits: 0, unit: "kcal"),
                protein.number(.protein, hint: 0...100, digits: 0, unit: "g"),
                carbs.number(.carbs, hint: 0...100, digits: 0, unit: "g"),
                fat.number(.fat, hint: 0...100, digits: 0, unit: "g"),
                fiber.number(.fiber, hint: 0...100, digits: 0, unit: "g"),
                sugars.number(.init("sugars"), hint: 0...100, digits: 0, unit: "g")
            )
            return Nutrients(kcal: k, proteinG: p, carbsG: c, totalCarbsG: c + fi, fiberG: fi, sugarsG: s, fatG: f, sodiumMg: 0)
        }
        let draft = try session.run { try CustomFood(name: name.joined(separator: " "), barcode: code, per100g: nutrients, portions: portions) }
        let food = try session.run { try session.store.addCustomFood(draft) }
        return l.text("cli.food.added", ["name": .text(food.name), "id": .text(food.id)])
    }
}
