import DietCore
import Foundation
import Testing

@Suite("Text without control characters")
struct TextRulesTests {
    @Test(
        "C0 controls (but tab and line feed), DEL and C1 controls are forbidden",
        arguments: [
            0x00, 0x01, 0x07, 0x08, 0x0B, 0x0C, 0x0D, 0x1B, 0x1F, 0x7F, 0x80, 0x85, 0x9B, 0x9F,
        ]
    )
    func forbidden(code: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(code))
        #expect(TextRules.forbiddenControlCharacter(in: "a" + String(Character(scalar)) + "b") == scalar)
    }

    @Test("tab, line feed and ordinary text are allowed, emoji and accents included")
    func allowed() {
        for text in ["Linsensuppe", "a\tb", "line\nbreak", "Crème brûlée 🍮", "\u{A0}non-breaking", " ", ""] {
            #expect(TextRules.forbiddenControlCharacter(in: text) == nil, "\(text)")
        }
    }

    @Test("visible writes each control character as a JSON-style escape and leaves other text alone")
    func visible() {
        #expect(TextRules.visible("Soup\u{1B}[2J\u{0}\u{7F}\u{9B}\t\n") == "Soup\\u001B[2J\\u0000\\u007F\\u009B\t\n")
        #expect(TextRules.visible("Crème brûlée") == "Crème brûlée")
    }

    @Test("a meal name with a NUL or an escape is refused naming the field, the rule and what was received")
    func mealName() {
        let noon = Date(timeIntervalSince1970: 1_767_614_400)
        let zone = TimeZone(identifier: "Europe/Berlin") ?? .current
        for name in ["a\u{0}b", "Soup\u{1B}[2J", "\u{85}Cake"] {
            #expect(throws: ValidationError(field: .mealName, allowed: .noControlCharacters, received: "\"\(TextRules.visible(name))\"")) {
                try MealEntry(name: name, kcal: 100, at: noon, in: zone)
            }
        }
        #expect((try? MealEntry(name: "Soup\twith\nbread", kcal: 100, at: noon, in: zone)) != nil)
    }

    @Test("the refusal reads as a sentence in de, en and es")
    func message() {
        let error = ValidationError(field: .mealName, allowed: .noControlCharacters, received: "\"a\\u0000b\"")
        #expect(
            Localizer(.en).render(error.message)
                == "Meal name must be text without control characters (tab and line break are fine); you entered \"a\\u0000b\"."
        )
        #expect(
            Localizer(.de).render(error.message)
                == "Name der Mahlzeit: erlaubt ist Text ohne Steuerzeichen (Tabulator und Zeilenumbruch sind erlaubt); du hast \"a\\u0000b\" eingegeben."
        )
        #expect(
            Localizer(.es).render(error.message)
                == "Nombre de la comida: se admite texto sin caracteres de control (se admiten tabulador y salto de línea); introducido: \"a\\u0000b\"."
        )
    }

    @Test("a secret is refused by its character's code point only, and a long value is cut")
    func secretAndLong() {
        #expect(throws: ValidationError(field: .password, allowed: .noControlCharacters, received: "U+0000")) {
            try TextRules.check("hunter\u{0}2", field: .password, secret: true)
        }
        #expect(
            throws: ValidationError(
                field: .calendarName,
                allowed: .noControlCharacters,
                received: "\"" + String(repeating: "x", count: 60) + "…\""
            )
        ) {
            try TextRules.check(String(repeating: "x", count: 70) + "\u{1B}", field: .calendarName)
        }
    }

    @Test("a name of 79 characters heavy with accent marks is refused by code points, as the store counts them, in every name field")
    func codePoints() throws {
        let zalgo = String(repeating: "a\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}\u{307}\u{308}", count: 79)
        do {
            _ = try MealEntry(name: zalgo, kcal: 100, at: Date(timeIntervalSince1970: 0), in: TimeZone(identifier: "UTC")!)
            Issue.record("the name should have been refused")
        } catch {
            #expect(error.field == .mealName)
            #expect(error.received == "711")
            #expect(Localizer(.en).render(error.message).contains("640 Unicode code points"))
        }
        #expect(throws: ValidationError.self) { try TextRules.name(zalgo, field: .calories) }
        #expect(try TextRules.name("  Käsespätzle mit Röstzwiebeln  ", field: .mealName) == "Käsespätzle mit Röstzwiebeln")
    }
}
