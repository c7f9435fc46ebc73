import FoodKit
import Foundation
import Testing

/// Issue 15: the shapes real ingredient lines and spoken meals take, beyond "amount unit food".
@Suite("Phrase shapes: amounts not first, ranges, compounds, commas, preparation and dish names")
struct PhraseShapeTests {
    static func only(_ text: String, dishes: Set<String> = []) -> ParsedItem? {
        let parse = MealTextParser.parse(text, dishes: dishes)
        return parse.items.count == 1 && parse.unparsed.isEmpty ? parse.items[0] : nil
    }

    @Test(
        "the part of a food before its amount: juice of half an orange is orange juice, counted in oranges",
        arguments: [
            ("Juice of 1/2 orange", 0.5, "orange juice"), ("juice of 2 limes", 2, "lime juice"), ("zest of 1 lemon", 1, "lemon zest"),
            ("Saft einer halben Zitrone", 0.5, "Zitronensaft"), ("der Saft von 2 Orangen", 2, "Orangensaft"),
            ("zumo de medio limón", 0.5, "zumo de limón"), ("el jugo de 1 naranja", 1, "jugo de naranja"),
        ] as [(String, Double, String)]
    )
    func partBeforeAmount(text: String, quantity: Double, food: String) throws {
        let item = try #require(Self.only(text), "\(MealTextParser.parse(text))")
        #expect(item.quantity == quantity && item.unit == nil && item.food == food && item.quantityGiven, "\(item)")
    }

    @Test(
        "a range keeps both bounds and logs the middle",
        arguments: [
            ("2 to 3 tablespoons sugar", 2.0, 3.0, QuantityUnit?.some(.tablespoon), "sugar"),
            ("1 to 1 1/2 pounds beef", 1, 1.5, .pound, "beef"), ("1 1/2–2 EL Zucker", 1.5, 2, .tablespoon, "Zucker"),
            ("2-3 Scheiben Brot", 2, 3, .slice, "Brot"), ("2 bis 3 Eier", 2, 3, nil, "Eier"), ("2 a 3 huevos", 2, 3, nil, "huevos"),
            ("2 o 3 cucharadas de aceite", 2, 3, .tablespoon, "aceite"), ("1½-2 cups milk", 1.5, 2, .cup, "milk"),
        ] as [(String, Double, Double, QuantityUnit?, String)]
    )
    func ranges(text: String, low: Double, high: Double, unit: QuantityUnit?, food: String) throws {
        let item = try #require(Self.only(text), "\(MealTextParser.parse(text))")
        #expect(item.range == low...high && item.quantity == (low + high) / 2, "\(item)")
        #expect(item.unit == unit && item.food == food, "\(item)")
    }

    @Test(
        "compounds: added measures in the first unit, a count times a weight, a weight in parentheses wins",
        arguments: [
            ("1/2 cup plus 1 tablespoon flour", 0.5625, QuantityUnit.cup, "flour"), ("1 cup + 2 tbsp milk", 1.125, .cup, "milk"),
            ("1 lb 8 oz potatoes", 1.5, .pound, "potatoes"), ("2 x 100 g Joghurt", 200, .gram, "Joghurt"),
            ("2x100g Joghurt", 200, .gram, "Joghurt"), ("1 Becher Joghurt (500 g)", 500, .gram, "Joghurt"),
            ("1 can (15 oz) black beans", 15, .ounce, "black beans"), ("1 (15-ounce) can black beans", 15, .ounce, "black beans"),
            ("1 Packung Nudeln (ca. 500 g)", 500, .gram, "Nudeln"), ("dos tazas y media de harina", 2.5, .cup, "harina"),
            ("one and a half cups rice", 1.5, .cup, "rice"),
        ] as [(String, Double, QuantityUnit, String)]
    )
    func compounds(text: String, quantity: Double, unit: QuantityUnit, food: String) throws {
        let item = try #require(Self.only(text), "\(MealTextParser.parse(text))")
        #expect(abs(item.quantity - quantity) < 1e-9 && item.unit == unit && item.food == food, "\(item)")
    }

    @Test(
        "commas and parentheses inside one item; preparation words kept apart",
        arguments: [
            ("1/2 pound firm, crisp green beans", 0.5, "green beans", ["firm", "crisp"]),
            ("2 1/2 cups diced, peeled potatoes", 2.5, "potatoes", ["diced", "peeled"]),
            ("1 onion (optional)", 1, "onion", ["optional"]), ("2 cloves garlic, minced", 2, "garlic", ["minced"]),
            ("3 Zehen Knoblauch, fein gehackt", 3, "Knoblauch", ["fein", "gehackt"]),
            ("1 Zwiebel, gewürfelt", 1, "Zwiebel", ["gewürfelt"]), ("100 g geriebener Käse", 100, "Käse", ["geriebener"]),
            ("2 dientes de ajo picados", 2, "ajo", ["picados"]), ("50 g de queso rallado", 50, "queso", ["rallado"]),
            ("1 cup finely chopped onion", 1, "onion", ["finely", "chopped"]),
            ("2 potatoes, peeled and cut into cubes", 2, "potatoes", ["peeled", "cut", "cubes"]),
            ("Salt to taste", 1, "Salt", ["taste"]), ("sal al gusto", 1, "sal", ["gusto"]),
        ] as [(String, Double, String, [String])]
    )
    func preparation(text: String, quantity: Double, food: String, preparation: [String]) throws {
        let item = try #require(Self.only(text), "\(MealTextParser.parse(text))")
        #expect(item.quantity == quantity && item.food == food, "\(item)")
        #expect(preparation.allSatisfy(item.preparation.contains), "\(item)")
    }

    @Test("a known dish is not split on its connector; other connectors split between foods")
    func dishes() throws {
        let dishes: Set<String> = ["arroz con leche", "mac and cheese", "cafe con leche"]
        #expect(Self.only("arroz con leche", dishes: dishes)?.food == "arroz con leche")
        #expect(Self.only("a bowl of mac and cheese", dishes: dishes).map { ($0.unit, $0.food) } ?? (nil, "") == (.bowl, "mac and cheese"))
        let doner = MealTextParser.parse("Döner mit Pommes und eine Cola", dishes: dishes)
        #expect(doner.items.map(\.food) == ["Döner", "Pommes", "Cola"] && doner.unparsed.isEmpty)
        let breakfast = MealTextParser.parse("café con leche y una tostada con tomate", dishes: dishes)
        #expect(breakfast.items.map(\.food) == ["café con leche", "tostada", "tomate"])
        // without the dish known, the parts are foods of their own
        #expect(MealTextParser.parse("arroz con leche").items.map(\.food) == ["arroz", "leche"])
    }

    @Test(
        "a separator between two preparation words or two foods",
        arguments: [
            ("salt and pepper", ["salt", "pepper"]), ("1 onion, peeled and diced", ["onion"]),
            ("2 Eier, 1 Brötchen und Butter", ["Eier", "Brötchen", "Butter"]), ("Milch,Brot", ["Milch", "Brot"]),
            ("pan y medio aguacate", ["pan", "aguacate"]),
        ] as [(String, [String])]
    )
    func separators(text: String, foods: [String]) {
        #expect(MealTextParser.parse(text).items.map(\.food) == foods, "\(MealTextParser.parse(text))")
    }
}
