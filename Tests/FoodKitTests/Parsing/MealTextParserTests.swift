import FoodKit
import Foundation
import Testing

@Suite("Natural-language meal entry")
struct MealTextParserTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        let text: String
        let items: [(Double, QuantityUnit?, String)]
        var testDescription: String { text }
    }

    static let phrases: [Expected] = [
        Expected(text: "2 eggs and a slice of toast", items: [(2, nil, "eggs"), (1, .slice, "toast")]),
        Expected(text: "200g chicken breast, 1 cup rice", items: [(200, .gram, "chicken breast"), (1, .cup, "rice")]),
        Expected(text: "1/2 avocado", items: [(0.5, nil, "avocado")]),
        Expected(text: "1½ Tassen Milch", items: [(1.5, .cup, "Milch")]),
        Expected(text: "Haferflocken 60g mit Milch", items: [(60, .gram, "Haferflocken"), (1, nil, "Milch")]),
        Expected(text: "zwei Brezeln", items: [(2, nil, "Brezeln")]),
        Expected(text: "un plátano", items: [(1, nil, "plátano")]),
        Expected(text: "un plátano y 1½ tazas de leche", items: [(1, nil, "plátano"), (1.5, .cup, "leche")]),
        Expected(text: "2-3 Scheiben Vollkornbrot", items: [(2.5, .slice, "Vollkornbrot")]),
        Expected(text: "1 1/2 cups oats", items: [(1.5, .cup, "oats")]),
        Expected(text: "250 ml Orangensaft; 1 EL Honig", items: [(250, .milliliter, "Orangensaft"), (1, .tablespoon, "Honig")]),
        Expected(text: "Quark 250 g + Beeren", items: [(250, .gram, "Quark"), (1, nil, "Beeren")]),
        Expected(text: "medio aguacate con pan", items: [(0.5, nil, "aguacate"), (1, nil, "pan")]),
        Expected(text: "a banana", items: [(1, nil, "banana")]),
        Expected(text: "1,5 kg Kartoffeln", items: [(1.5, .kilogram, "Kartoffeln")]),
        Expected(text: "dos huevos", items: [(2, nil, "huevos")]),
        Expected(text: "½ Brötchen", items: [(0.5, nil, "Brötchen")]),
        Expected(text: "eine Scheibe Käse und ein Apfel", items: [(1, .slice, "Käse"), (1, nil, "Apfel")]),
        Expected(text: "3 tbsp olive oil", items: [(3, .tablespoon, "olive oil")]),
        Expected(text: "Leberkäse", items: [(1, nil, "Leberkäse")]),
    ]

    @Test("phrases in three languages become items", arguments: phrases)
    func phrase(expected: Expected) {
        let parse = MealTextParser.parse(expected.text)
        #expect(parse.unparsed.isEmpty)
        #expect(parse.items.count == expected.items.count)
        for (item, want) in zip(parse.items, expected.items) {
            #expect(abs(item.quantity - want.0) < 1e-9, "\(item)")
            #expect(item.unit == want.1, "\(item)")
            #expect(item.food == want.2, "\(item)")
        }
    }

    @Test("a fragment without a food is reported, never guessed")
    func unparsed() {
        let parse = MealTextParser.parse("2 eggs, 200 g, and 3")
        #expect(parse.items.map(\.food) == ["eggs"])
        #expect(parse.unparsed == ["200 g", "3"])
    }

    @Test("no quantity typed means one of the default portion, and says so")
    func defaultQuantity() throws {
        let item = try #require(MealTextParser.parse("Milch").items.first)
        #expect(item.quantity == 1 && !item.quantityGiven && item.unit == nil)
        #expect(try #require(MealTextParser.parse("2 Eier").items.first).quantityGiven)
    }

    @Test("empty and punctuation-only text gives nothing")
    func empty() {
        #expect(MealTextParser.parse("").items.isEmpty)
        #expect(MealTextParser.parse(" , ; ").items.isEmpty)
        #expect(MealTextParser.parse(" , ; ").unparsed.isEmpty)
    }
}
