import DietCore
import Foundation
import Testing

@Suite("Numbers as people type them (docs/rules.md §4)")
struct NumberInputTests {
    @Test(
        "a decimal comma and a decimal point mean the same",
        arguments: [
            ("72,4", 72.4), ("72.4", 72.4), (" 450,5 ", 450.5), ("450", 450), ("0,5", 0.5), (",5", 0.5), ("-3,0", -3),
        ]
    )
    func decimals(text: String, value: Double) {
        #expect(NumberInput.decimal(text) == value)
    }

    @Test(
        "anything but one number is not a number",
        arguments: ["", " ", "abc", "1,2,3", "1.234,5", "1e5", "inf", "nan", "72,4kg", "٧٢", "--1", "+", "7-2", "72-"]
    )
    func notNumbers(text: String) {
        #expect(NumberInput.decimal(text) == nil)
    }

    @Test("a whole-number field takes a decimal and rounds it: 450,5 kcal is 451")
    func wholeRounds() throws {
        #expect(try NumberInput.whole("450,5", field: .calories, range: 1...9999, unit: "kcal") == 451)
        #expect(try NumberInput.whole("450,4", field: .calories, range: 1...9999, unit: "kcal") == 450)
    }

    @Test("a refusal names the field, the range with its unit and what was typed, in de, en and es")
    func refusalMessages() {
        // When a German user types letters into the calories field
        let error = #expect(throws: ValidationError.self) {
            try NumberInput.whole("viel", field: .calories, range: 1...9999, unit: "kcal")
        }
        // Then every language says which field, which range with the unit and what was typed
        #expect(error.map { Localizer(.de).render($0.message) } == "Kalorien: erlaubt ist 1 bis 9.999 kcal; du hast \"viel\" eingegeben.")
        #expect(error.map { Localizer(.en).render($0.message) } == "Calories must be from 1 to 9,999 kcal; you entered \"viel\".")
        #expect(error.map { Localizer(.es).render($0.message) } == "Calorías: se admite de 1 a 9999 kcal; introducido: \"viel\".")
    }

    @Test("nothing typed reads as nothing, not as an empty quote")
    func nothingTyped() {
        let error = #expect(throws: ValidationError.self) {
            try NumberInput.value("  ", field: .weight, range: 30...200, digits: 1, unit: "kg")
        }
        #expect(error.map { Localizer(.en).render($0.message) } == "Weight must be from 30.0 to 200.0 kg; you entered nothing.")
    }

    @Test("an empty optional field is not given; a bad one is refused")
    func optionalValues() throws {
        #expect(try NumberInput.optionalValue("", field: .protein, range: 0...999, digits: 0, unit: "g") == nil)
        #expect(try NumberInput.optionalValue("12,5", field: .protein, range: 0...999, digits: 0, unit: "g") == 12.5)
        #expect(throws: ValidationError.self) { try NumberInput.optionalValue("1000", field: .protein, range: 0...999, digits: 0, unit: "g") }
    }

    @Test("a name's length is counted in characters, with the unit: not 'must be 1–80; got 0'")
    func nameLengthMessage() {
        let error = #expect(throws: ValidationError.self) { try TextRules.name("   ", field: .mealName) }
        #expect(error.map { Localizer(.de).render($0.message) } == "Name der Mahlzeit: erlaubt ist 1 bis 80 Zeichen; du hast 0 Zeichen eingegeben.")
        #expect(error.map { Localizer(.en).render($0.message) } == "Meal name must be 1 to 80 characters long; you entered 0 characters.")
        #expect(error.map { Localizer(.es).render($0.message) } == "Nombre de la comida: se admite de 1 a 80 caracteres; introducido: 0 caracteres.")
    }
}
