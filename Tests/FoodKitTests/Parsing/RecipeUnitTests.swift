import DietCore
import Testing

@testable import FoodKit

/// Issue 29, finding 4: units of real recipe lines in Spanish and German that were unknown.
@Suite("Units of real recipe lines")
struct RecipeUnitTests {
    @Test(
        "jars, tablets, vials and abbreviations are units, the rest is the food",
        arguments: [
            ("1 bote de garbanzos cocidos", QuantityUnit.jar, "garbanzos cocidos"),
            ("1 frasco de pimientos del piquillo", .jar, "pimientos del piquillo"),
            ("2 tarros de alcachofas", .jar, "alcachofas"),
            ("1 pastilla de caldo de pollo", .tablet, "caldo de pollo"),
            ("1 sobre de levadura química", .envelope, "levadura química"),
            ("250 grs de harina", .gram, "harina"),
            ("1 lt. de leche", .liter, "leche"),
            ("2 cdra de aceite de oliva", .tablespoon, "aceite de oliva"),
            ("1 Glas Kichererbsen", .jar, "Kichererbsen"),
            ("1 Fläschchen Rumaroma", .vial, "Rumaroma"),
            ("1 Brühwürfel", .tablet, "Brühe"),
        ]
    )
    func units(_ text: String, _ unit: QuantityUnit?, _ food: String) throws {
        let item = try #require(MealTextParser.parse(text).items.first, "\(text)")
        #expect(item.unit == unit, "\(text): \(String(describing: item.unit))")
        #expect(item.food == food, "\(text): \(item.food)")
    }

    @Test(
        "a Glas of a preserve is a jar, of a drink a glass; a packet of baking powder or yeast is a sachet; a stock cube is a tablet",
        arguments: [
            ("2 Gläser Rote Bete", QuantityUnit.jar, "Rote Bete"),
            ("1 Glas Sauerkraut", .jar, "Sauerkraut"),
            ("ein Glas Apfelsaft", .glass, "Apfelsaft"),
            ("2 Gläser Rotwein", .glass, "Rotwein"),
            ("2 Packungen Trockenhefe", .envelope, "Trockenhefe"),
            ("1 packet active dry yeast", .envelope, "active dry yeast"),
            ("un sobre de gasificante", .envelope, "gasificante"),
            ("1 Packung Nudeln", .package, "Nudeln"),
            ("un sobre de jamón", .package, "jamón"),
            ("2 chicken stock cubes", .tablet, "chicken stock"),
            ("Bouillon cubes", .tablet, "Bouillon"),
            ("1 Gemüsebrühwürfel", .tablet, "Gemüsebrühe"),
            ("3 ice cubes", nil, "ice cubes"),
            ("2 tins of chickpeas", .can, "chickpeas"),
            ("half a sleeve of saltines", .package, "saltines"),
            ("3 hojitas de albahaca", .leaf, "albahaca"),
            ("2 trocitos de chocolate", .piece, "chocolate"),
            ("4 rodajitas de chorizo", .slice, "chorizo"),
        ]
    )
    func unitsByFood(_ text: String, _ unit: QuantityUnit?, _ food: String) throws {
        let item = try #require(MealTextParser.parse(text).items.first, "\(text)")
        #expect(item.unit == unit && item.food == food, "\(text): \(String(describing: item.unit)) \(item.food)")
    }

