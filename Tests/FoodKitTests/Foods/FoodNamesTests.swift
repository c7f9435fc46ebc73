import DietCore
import FoodKit
import Testing

@Suite("Names of custom foods and recipes, and barcodes")
struct FoodNamesTests {
    static let label = Nutrients(kcal: 40, proteinG: 1, carbsG: 6, totalCarbsG: 7, fiberG: 1, sugarsG: 4, fatG: 1, sodiumMg: 50)

    @Test("a custom food name with a control character is refused naming the food name", arguments: ["Oat\u{0}milk", "Oat\u{1B}[2J", "\u{9B}Oat"])
    func customFood(name: String) {
        #expect(throws: ValidationError(field: .foodName, allowed: .noControlCharacters, received: "\"\(TextRules.visible(name))\"")) {
            try CustomFood(name: name, per100g: Self.label)
        }
    }

    @Test("a recipe name with a control character is refused naming the recipe name", arguments: ["Oats\u{0}", "Oats\u{1B}[31m", "Oats\u{7F}"])
    func recipe(name: String) {
        #expect(throws: ValidationError(field: .recipeName, allowed: .noControlCharacters, received: "\"\(TextRules.visible(name))\"")) {
            try Recipe(id: "r1", name: name, items: [.init(foodID: "8120", grams: 80)], servings: 1)
        }
    }

    @Test("names with tabs, line breaks, accents and emoji are still fine")
    func fine() throws {
        #expect(try CustomFood(name: "Hafer\tdrink 🌾", per100g: Self.label).name == "Hafer\tdrink 🌾")
        #expect(try Recipe(id: "r1", name: "Crème\nbrûlée", items: [.init(foodID: "8120", grams: 80)], servings: 1).name == "Crème\nbrûlée")
    }

    @Test("a stored recipe is restored as it was, even with a name today's rules refuse")
    func restoring() {
        #expect(Recipe(restoring: "r1", name: "Old\u{1B}", items: [], servings: 1).name == "Old\u{1B}")
    }

    @Test("a barcode with a control character is not a barcode", arguments: ["4006381333931\u{0}", "\u{1B}4006381333931"])
    func barcode(text: String) {
        #expect(throws: Barcode.Problem.notDigits(text)) { try Barcode(text) }
    }
}
