import Testing

@testable import FoodKit

/// Issue 29, finding 4: a line offering alternatives names one food, the first, with the line's
/// amount; the others are said.
@Suite("Alternatives in recipe lines")
struct AlternativeTests {
    @Test(
        "the first alternative is the food; a describing first alternative takes the noun of the last",
        arguments: [
            ("2 EL gelbe oder rote Linsen", "gelbe Linsen", ["rote Linsen"]),
            ("1 cup light or dark brown sugar", "light brown sugar", ["dark brown sugar"]),
            ("2 cups shredded or diced chicken", "chicken", []),
            ("200 ml Apfelsaft/Orangensaft", "Apfelsaft", ["Orangensaft"]),
            ("Zucker und/oder Honig", "Zucker", ["Honig"]),
            ("una cucharada de azúcar y/o miel", "azúcar", ["miel"]),
            ("1 l de leche o bebida de avena", "leche", ["bebida de avena"]),
            ("juice of 2 limes or lemons", "lime juice", []),
        ]
    )
    func first(_ text: String, _ food: String, _ others: [String]) throws {
        let items = MealTextParser.parse(text).items
        let item = try #require(items.first, "\(text)")
        #expect(items.count == 1 && item.food == food && item.alternatives == others, "\(text): \(items.map(\.food)) \(item.alternatives)")
    }

    @Test(
        "a list after a comma that ends in an alternative is one food, unless a new amount follows it",
        arguments: [
            ("garbanzos, lentejas o alubias", ["garbanzos"]),
            ("1 lb pork, veal, or beef, cut in cubes", ["pork"]),
            ("3 Kartoffeln, oder andere festkochende Kartoffeln", ["Kartoffeln"]),
            ("2 Scheiben Brot, Butter oder Margarine, 1 Apfel", ["Brot", "Butter", "Apfel"]),
            ("pan, una o dos piezas de fruta", ["pan", "fruta"]),
        ]
    )
    func lists(_ text: String, _ foods: [String]) {
        let items = MealTextParser.parse(text).items
        #expect(items.map(\.food) == foods, "\(text): \(items.map(\.food))")
    }

    @Test(
        "two amounts of different sizes offered for one food: the first counts; a second amount after the food ends a range",
        arguments: [
            ("2 große oder 3 kleine Kartoffeln", 2.0, "Kartoffeln"),
            ("1 large or 2 small zucchini", 1, "zucchini"),
            ("una cebolla grande o dos pequeñas", 1, "cebolla"),
            ("una naranja o dos", 1.5, "naranja"),
            ("ein Ei oder zwei", 1.5, "Ei"),
        ]
    )
    func amounts(_ text: String, _ quantity: Double, _ food: String) throws {
        let items = MealTextParser.parse(text).items
        let item = try #require(items.first, "\(text)")
        #expect(items.count == 1 && item.quantity == quantity && item.food == food, "\(text): \(items.map { "\($0.quantity) \($0.food)" })")
    }

    @Test(
        "a weight before a list of foods without amounts or 'and' offers them in exchange; a list ending in 'and' names foods eaten",
        arguments: [
            ("150 g de peras, ciruelas, kiwi, piña", ["peras"]),
            ("100 g Hähnchen, Pute, Rind", ["Hähnchen"]),
            ("100 g Reis, Hähnchen und Brokkoli", ["Reis", "Hähnchen", "Brokkoli"]),
            ("200 g Nudeln, 1 Apfel, Tee", ["Nudeln", "Apfel", "Tee"]),
        ]
    )
    func exchangeLists(_ text: String, _ foods: [String]) {
        #expect(MealTextParser.parse(text).items.map(\.food) == foods, "\(text): \(MealTextParser.parse(text).items.map(\.food))")
    }
}
