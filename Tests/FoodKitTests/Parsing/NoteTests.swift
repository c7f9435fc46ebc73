import Testing

@testable import FoodKit

/// Issue 29, finding 4: notes of use and descriptions are no food, wherever they stand.
@Suite("Notes in recipe lines")
struct NoteTests {
    @Test(
        "a note before the amount, an abbreviated note and a length are not the food",
        arguments: [
            ("n. B. Muskatnuss", 1, QuantityUnit?.none, "Muskatnuss"),
            ("Zimt n.B.", 1, nil, "Zimt"),
            ("optional: 2 EL Sesam", 2, .tablespoon, "Sesam"),
            ("Optional 1 cup raisins", 1, .cup, "raisins"),
            ("opcional: 100 g de nueces", 100, .gram, "nueces"),
            ("cheese of choice", 1, nil, "cheese"),
            ("fruta a elegir", 1, nil, "fruta"),
            ("4 cm frischer Kurkuma", 4, nil, "Kurkuma"),
        ]
    )
    func notes(_ text: String, _ quantity: Double, _ unit: QuantityUnit?, _ food: String) throws {
        let items = MealTextParser.parse(text).items
        let item = try #require(items.first, "\(text)")
        #expect(
            items.count == 1 && item.quantity == quantity && item.unit == unit && item.food == food,
            "\(text): \(items.map { "\($0.quantity) \(String(describing: $0.unit)) \($0.food)" })"
        )
    }

    @Test(
        "after a comma, descriptions and a food name start a new food; German words in lower case describe the food in capitals",
        arguments: [
            ("Brötchen, weich gekochtes Ei", ["Brötchen", "Ei"]),
            ("rice, fresh mango", ["rice", "mango"]),
            ("1 EL Senf, mittelscharf", ["Senf"]),
            ("200 g Gouda, mittelalt", ["Gouda"]),
            ("Salz, Pfeffer", ["Salz", "Pfeffer"]),
            ("Sal, pimienta", ["Sal", "pimienta"]),
            ("2 tomatoes, sliced thin", ["tomatoes"]),
        ]
    )
    func comma(_ text: String, _ foods: [String]) {
        #expect(MealTextParser.parse(text).items.map(\.food) == foods, "\(text): \(MealTextParser.parse(text).items.map(\.food))")
    }
}
