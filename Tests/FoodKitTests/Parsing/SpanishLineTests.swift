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
            ("un café descafeinado", "café descafeinado", []),
            ("frutos secos variados", "frutos secos variados", []),
        ]
    )
    func participles(_ text: String, _ food: String, _ preparation: [String]) throws {
        let item = try #require(MealTextParser.parse(text).items.first, "\(text)")
        #expect(item.food == food && item.preparation == preparation, "\(text): \(item.food) \(item.preparation)")
    }

    @Test(
        "what is served with a food is a food of its own; a slash between spaces lists the courses of a menu",
        arguments: [
            ("merluza al horno, acompañada de patatas", ["merluza", "patatas"]),
            ("tortilla acompañada con ensalada o pan", ["tortilla", "ensalada"]),
            ("Crema de calabaza / Lubina con verduras / Fruta", ["Crema de calabaza", "Lubina", "verduras", "Fruta"]),
        ]
    )
    func lists(_ text: String, _ foods: [String]) {
        #expect(MealTextParser.parse(text).items.map(\.food) == foods, "\(text): \(MealTextParser.parse(text).items.map(\.food))")
    }
}
