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
}
