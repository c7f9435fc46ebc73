import DietCore
import FoodKit
import Testing

@Suite("Limits of a meal in words")
struct MealTextLimitsTests {
    @Test("more than 1,000 characters is refused with the length received")
    func tooLong() {
        let text = String(repeating: "a", count: 1001)
        #expect(
            throws: ValidationError(
                field: .mealText,
                allowed: .length(min: 1, max: 1000),
                received: "1001"
            )
        ) {
            try MealTextParser.checkedParse(text)
        }
        #expect(throws: Never.self) { try MealTextParser.checkedParse(String(repeating: "egg ", count: 250)) }
    }

    @Test("more than 30 foods is refused with the number received; 30 are fine")
    func tooMany() throws {
        let many = Array(repeating: "egg", count: 31).joined(separator: ", ")
        #expect(throws: ValidationError(field: .mealTextFoods, allowed: .range(min: 1, max: 30, digits: 0, unit: nil), received: "31")) {
            try MealTextParser.checkedParse(many)
        }
        #expect(try MealTextParser.checkedParse(Array(repeating: "egg", count: 30).joined(separator: " and ")).items.count == 30)
    }

    @Test(
        "a quantity no meal has is refused: by count above 50, by weight or volume above 5,000 g or ml",
        arguments: [
            (
                "10000 eggs",
                ValidationError(field: .quantity, allowed: .range(min: 0, max: 50, digits: 0, unit: nil), received: "10000 (\"10000 eggs\")")
            ),
            (
                "51 slices of toast",
                ValidationError(
                    field: .quantity,
                    allowed: .range(min: 0, max: 50, digits: 0, unit: nil),
                    received: "51 (\"51 slices of toast\")"
                )
            ),
            (
                "Milch 6 l",
                ValidationError(field: .quantity, allowed: .range(min: 0, max: 5000, digits: 0, unit: "ml"), received: "6000 ml (\"Milch 6 l\")")
            ),
            (
                "12 lb steak",
                ValidationError(field: .quantity, allowed: .range(min: 0, max: 5000, digits: 0, unit: "g"), received: "5443 g (\"12 lb steak\")")
            ),
        ]
    )
    func nonsense(text: String, error: ValidationError) {
        #expect(throws: error) { try MealTextParser.checkedParse(text) }
    }

    @Test("ordinary meals pass the limits unchanged")
    func ordinary() throws {
        for text in ["2 eggs and a slice of toast", "Haferflocken 60g mit Milch", "50 almonds", "1 kg Kartoffeln", "2 Tassen Tee\nund 1 Apfel"] {
            #expect(try MealTextParser.checkedParse(text) == MealTextParser.parse(text), "\(text)")
        }
    }

    @Test("a control character in a meal in words is refused")
    func control() {
        #expect(throws: ValidationError(field: .mealText, allowed: .noControlCharacters, received: "\"2 eggs\\u001B[2J\"")) {
            try MealTextParser.checkedParse("2 eggs\u{1B}[2J")
        }
    }
}
