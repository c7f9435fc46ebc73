import Testing

@testable import FoodKit

/// Issue 29, last round: how real recipe and diary lines in Spanish, English and German say
/// their foods. Each line is read as "quantity|unit|food" items.
@Suite("Real line rules")
struct RealLineRuleTests {
    static func read(_ text: String) -> [String] {
        MealTextParser.parse(text).items.map { item in
            let quantity = item.quantity.rounded() == item.quantity ? String(Int(item.quantity)) : String(item.quantity)
            return "\(quantity)|\(item.unit?.rawValue ?? "-")|\(item.food)"
        }
    }

    @Test(
        "Spanish",
        arguments: [
            // a second amount with only how it is made repeats the food and unit before it
            ("5 dientes de ajo pelados y 3 machacados", ["5|clove|ajo", "3|clove|ajo"]),
            // "e" after a weight is a typo for "de"
            ("30 g e harina", ["30|gram|harina"]),
            // a dish named by the weights of what it holds; "más" adds the next
            ("Ensalada de 100 g de tomate, más 30 g de queso", ["100|gram|tomate", "30|gram|queso"]),
            // the weight of a part in parentheses weighs the food
            ("un sándwich pequeño (60 g de pan) con queso", ["60|gram|sándwich", "1|-|queso"]),
            // "un salteado de" says how the foods are made
            ("un salteado de champiñones", ["1|-|champiñones"]),
            // a relative clause names nothing
            ("pescado al horno, que serviremos con arroz", ["1|-|pescado", "1|-|arroz"]),
            // an elongated word is read as the word
            ("muuuuchas fresas", ["1|-|fresas"]),
            // "original" and "no" before a participle describe
            ("un vaso de leche de vaca original no desnatada", ["1|glass|leche de vaca"]),
            // a participle followed by "de" and its grain names a product
            ("100 g de copos tostados de avena", ["100|gram|copos tostados de avena"]),
            // a label ending in "con" before a list names no food
            ("Mezcla con: canela, clavo, jengibre", ["1|-|canela", "1|-|clavo", "1|-|jengibre"]),
            // an established dish stays one item without the food database
            ("chili con carne y arroz", ["1|-|chili con carne", "1|-|arroz"]),
            // two grains make one bread
            ("una rebanada de pan de centeno y espelta", ["1|slice|pan de centeno y espelta"]),
            // a full stop and a capital end a sentence
            ("Una tortilla con queso. Puede llevar también jamón", ["1|-|tortilla", "1|-|queso", "1|-|jamón"]),
            // a glass in parentheses does not replace a typed volume
            ("300 ml (un vaso grande) de agua", ["300|milliliter|agua"]),
        ]
    )
    func spanish(_ text: String, _ items: [String]) {
        #expect(Self.read(text) == items, "\(text)")
    }

    @Test(
        "English",
        arguments: [
            ("200g air fried potatoes", ["200|gram|potatoes"]),
            ("1 cup dried or fresh cranberries", ["1|cup|dried cranberries"]),
            ("a med latte", ["1|-|latte"]),
            ("black tea 2 sugar", ["1|-|black tea", "2|-|sugar"]),
            ("m&m cookies", ["1|-|m&m cookies"]),
            ("6 artichokes, stems removed, halved", ["6|-|artichokes"]),
            ("oatmeal, sweetened with honey", ["1|-|oatmeal", "1|-|honey"]),
        ]
    )
    func english(_ text: String, _ items: [String]) {
        #expect(Self.read(text) == items, "\(text)")
    }

    @Test(
        "German",
        arguments: [
            ("1 EL fein gehacktes Basilikum", ["1|tablespoon|Basilikum"]),
            ("2 in Scheiben geschnittene Zucchini", ["2|-|Zucchini"]),
            ("eine minikleine Portion Pommes", ["1|portion|Pommes"]),
            ("1 Packung „Gummibärchen“", ["1|package|Gummibärchen"]),
            ("500 g Apfelsorte: Boskop, Elstar, Jonagold", ["500|gram|Boskop"]),
            ("2 Brötchen - diesmal mit Butter", ["2|-|Brötchen", "1|-|Butter"]),
        ]
    )
    func german(_ text: String, _ items: [String]) {
        #expect(Self.read(text) == items, "\(text)")
    }
}
