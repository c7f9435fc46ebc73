import Testing

@testable import FoodKit

/// Issue 29, "a German user trusts every number": the measures people type in a German food
/// diary. Each class is a rule of the language, not of one line.
@Suite("German diary measures")
struct GermanMeasureTests {
    @Test(
        "a measure without a number is one of it, also after a size word",
        arguments: [
            ("Stück Schwarzwälder Kirschtorte", 1, QuantityUnit?.some(.piece), "Schwarzwälder Kirschtorte"),
            ("Glas Milch", 1, .glass, "Milch"),
            ("Tasse Kaffee", 1, .cup, "Kaffee"),
            ("Portion Pommes", 1, .portion, "Pommes"),
            ("Teller Suppe", 1, .portion, "Suppe"),
            ("Flasche Wasser", 1, .bottle, "Wasser"),
            ("Becher Joghurt", 1, .pot, "Joghurt"),
            ("Dose Cola", 1, .can, "Cola"),
            ("große Portion Pommes", 1, .portion, "Pommes"),
        ]
    )
    func withoutNumber(_ text: String, _ quantity: Double, _ unit: QuantityUnit?, _ food: String) throws {
        try expectOneItem(text, quantity, unit, food)
    }

    @Test("a measure without a number keeps what goes with the food")
    func withoutNumberBeforeWith() throws {
        let items = MealTextParser.parse("Scheibe Brot mit Butter").items
        #expect(items.map(\.food) == ["Brot", "Butter"])
        #expect(items.first?.unit == .slice && items.first?.quantity == 1)
    }

    @Test(
        "German sale and eating units are the units of the same meaning",
        arguments: [
            ("eine Tafel Schokolade", 1, QuantityUnit?.some(.bar), "Schokolade"),
            ("2 Tafeln Zartbitterschokolade", 2, .bar, "Zartbitterschokolade"),
            ("eine Reihe Schokolade", 1, .piece, "Schokolade"),
            ("ein Riegel Schokolade", 1, .piece, "Schokolade"),
            ("ein Riegel Müsli", 1, .stick, "Müsli"),
            ("eine Tüte Chips", 1, .package, "Chips"),
            ("eine Tüte Gummibärchen", 1, .package, "Gummibärchen"),
            ("ein Becher Joghurt", 1, .pot, "Joghurt"),
            ("ein Päckchen Kaugummi", 1, .package, "Kaugummi"),
            ("eine Packung Kekse", 1, .package, "Kekse"),
            ("eine Schale Erdbeeren", 1, .bowl, "Erdbeeren"),
            ("ein Schälchen Himbeeren", 1, .bowl, "Himbeeren"),
            ("eine Flasche Wasser", 1, .bottle, "Wasser"),
            ("ein Kännchen Kaffee", 1, .pot, "Kaffee"),
            ("ein Pott Kaffee", 1, .cup, "Kaffee"),
            ("zwei Pötte Tee", 2, .cup, "Tee"),
        ]
    )
    func saleUnits(_ text: String, _ quantity: Double, _ unit: QuantityUnit?, _ food: String) throws {
        try expectOneItem(text, quantity, unit, food)
    }

    @Test("a bar alone is the food: 'ein Riegel' is a bar, 'ein Müsliriegel' one")
    func barAlone() throws {
        try expectOneItem("ein Riegel", 1, nil, "Riegel")
        try expectOneItem("ein Müsliriegel", 1, nil, "Müsliriegel")
    }

    @Test(
        "a size word is not the food's name; it is kept among the descriptions",
        arguments: [
            ("ein großer Latte macchiato", 1, QuantityUnit?.none, "Latte macchiato", "großer"),
            ("ein kleines Bier", 1, nil, "Bier", "kleines"),
            ("eine große Portion Pommes", 1, .portion, "Pommes", "große"),
            ("ein kleiner Becher Joghurt", 1, .pot, "Joghurt", "kleiner"),
            ("kleine Tüte Chips", 1, .package, "Chips", "kleine"),
        ]
    )
    func sizeWords(_ text: String, _ quantity: Double, _ unit: QuantityUnit?, _ food: String, _ size: String) throws {
        try expectOneItem(text, quantity, unit, food)
        #expect(MealTextParser.parse(text).items.first?.preparation.contains(size) == true, "\(text)")
    }
}
