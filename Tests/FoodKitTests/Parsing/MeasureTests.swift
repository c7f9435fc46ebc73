import Testing

@testable import FoodKit

/// Issue 29, finding 4: a weight or volume typed besides the amount. It wins over the unit before
/// it, in parentheses or not; a counted piece keeps its count beside an approximate weight.
@Suite("Measures besides the amount")
struct MeasureTests {
    @Test(
        "a counted piece keeps its count beside an approximate weight; a weight wins over a unit and over an exact count",
        arguments: [
            ("2 Zucchini (ca. 400 g)", 2, QuantityUnit?.none, "Zucchini"),
            ("1 onion (about 150 g)", 1, nil, "onion"),
            ("1 pechuga de pollo (unos 200 g)", 1, nil, "pechuga de pollo"),
            ("1 Aubergine (~ 300 g)", 1, nil, "Aubergine"),
            ("1 Mango (350 g)", 350, .gram, "Mango"),
            ("1 Becher Sahne (ca. 200 g)", 200, .gram, "Sahne"),
            ("Yogur natural (máximo 125 g)", 125, .gram, "Yogur natural"),
        ]
    )
    func inParentheses(_ text: String, _ quantity: Double, _ unit: QuantityUnit?, _ food: String) throws {
        try expectOne(text, quantity, unit, food)
    }

    @Test(
        "a sum in parentheses adds its weights; 'each' and 'slab' after a count say nothing of the food",
        arguments: [
            ("1/2 cup + 1 tbsp (100 g + 8 g) butter", 108, QuantityUnit?.some(.gram), "butter"),
            ("2 ea. avocados", 2, nil, "avocados"),
            ("1 slab pork belly", 1, nil, "pork belly"),
        ]
    )
    func sumsAndCounts(_ text: String, _ quantity: Double, _ unit: QuantityUnit?, _ food: String) throws {
        try expectOne(text, quantity, unit, food)
    }

    @Test(
        "a measure after the food without parentheses, and the contents of a container, weigh like one in parentheses",
        arguments: [
            ("1 Lachsfilet, ca. 125 g", 1, QuantityUnit?.none, "Lachsfilet"),
            ("1 chicken breast about 6 oz", 1, nil, "chicken breast"),
            ("1 Glas Oliven, 290 g", 290, .gram, "Oliven"),
            ("un paquete de 500 g de espaguetis", 500, .gram, "espaguetis"),
            ("3 latas de 80 g de atún", 240, .gram, "atún"),
            ("2 Eier, 100 g Speck", 2, nil, "Eier"),
        ]
    )
    func withoutParentheses(_ text: String, _ quantity: Double, _ unit: QuantityUnit?, _ food: String) throws {
        let parse = MealTextParser.parse(text)
        let item = try #require(parse.items.first, "\(text)")
        #expect(
            item.quantity == quantity && item.unit == unit && item.food == food && parse.unparsed.isEmpty,
            "\(text): \(item.quantity) \(String(describing: item.unit)) \(item.food) \(parse.unparsed)"
        )
    }

    @Test(
        "a part after 'and' adds to the unit, 'between' opens a range, a small spoon is a teaspoon, a cup in parentheses counts",
        arguments: [
            ("2 kg y 1/2 de naranjas", 2.5, QuantityUnit?.some(.kilogram), "naranjas"),
            ("1 taza y un cuarto de agua", 1.25, .cup, "agua"),
            ("entre 200 g y 250 g de arroz", 225, .gram, "arroz"),
            ("zwischen 3 und 4 EL Mehl", 3.5, .tablespoon, "Mehl"),
            ("between 1 and 2 cups of broth", 1.5, .cup, "broth"),
            ("una cucharada pequeña de miel", 1, .teaspoon, "miel"),
            ("una cucharilla de postre de canela", 1, .teaspoon, "canela"),
            ("100 g (1/2 de taza) de lentejas", 0.5, .cup, "lentejas"),
            ("80 g (una taza cocida) de quinoa", 1, .cup, "quinoa"),
            ("1 can (~15 oz) black beans", 15, .ounce, "black beans"),
            ("8 fl oz orange juice", 8, .ounce, "orange juice"),
        ]
    )
    func amounts(_ text: String, _ quantity: Double, _ unit: QuantityUnit?, _ food: String) throws {
        try expectOne(text, quantity, unit, food)
    }

    @Test(
        "a food free of something keeps it in its name; what is taken off it is a preparation",
        arguments: [
            ("200 g de yogur sin azúcar", "yogur sin azúcar"), ("Müsli ohne Zucker", "Müsli ohne Zucker"), ("2 manzanas sin piel", "manzanas"),
        ]
    )
    func freeFrom(_ text: String, _ food: String) throws {
        let item = try #require(MealTextParser.parse(text).items.first, "\(text)")
        #expect(item.food == food, "\(text): \(item.food)")
    }

    private func expectOne(_ text: String, _ quantity: Double, _ unit: QuantityUnit?, _ food: String) throws {
        let items = MealTextParser.parse(text).items
        let item = try #require(items.first, "\(text)")
        #expect(
            items.count == 1 && item.quantity == quantity && item.unit == unit && item.food == food,
            "\(text): \(items.map { "\($0.quantity) \(String(describing: $0.unit)) \($0.food)" })"
        )
    }
}
