import Testing

@testable import FoodKit

/// Issue 29: German compounds that hold a unit, and compounds split before "oder" or "und".
@Suite("German compounds")
struct GermanCompoundTests {
    @Test(
        "a compound ending in a unit is that unit of the food it starts with; a pack named by its count is a pack",
        arguments: [
            ("3 Salbeiblätter", 3, QuantityUnit?.some(.leaf), "Salbei"),
            ("ein Kohlblatt", 1, .leaf, "Kohl"),
            ("2 Käsescheiben", 2, .slice, "Käse"),
            ("eine Viererpackung Joghurt", 1, .package, "Joghurt"),
        ]
    )
    func unitInCompound(_ text: String, _ quantity: Double, _ unit: QuantityUnit?, _ food: String) throws {
        let item = try #require(MealTextParser.parse(text).items.first, "\(text)")
        #expect(
            item.quantity == quantity && item.unit == unit && item.food == food,
            "\(text): \(item.quantity) \(String(describing: item.unit)) \(item.food)"
        )
    }

    @Test("leaves that are the food stay the food")
    func leafFood() throws {
        let item = try #require(MealTextParser.parse("3 Curryblätter").items.first)
        #expect(item.unit == nil && item.food == "Curryblätter")
    }

    @Test(
        "a compound cut before oder or und takes the last word of the compound after it",
        arguments: [
            ("1 EL Sonnenblumen- oder Rapsöl", ["Sonnenblumenöl"]),
            ("Apfel- und Orangensaft", ["Apfelsaft", "Orangensaft"]),
            ("200 g Weizen- oder Dinkelmehl", ["Weizenmehl"]),
        ]
    )
    func splitCompound(_ text: String, _ foods: [String]) {
        #expect(MealTextParser.parse(text).items.map(\.food) == foods, "\(text): \(MealTextParser.parse(text).items.map(\.food))")
    }

    @Test("the peel of a fruit named with its peel is that peel")
    func namedPeel() throws {
        let item = try #require(MealTextParser.parse("Abrieb einer Orangenschale").items.first)
        #expect(item.food == "Orangenschale")
    }
}
