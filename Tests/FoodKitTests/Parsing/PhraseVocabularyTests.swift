import FoodKit
import Foundation
import Testing

/// Issue 15, first step: the units, hedge words and fraction words real phrases use, in
/// English, German and Spanish.
@Suite("Phrase vocabulary: units, hedges and fraction words")
struct PhraseVocabularyTests {
    static func only(_ text: String) -> ParsedItem? {
        let parse = MealTextParser.parse(text)
        return parse.items.count == 1 && parse.unparsed.isEmpty ? parse.items[0] : nil
    }

    @Test(
        "units missing before: each read with its quantity and the food apart",
        arguments: [
            ("2 cloves garlic", 2.0, QuantityUnit.clove, "garlic"), ("2 Zehen Knoblauch", 2, .clove, "Knoblauch"),
            ("2 dientes de ajo", 2, .clove, "ajo"), ("1 sprig rosemary", 1, .sprig, "rosemary"), ("1 Zweig Rosmarin", 1, .sprig, "Rosmarin"),
            ("1 pinch salt", 1, .pinch, "salt"), ("1 Prise Salz", 1, .pinch, "Salz"), ("una pizca de sal", 1, .pinch, "sal"),
            ("1 stick butter", 1, .stick, "butter"), ("1 Packung Spinat", 1, .package, "Spinat"), ("1 paquete de arroz", 1, .package, "arroz"),
            ("1 can tomatoes", 1, .can, "tomatoes"), ("1 Dose Tomaten", 1, .can, "Tomaten"), ("1 lata de atún", 1, .can, "atún"),
            ("1 quart milk", 1, .quart, "milk"), ("1 pint beer", 1, .pint, "beer"), ("1 head lettuce", 1, .head, "lettuce"),
            ("1 Kopf Salat", 1, .head, "Salat"), ("2 stalks celery", 2, .stalk, "celery"), ("1 Stange Lauch", 1, .stalk, "Lauch"),
            ("1 bunch parsley", 1, .bunch, "parsley"), ("1 Bund Petersilie", 1, .bunch, "Petersilie"), ("un manojo de perejil", 1, .bunch, "perejil"),
            ("2 ribs celery", 2, .rib, "celery"), ("1 bulb fennel", 1, .bulb, "fennel"), ("3 strips bacon", 3, .strip, "bacon"),
            ("1 envelope yeast", 1, .envelope, "yeast"), ("2 leaves basil", 2, .leaf, "basil"), ("2 Blatt Gelatine", 2, .leaf, "Gelatine"),
            ("3 hojas de lechuga", 3, .leaf, "lechuga"), ("2 drops vanilla", 2, .drop, "vanilla"),
            ("3 Tropfen Zitronensaft", 3, .drop, "Zitronensaft"),
            ("1 gota de limón", 1, .drop, "limón"), ("1 Becher Joghurt", 1, .pot, "Joghurt"), ("1 Schuss Milch", 1, .dash, "Milch"),
            ("un chorrito de aceite", 1, .dash, "aceite"), ("1 Handvoll Nüsse", 1, .handful, "Nüsse"), ("un puñado de nueces", 1, .handful, "nueces"),
            ("1 Messerspitze Muskat", 1, .knifeTip, "Muskat"), ("2 EL. Öl", 2, .tablespoon, "Öl"), ("1 Essl. Zucker", 1, .tablespoon, "Zucker"),
            ("1 TL. Honig", 1, .teaspoon, "Honig"), ("1 Teel. Salz", 1, .teaspoon, "Salz"), ("2 cdas de azúcar", 2, .tablespoon, "azúcar"),
            ("1 cdita de sal", 1, .teaspoon, "sal"), ("2 Tbs sugar", 2, .tablespoon, "sugar"),
        ] as [(String, Double, QuantityUnit, String)]
    )
    func units(text: String, quantity: Double, unit: QuantityUnit, food: String) throws {
        let item = try #require(Self.only(text), "\(MealTextParser.parse(text))")
        #expect(item.quantity == quantity && item.unit == unit && item.food == food, "\(item)")
    }

    @Test(
        "a hedge before the amount goes, the amount stays",
        arguments: [
            ("about 200 g rice", 200.0, "rice"), ("approximately 2 cups flour", 2, "flour"), ("roughly 100 g cheese", 100, "cheese"),
            ("ca. 200 g Reis", 200, "Reis"), ("etwa 2 EL Öl", 2, "Öl"), ("circa 150 g Quark", 150, "Quark"), ("ungefähr 3 Eier", 3, "Eier"),
            ("unos 100 g de arroz", 100, "arroz"), ("aproximadamente 2 tazas de leche", 2, "leche"),
        ] as [(String, Double, String)]
    )
    func hedges(text: String, quantity: Double, food: String) throws {
        let item = try #require(Self.only(text), "\(MealTextParser.parse(text))")
        #expect(item.quantity == quantity && item.food == food, "\(item)")
    }

    @Test(
        "fraction words and 'a couple' count",
        arguments: [
            ("ein Viertel Melone", 0.25, "Melone"), ("drei Viertel Liter Milch", 0.75, "Milch"), ("un cuarto de pollo", 0.25, "pollo"),
            ("tres cuartos de taza de leche", 0.75, "leche"), ("ein halbes Brötchen", 0.5, "Brötchen"), ("a couple of eggs", 2, "eggs"),
            ("ein paar Nüsse", 2, "Nüsse"), ("un par de huevos", 2, "huevos"), ("two thirds cup oats", 2.0 / 3, "oats"),
        ] as [(String, Double, String)]
    )
    func fractionWords(text: String, quantity: Double, food: String) throws {
        let item = try #require(Self.only(text), "\(MealTextParser.parse(text))")
        #expect(abs(item.quantity - quantity) < 1e-9 && item.food == food, "\(item)")
    }

    @Test("a pinch weighs a pinch, not a portion: 0.4 g of salt; a quart is 946 ml")
    func smallMeasures() {
        #expect(PortionChooser.grams(quantity: 1, unit: .pinch, portions: []).grams == 0.4)
        #expect(PortionChooser.grams(quantity: 2, unit: .drop, portions: []).grams == 0.1)
        #expect(PortionChooser.grams(quantity: 1, unit: .quart, portions: []).grams == 946.353)
    }
}
