import Testing

@testable import FoodKit

/// Issue 29, "a German user trusts every number": drinks measured in the words of a German
/// diary ("eine Halbe", "ein Viertel Wein", "Radler 0,5") are litres.
@Suite("German drink measures")
struct GermanDrinkMeasureTests {
    @Test(
        "a drink measure is its volume in litres; alone it is its drink; a half of a food stays a half",
        arguments: [
            ("eine Halbe", 0.5, QuantityUnit?.some(.liter), "Bier"),
            ("ne Halbe", 0.5, .liter, "Bier"),
            ("zwei Halbe", 1, .liter, "Bier"),
            ("eine Halbe Helles", 0.5, .liter, "Helles"),
            ("ein Seidla", 0.5, .liter, "Bier"),
            ("ein Seidel Bier", 0.5, .liter, "Bier"),
            ("ein Pfiff", 0.2, .liter, "Bier"),
            ("eine Stange Kölsch", 0.2, .liter, "Kölsch"),
            ("ein Schoppen Wein", 0.25, .liter, "Wein"),
            ("ein Achtel Rotwein", 0.125, .liter, "Rotwein"),
            ("ein Viertel Wein", 0.25, .liter, "Wein"),
            ("ein Viertel", 0.25, .liter, "Wein"),
            ("ein Krügerl", 0.5, .liter, "Bier"),
            ("ein Seiterl", 0.33, .liter, "Bier"),
            ("eine Maß", 1, .liter, "Bier"),
            ("eine halbe Banane", 0.5, nil, "Banane"),
            ("ein Viertel Apfel", 0.25, nil, "Apfel"),
            ("eine halbe Flasche Wein", 0.5, .bottle, "Wein"),
            ("eine Stange Lauch", 1, .stalk, "Lauch"),
        ]
    )
    func drinkMeasures(_ text: String, _ quantity: Double, _ unit: QuantityUnit?, _ food: String) throws {
        try expectOneItem(text, quantity, unit, food)
    }

    @Test(
        "an amount after the food: a decimal after a drink is litres, a number or '2x' counts",
        arguments: [
            ("Radler 0,5", 0.5, QuantityUnit?.some(.liter), "Radler"),
            ("Cola 0,33", 0.33, .liter, "Cola"),
            ("0,5 Bier", 0.5, .liter, "Bier"),
            ("Apfel 150g", 150, .gram, "Apfel"),
            ("Haferflocken 60 g", 60, .gram, "Haferflocken"),
            ("Pizza 1", 1, nil, "Pizza"),
            ("Brötchen 2x", 2, nil, "Brötchen"),
            ("2x Brötchen", 2, nil, "Brötchen"),
            ("Pizza 0,5", 0.5, nil, "Pizza"),
        ]
    )
    func amountAfterFood(_ text: String, _ quantity: Double, _ unit: QuantityUnit?, _ food: String) throws {
        try expectOneItem(text, quantity, unit, food)
    }
}
