import Testing

@testable import FoodKit

/// Issue 29, finding 4: how Spanish recipe and diary lines describe a food.
@Suite("Spanish recipe lines")
struct SpanishLineTests {
    @Test(
        "a participle after the food says how it is made; one that names a product stays",
        arguments: [
            ("200 g de pechuga de pollo hervida", "pechuga de pollo", ["hervida"]),
            ("un puñado de nueces tostadas", "nueces", ["tostadas"]),
            ("espinacas salteadas", "espinacas", ["salteadas"]),
            ("2 rebanadas de pan frito", "pan", ["frito"]),
            ("un vaso de leche semidesnatada", "leche semidesnatada", []),
            ("100 g de salmón ahumado", "salmón ahumado", []),
            ("1 lata de tomate frito", "tomate frito", []),
            ("1 l de leche o bebida de avena", "leche", []),
        ]
    )
    func participles(_ text: String, _ food: String, _ preparation: [String]) throws {
        let item = try #require(MealTextParser.parse(text).items.first, "\(text)")
        #expect(item.food == food && item.preparation == preparation, "\(text): \(item.food) \(item.preparation)")
    }
}
