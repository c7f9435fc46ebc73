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
            ("1 sobre de levadura química", .package, "levadura química"),
            ("250 grs de harina", .gram, "harina"),
            ("1 lt. de leche", .liter, "leche"),
            ("2 cdra de aceite de oliva", .tablespoon, "aceite de oliva"),
            ("1 Glas Kichererbsen", .glass, "Kichererbsen"),
            ("1 Fläschchen Rumaroma", .vial, "Rumaroma"),
            ("1 Brühwürfel", nil, "Brühwürfel"),
        ]
    )
    func units(_ text: String, _ unit: QuantityUnit?, _ food: String) throws {
        let item = try #require(MealTextParser.parse(text).items.first, "\(text)")
        #expect(item.unit == unit, "\(text): \(String(describing: item.unit))")
        #expect(item.food == food, "\(text): \(item.food)")
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