    @Test(
        "product words stay in the food, how it was just made goes; a weight in parentheses wins, the first of several; a measure alone counts one",
        arguments: [
            ("400g de carne picada de ternera", 400, QuantityUnit.gram, "carne picada de ternera"),
            ("1 lata de tomate triturado", 1, .can, "tomate triturado"),
            ("1 TL gemahlener Koriander", 1, .teaspoon, "gemahlener Koriander"),
            ("frisch gemahlener Pfeffer", 1, nil, "Pfeffer"),
            ("1 Knoblauchzehe", 1, .clove, "Knoblauch"),
            ("2 Knoblauchzehen", 2, .clove, "Knoblauch"),
            ("2 Knoblauchzehen, gehackt", 2, .clove, "Knoblauch"),
            ("Knoblauchzehe", 1, .clove, "Knoblauch"),
            ("½ cup (110 g / 3.9 oz) granulated sugar", 110, .gram, "granulated sugar"),
            ("1 cup (2 sticks / 250 g / 8.8 oz) butter", 250, .gram, "butter"),
            ("1 Dose gehackte Tomaten (Abtropfgewicht 240 g)", 240, .gram, "Tomaten"),
            ("8-10 TL Flohsamenschalen (1 TL ~ 2g)", 9, .teaspoon, "Flohsamenschalen"),
            ("Handvoll Nüsse", 1, .handful, "Nüsse"),
            ("80 g gedämpftes Gemüse", 80, .gram, "Gemüse"),
            ("2 cups thinly-sliced Nappa cabbage", 2, .cup, "Nappa cabbage"),
            ("200 g BACK FAMILY gemahlene Mandeln", 200, .gram, "gemahlene Mandeln"),
            ("1 KASHI Pizza", 1, nil, "Pizza"),
            ("2 EL BBQ Sauce", 2, .tablespoon, "BBQ Sauce"),
            ("375cc de caldo", 375, .milliliter, "caldo"),
            ("1 cc de sal", 1, .teaspoon, "sal"),
            ("Espárragos a la plancha", 1, nil, "Espárragos"),
            ("200 g de lubina al horno", 200, .gram, "lubina"),
            ("Un vaso de batido.", 1, .glass, "batido"),
        ]
    )
    func realLineWords(_ text: String, _ quantity: Double, _ unit: QuantityUnit?, _ food: String) throws {
        let item = try #require(MealTextParser.parse(text).items.first, "\(text)")
        #expect(
            item.quantity == quantity && item.unit == unit && item.food == food,
            "\(text): \(item.quantity) \(String(describing: item.unit)) \(item.food)"
        )
    }

    @Test("a Glas of a preserve is a jar of 240 g drained, a Glas of milk a drinking glass; a vial is 2 ml, a stock tablet 10 g")
    func sizes() {
        #expect(PortionChooser.grams(quantity: 1, unit: .glass, portions: [], foodName: "Chickpeas, mature seeds, canned").grams == 240)
        #expect(PortionChooser.grams(quantity: 1, unit: .glass, portions: [], foodName: "Milk, whole, 3.25% milkfat").grams == 200)
        #expect(PortionChooser.grams(quantity: 2, unit: .jar, portions: [], foodName: "Artichokes").grams == 480)
        #expect(PortionChooser.grams(quantity: 1, unit: .vial, portions: [], foodName: "Rum flavouring").grams == 2)
        #expect(PortionChooser.grams(quantity: 1, unit: .tablet, portions: [], foodName: "Soup, stock, chicken").grams == 10)
        let cube = Portion(amount: 1, name: "Würfel", grams: 4, reference: "cube")
        #expect(PortionChooser.grams(quantity: 2, unit: .tablet, portions: [cube], foodName: "Bouillon").grams == 8)
    }

    @Test("alternatives: the first is counted and said, never all of them kept as one name")
    func alternatives() throws {
        let water = try #require(MealTextParser.parse("1 l de agua o caldo de verduras").items.first)
        #expect(water.food == "agua" && water.alternatives == ["caldo de verduras"] && water.unit == .liter)
        let milk = try #require(MealTextParser.parse("200 ml Milch oder Hafermilch").items.first)
        #expect(milk.food == "Milch" && milk.alternatives == ["Hafermilch"])
        #expect(milk.note(Localizer(.de)) == "„200 ml Milch oder Hafermilch“ nennt Alternativen: gezählt wird die erste, Milch.")
        // a range is no alternative
        let berries = try #require(MealTextParser.parse("7 u 8 fresas").items.first)
        #expect(berries.food == "fresas" && berries.alternatives.isEmpty && berries.quantity == 7.5)
    }
}
