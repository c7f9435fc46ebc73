import Testing

@testable import FoodKit

/// Issue 29: Spanish words that measure a food without being a listed unit, and words that
/// only describe it.
@Suite("Spanish measure words")
struct SpanishMeasureWordTests {
    @Test(
        "a medida is the glass of the recipe, a presa, a filete and a chocolate onza are pieces, a plato hondo is a bowl",
        arguments: [
            ("2 medidas de leche", 2.0, QuantityUnit.glass, "leche"),
            ("media medida de aceite de girasol", 0.5, .glass, "aceite de girasol"),
            ("dos presas de conejo", 2, .piece, "conejo"),
            ("3 filetes de merluza", 3, .piece, "merluza"),
            ("filete de salmón a la plancha", 1, .piece, "salmón"),
            ("dos onzas de chocolate negro", 2, .piece, "chocolate negro"),
            ("un plato hondo de lentejas", 1, .bowl, "lentejas"),
        ]
    )
    func measures(_ text: String, _ quantity: Double, _ unit: QuantityUnit, _ food: String) throws {
        let item = try #require(MealTextParser.parse(text).items.first, "\(text)")
        #expect(
            item.quantity == quantity && item.unit == unit && item.food == food,
            "\(text): \(item.quantity) \(String(describing: item.unit)) \(item.food)"
        )
    }

    @Test(
        "queso fresco is a cheese of its own; lonchas are a cut, bien and a voluntad only describe",
        arguments: [
            ("100 g de queso fresco batido", "queso fresco"),
            ("jamón en lonchas finas", "jamón"),
            ("1 bote de garbanzos bien lavados", "garbanzos"),
            ("pan a voluntad", "pan"),
        ]
    )
    func descriptions(_ text: String, _ food: String) throws {
        let items = MealTextParser.parse(text).items
        #expect(items.map(\.food) == [food], "\(text): \(items.map(\.food))")
    }
}
