import DietCore
import Testing

@testable import FoodKit

/// Issue 29, finding 4: food diaries list foods by their amounts, without commas or "and".
@Suite("Food diary lines")
struct DiaryLineTests {
    @Test(
        "an amount and a unit after a food start the next food; amounts joined by x, to, or and plus do not",
        arguments: [
            ("200g skyr 40g granola", ["200 gram skyr", "40 gram granola"]),
            ("1 cup coffee 2 tbsp cream", ["1 cup coffee", "2 tablespoon cream"]),
            ("Vanilleeis, Topping 1 EL Schokosoße", ["1 - Vanilleeis", "1 tablespoon Schokosoße"]),
            ("Müsli 50 g mit Milch", ["50 gram Müsli", "1 - Milch"]),
            ("2 x 100 g Hackfleisch", ["200 gram Hackfleisch"]),
            ("3 cups flour or 400 g almond flour", ["3 cup flour"]),
        ]
    )
    func amounts(_ text: String, _ items: [String]) {
        let parsed = MealTextParser.parse(text).items.map { "\(String(format: "%g", $0.quantity)) \($0.unit?.rawValue ?? "-") \($0.food)" }
        #expect(parsed == items, "\(text): \(parsed)")
    }

    @Test(
        "when the food was eaten and words of the telling are not the food",
        arguments: [
            ("zum Mittagessen eine Pizza", ["1 - Pizza"]),
            ("Abends Brot, noch ein Joghurt", ["1 - Brot", "1 - Joghurt"]),
            ("Bratkartoffeln und Spiegelei dazu", ["1 - Bratkartoffeln", "1 - Spiegelei"]),
            ("for breakfast two eggs", ["2 - eggs"]),
            ("a media tarde una manzana", ["1 - manzana"]),
            ("media docena de huevos", ["6 - huevos"]),
        ]
    )
    func telling(_ text: String, _ items: [String]) {
        let parsed = MealTextParser.parse(text).items.map { "\(String(format: "%g", $0.quantity)) \($0.unit?.rawValue ?? "-") \($0.food)" }
        #expect(parsed == items, "\(text): \(parsed)")
    }

    @Test(
        "a remark on energy or points and the company a meal was eaten in are no food; w is with",
        arguments: [
            ("Greek yogurt 5 points", ["1 - Greek yogurt"]),
            ("Joghurt mit weniger als 100 kcal", ["1 - Joghurt"]),
            ("una galleta de menos de 50 kcal", ["1 - galleta"]),
            ("pizza with friends", ["1 - pizza"]),
            ("Kuchen mit der Familie", ["1 - Kuchen"]),
            ("oatmeal w blueberries", ["1 - oatmeal", "1 - blueberries"]),
        ]
    )
    func remarks(_ text: String, _ items: [String]) {
        let parse = MealTextParser.parse(text)
        let parsed = parse.items.map { "\(String(format: "%g", $0.quantity)) \($0.unit?.rawValue ?? "-") \($0.food)" }
        #expect(parsed == items && parse.unparsed.isEmpty, "\(text): \(parsed) \(parse.unparsed)")
    }

    @Test(
        "verbs and words of the telling around the foods, and when a food is eaten after it, are no food",
        arguments: [
            ("Quark mit 2 EL Milch verrühren", ["Quark", "Milch"]),
            ("Tee, viel trinken", ["Tee"]),
            ("wie gesagt Nudeln mit Pesto", ["Nudeln", "Pesto"]),
            ("dann mache ich mir ein Müsli", ["Müsli"]),
            ("Obst als Nachtisch", ["Obst"]),
            ("flan de postre", ["flan"]),
            ("una pera además", ["pera"]),
            ("aceite, a voluntad", ["aceite"]),
            ("2 potatoes, any variety", ["potatoes"]),
        ]
    )
    func prose(_ text: String, _ foods: [String]) {
        #expect(MealTextParser.parse(text).items.map(\.food) == foods, "\(text): \(MealTextParser.parse(text).items.map(\.food))")
    }

    @Test(
        "words of the telling after a meal time, a dollop and young describe; a count in parentheses says how many 'a few' are",
        arguments: [
            ("am Abend esse ich Nudeln", ["1 - Nudeln"]),
            ("Eis mit einem Klacks Sahne", ["1 - Eis", "1 - Sahne"]),
            ("1 Bund junge Zwiebeln", ["1 bunch Zwiebeln"]),
            ("ein paar Walnüsse (4-6)", ["5 - Walnüsse"]),
        ]
    )
    func tellingAndCounts(_ text: String, _ items: [String]) {
        let parsed = MealTextParser.parse(text).items.map { "\(String(format: "%g", $0.quantity)) \($0.unit?.rawValue ?? "-") \($0.food)" }
        #expect(parsed == items, "\(text): \(parsed)")
    }

    /// A dish made from a counted food is one item counting that food, so a meal's limits
    /// apply to the count ("Rührei aus 999999 Eiern" was 51 t of scrambled egg).
    @Test(
        "a dish made from a counted food: one item, the count and unit of what it is made from",
        arguments: [
            ("Rührei aus 2 Eiern", "2 - Rührei", "Eiern"), ("omelette from 3 eggs", "3 - omelette", "eggs"),
            ("Rührei aus 1,5 Eiern", "1.5 - Rührei", "Eiern"), ("tortilla de 3 huevos", "3 - tortilla", "huevos"),
        ]
    )
    func madeFrom(_ text: String, _ item: String, _ madeOf: String) throws {
        let parsed = MealTextParser.parse(text).items
        #expect(parsed.map { "\(String(format: "%g", $0.quantity)) \($0.unit?.rawValue ?? "-") \($0.food)" } == [item], "\(text)")
        #expect(parsed.first?.madeOf == madeOf, "\(text)")
        #expect(throws: ValidationError.self) { try MealTextParser.checkedParse(text.replacing(#/\d+(,\d+)?/#, with: "999999")) }
        // "200 g de arroz" is rice, made of nothing
        #expect(MealTextParser.parse("200 g de arroz").items.first?.madeOf == nil)
    }

    /// "Rührei aus 0 Eiern" was one large scrambled egg (124 kcal) where "0 Eier" is refused.
    @Test(
        "a dish made from none or less of a food names nothing to log, as the count alone does",
        arguments: ["Rührei aus 0 Eiern", "Rührei aus -3 Eiern", "omelette from 0 eggs", "Rührei aus 1e309 Eiern"]
    )
    func madeFromNothing(_ text: String) {
        let parse = MealTextParser.parse(text)
        #expect(parse.items.isEmpty && parse.unparsed == [text], "\(parse)")
    }
}
