import DietCore
import Foundation
import TestSupport
import Testing

@Suite("String tables")
struct StringTablesTests {
    /// The table as committed: `Sources/DietCore/Resources/Strings/<language>.json`.
    static func table(_ language: Language) throws -> [String: String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let url = root.appendingPathComponent("Sources/DietCore/Resources/Strings/\(language.rawValue).json")
        return try JSONDecoder().decode([String: String].self, from: Data(contentsOf: url))
    }

    static func placeholders(_ template: String) -> Set<String> {
        Set(template.matches(of: /\{([a-zA-Z]+)\}/).map { String($0.output.1) })
    }

    @Test("de, en and es have identical key sets and no empty text")
    func sameKeys() throws {
        let english = try Self.table(.en)
        #expect(english.count > 150)
        for language in [Language.de, .es] {
            let other = try Self.table(language)
            #expect(Set(other.keys).symmetricDifference(english.keys).sorted() == [], "\(language)")
            #expect(other.filter { $0.value.trimmingCharacters(in: .whitespaces).isEmpty }.keys.sorted() == [])
        }
    }

    /// The app reads its tables lazily with its own reader: every text it gives is the one the
    /// committed table holds, read independently by `JSONDecoder`.
    @Test("the localizer gives every committed text as written", arguments: Language.allCases)
    func readAsWritten(language: Language) throws {
        let table = try Self.table(language)
        let localizer = Localizer(language)
        for (key, text) in table {
            #expect(localizer.template(key) == text, "\(language) \(key)")
        }
        #expect(localizer.template("no.such.key") == "no.such.key")
    }

    @Test("every key has the same placeholders in all three languages")
    func samePlaceholders() throws {
        let english = try Self.table(.en)
        for language in [Language.de, .es] {
            let other = try Self.table(language)
            for (key, template) in english {
                #expect(Self.placeholders(other[key] ?? "") == Self.placeholders(template), "\(language) \(key)")
            }
        }
    }

    @Test(
        "the language comes from LC_ALL, LC_MESSAGES or LANG; unknown ones fall back to English",
        arguments: [
            (["LANG": "de_DE.UTF-8"], Language.de), (["LC_ALL": "es_MX.UTF-8", "LANG": "de_DE"], .es),
            (["LC_MESSAGES": "es", "LANG": "en_US"], .es), (["LANG": "C"], .en), (["LANG": "fr_FR.UTF-8"], .en), ([:], .en),
        ]
    )
    func resolve(environment: [String: String], expected: Language) {
        #expect(Language.resolve(environment: environment) == expected)
    }

    @Test("numbers follow the language")
    func numbers() {
        #expect(Localizer(.de).number(2300, digits: 0) == "2.300")
        #expect(Localizer(.en).number(2300, digits: 0) == "2,300")
        #expect(Localizer(.de).number(72.45, digits: 1) == "72,5")
        #expect(Localizer(.es).number(12_345.5, digits: 1) == "12.345,5")
    }

    @Test("a validation error names field, range and value in every language")
    func validation() {
        let error = ValidationError(
            field: .weight,
            allowed: .steps(min: 30, max: 200, step: 0.1, digits: 1, unit: "kg"),
            received: "250"
        )
        #expect(Localizer(.en).render(error.message) == "Weight must be from 30.0 to 200.0 kg in steps of 0.1 kg; you entered 250.")
        for language in [Language.de, .es] {
            let text = Localizer(language).render(error.message)
            #expect(text.contains("30,0") && text.contains("200,0") && text.contains("250"), "\(language): \(text)")
        }
    }
}
