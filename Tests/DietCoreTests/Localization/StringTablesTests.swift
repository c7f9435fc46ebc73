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

    /// The plural variants of a counting text: `key#one`, `key#other`, by base key.
    static func variants(_ table: [String: String]) -> [String: Set<String>] {
        Dictionary(grouping: table.keys.filter { $0.contains("#") }) { String($0.prefix { $0 != "#" }) }.mapValues { Set($0) }
    }

    @Test("a counting text has exactly its 'one' and 'other' variants in every language, each with the count's place")
    func pluralVariants() throws {
        for language in Language.allCases {
            let table = try Self.table(language)
            let variants = Self.variants(table)
            #expect(variants.count >= 40, "\(language)")
            for (base, keys) in variants {
                #expect(keys == [base + "#one", base + "#other"], "\(language) \(base)")
                // the base key itself and keys below it would be shadowed by, or shadow, the variants
                #expect(table[base] == nil && !table.keys.contains { $0.hasPrefix(base + ".") }, "\(language) \(base)")
                #expect(Self.placeholders(table[base + "#other"] ?? "").contains("count"), "\(language) \(base)")
            }
        }
    }

    @Test(
        "a count is 'one' only when it shows exactly 1: in German and English not \"1,0\", in Spanish also \"1,0\" (CLDR)",
        arguments: [
            (Language.de, "1", PluralCategory.one), (.de, "1,0", .other), (.de, "1,5", .other), (.de, "0", .other), (.de, "2", .other),
            (.de, "11", .other), (.de, "1.001", .other), (.en, "1", .one), (.en, "1.0", .other), (.en, "1.5", .other), (.en, "0", .other),
            (.en, "2", .other), (.en, "1,000", .other), (.en, "-1", .one), (.es, "1", .one), (.es, "1,0", .one), (.es, "1,5", .other),
            (.es, "0", .other), (.es, "2", .other), (.es, "21", .other), (.es, "uno", .other),
        ]
    )
    func pluralCategory(language: Language, shown: String, expected: PluralCategory) {
        #expect(language.pluralCategory(ofShown: shown) == expected)
    }

    @Test("a counted noun agrees with its count as shown: 1 Eintrag, 2 Einträge, 1 entry, 1 día, 0 días, 1,0 Tage")
    func countedNouns() {
        let de = Localizer(.de)
        let en = Localizer(.en)
        let es = Localizer(.es)
        // the CLI's "1 Einträge gespeichert" of issue 30
        #expect(de.text("cli.text.logged", ["count": 1, "kcal": 250]) == "1 Eintrag gespeichert, 250 kcal.")
        #expect(de.text("cli.text.logged", ["count": 2, "kcal": 250]) == "2 Einträge gespeichert, 250 kcal.")
        #expect(en.text("cli.text.logged", ["count": 1, "kcal": 250]) == "Logged 1 item, 250 kcal.")
        #expect(
            en.text("import.summary.alreadyThere", ["count": 1]) == "1 entry was already here from an earlier import; nothing was added twice."
        )
        #expect(es.render(InsightsMeaning.days(1)) == "1 día" && es.render(InsightsMeaning.days(0)) == "0 días")
        #expect(en.render(InsightsMeaning.days(1)) == "1 day" && en.render(InsightsMeaning.days(3)) == "3 days")
        // the count as shown decides: "1,0" is plural in German, singular in Spanish
        #expect(de.render(Message("insights.days", ["count": .decimal(1, digits: 1)])) == "1,0 Tage")
        #expect(es.render(Message("insights.days", ["count": .decimal(1, digits: 1)])) == "1,0 día")
        // a "one" text may say it in words; a text without variants renders as before
        #expect(en.text("cli.insights.title", ["count": 1, "first": "Mon", "last": "Wed"]) == "This week: Mon – Wed")
        #expect(en.text("cli.insights.title", ["count": 4, "first": "Mon", "last": "Wed"]) == "Your last 4 weeks: Mon – Wed")
        #expect(en.text("web.food.per100", ["count": 1, "kcal": 52]) == "52 kcal per 100 g")
        // without a count (and for the tests that read templates) a counting text is its "other" variant
        #expect(en.hasKey("insights.days") && en.template("insights.days") == "{count} days")
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
