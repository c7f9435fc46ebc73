import DietCore
import FoodKit
import Foundation
import TestSupport
import Testing

@testable import DietStore

/// One query of the relevance set (`search-queries.tsv`, described in its header).
struct RelevanceQuery {
    let text: String
    let language: Language
    /// Any of these in the top 3 answers the query.
    let ids: Set<Int>
    /// A one-word staple: the first result must be one of `ids`.
    let topOne: Bool

    static let all: [RelevanceQuery] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("search-queries.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let columns = line.split(separator: "\t").map(String.init)
            guard columns.count >= 3, let language = Language(rawValue: columns[1]) else { return nil }
            let ids = Set(columns[2].split(separator: "|").compactMap { Int($0) })
            return ids.isEmpty
                ? nil
                : RelevanceQuery(
                    text: columns[0],
                    language: language,
                    ids: ids,
                    topOne: columns.count > 3 && columns[3] == "top1"
                )
        }
    }()
}

@Suite("Food search")
struct FoodSearchTests {
    func store() throws -> AppDatabase {
        try AppDatabase.inMemory(clock: FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin))
    }

    func top3(_ store: AppDatabase, _ query: RelevanceQuery) throws -> [Int] {
        try store.searchFoods(query.text, language: query.language, timeZone: Zones.berlin, limit: 3).compactMap { Int($0.food.id) }
    }

    @Test(
        "the relevance set finds the right food in the top 3 for 95 % of the queries of each language",
        arguments: Language.allCases
    )
    func hitRate(language: Language) throws {
        // Given the hand-labelled queries of one language
        let store = try store()
        let queries = RelevanceQuery.all.filter { $0.language == language }
        // When each is searched
        var misses: [String] = []
        var firsts = 0
        for query in queries {
            let top = try top3(store, query)
            if top.first.map(query.ids.contains) == true { firsts += 1 }
            if query.ids.isDisjoint(with: top) { misses.append("\(query.text): \(top)") }
        }
        // Then at least 95 % have an answer among the first three
        let rate = Double(queries.count - misses.count) / Double(max(1, queries.count))
        print(
            String(
                format: "food search (%@): top-3 %.1f %%, top-1 %.1f %% of %d; misses: %@",
                language.rawValue,
                rate * 100,
                Double(firsts) / Double(max(1, queries.count)) * 100,
                queries.count,
                misses.joined(separator: "; ")
            )
        )
        // of at least 600 queries, a third in each language
        #expect(RelevanceQuery.all.count >= 600 && queries.count * 3 >= RelevanceQuery.all.count)
        #expect(rate >= 0.95, "top-3 \(rate): \(misses)")
    }

    @Test("a one-word staple finds the everyday food first: Brot → bread, Milch → milk, pan → bread, leche → milk")
    func staples() throws {
        // Given the staples of the relevance set
        let store = try store()
        let staples = RelevanceQuery.all.filter(\.topOne)
        // When each is searched
        var wrong: [String] = []
        for query in staples {
            let first = try store.searchFoods(query.text, language: query.language, timeZone: Zones.berlin, limit: 1).first
            if !(first.flatMap { Int($0.food.id) }.map(query.ids.contains) ?? false) {
                wrong.append("\(query.text) (\(query.language)): \(first?.food.name ?? "nothing")")
            }
        }
        // Then every first result is one of the foods the staple names
        #expect(staples.count >= 90)
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test("the first hit does not depend on how many hits are asked for ('erdbeere' was a strawberry sundae alone, strawberries in a list)")
    func firstHitWhateverTheLimit() throws {
        let store = try store()
        for query in ["erdbeere", "Apfel", "milch", "Brot", "kase", "Hähnchen", "Joghurt", "Tomate", "Kaffee", "Nudeln"] {
            let one = try store.searchFoods(query, language: .de, timeZone: Zones.berlin, limit: 1).first?.food.id
            let ten = try store.searchFoods(query, language: .de, timeZone: Zones.berlin, limit: 10).first?.food.id
            #expect(one == ten, "\(query): \(one ?? "-") alone, \(ten ?? "-") in a list")
        }
    }

    @Test("Brot shows breads first, no canned broth, bean sprouts or rolls among the first 3")
    func brot() throws {
        // Given a German user typing Brot
        let names = try store().searchFoods("Brot", language: .de, timeZone: Zones.berlin, limit: 3)
        // Then the first two are breads by their USDA identity, and none of the three is broth, sprouts or a roll
        #expect(names.count == 3)
        #expect(names.prefix(2).allSatisfy { $0.food.usdaName.hasPrefix("Bread,") }, "\(names.map(\.food.usdaName))")
        #expect(
            !names.contains { ["broth", "sprouts", "rolls"].contains(where: $0.food.usdaName.lowercased().contains) },
            "\(names.map(\.food.usdaName))"
        )
    }

    @Test("a food's name follows the language, nutrients are per 100 g with available carbs")
    func food() throws {
        let banana = try #require(try store().food(id: "9040", language: .de))
        #expect(banana.name == "Banane" && banana.usdaName == "Bananas, raw")
        // BLS 4.0 F503100: 79 kcal, 15.89 g available carbohydrate and 2 g fibre per 100 g
        #expect(banana.per100g.kcal == 79 && abs(banana.per100g.totalCarbsG - 17.89) < 1e-9)
        #expect(abs(banana.per100g.carbsG - 15.89) < 1e-9)
        #expect(banana.portions.contains { $0.grams == 118 })
    }

    @Test("a typo of one letter in a long word still finds the food")
    func typo() throws {
        let hits = try store().searchFoods("chiken breast", language: .en, timeZone: Zones.berlin)
        #expect(hits.prefix(3).contains { $0.food.id == "5062" })
    }

    @Test("a word of the catalog's names, or the start of one while it may be half typed, is known")
    func knownWords() throws {
        let known = try store().reader.read { db in
            try [
                ("nudeln", false), ("kartof", true), ("kartof", false), ("heidelbeern", true), ("nudelnx", true), ("zzzzz", true),
            ].map { word, asPrefix in try FoodCatalog.knows(db, word, asPrefix: asPrefix) }
        }
        #expect(known == [true, true, false, false, false, false])
    }

    /// A word the database knows is taken as typed, never "corrected" into a longer one: "nudeln"
    /// was a slip of "nudelsoße" once the two words matched no single name. A word no name holds
    /// is corrected even where its stem matches something ("heidelbeern" → "heidelbeer" is a
    /// word of "Heidelbeer-Muffins"). A finished German adjective matches without its ending.
    @Test(
        "German words as typed: a known word is no slip, an unknown one is, an adjective is read without its ending",
        arguments: [
            ("Nudeln gekocht", "20121"),  // Spaghetti (aliases Nudeln; "Teigwaren eifrei gekocht"), not Nudelsoße
            ("heidelbeern", "9050"),  // Heidelbeeren, not a blueberry muffin
            ("rote Paprika", "11821"),  // Paprika rot, not Paprikachips
            ("Joghurt natur", "1116"),  // Naturjoghurt, not Joghurtcreme
        ]
    )
    func germanWordsAsTyped(typed: String, id: String) throws {
        let hits = try store().searchFoods(typed, language: .de, timeZone: Zones.berlin, limit: 5)
        #expect(hits.first?.food.id == id, "\(typed): \(hits.map(\.food.name))")
    }

    @Test("nothing matching gives an empty result, so the caller offers manual entry")
    func empty() throws {
        #expect(try store().searchFoods("xqzzv", language: .en, timeZone: Zones.berlin).isEmpty)
        #expect(try store().searchFoods(" ,. ", language: .en, timeZone: Zones.berlin).isEmpty)
    }

    @Test("foods the user logged rank first")
    func usage() throws {
        let clock = FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin)
        let store = try AppDatabase.inMemory(clock: clock)
        try store.completeOnboarding(.alice, timeZone: Zones.berlin)
        let before = try store.searchFoods("milk", language: .en, timeZone: Zones.berlin).map(\.food.id)
        let skim = "1085"
        #expect(before.first != skim)
        try store.writer.write { db in
            let meal = MealRecord(
                id: UUID(),
                entry: try MealEntry(name: "Magermilch", kcal: 70, at: clock.now(), in: Zones.berlin),
                createdAt: clock.now()
            )
            var record = meal
            record.foodID = skim
            _ = try Outbox.save(record, db, now: clock.now())
        }
        let after = try store.searchFoods("milk", language: .en, timeZone: Zones.berlin).map(\.food.id)
        // among the foods named around "milk" it is first now; "milk" itself stays before it
        // (history ranks among foods that answer the words as well, never replaces them)
        #expect(after.first == "1077")
        #expect(after.dropFirst().first == skim, "\(after.prefix(4)) (before: \(before.prefix(4)))")
        #expect((before.firstIndex(of: skim) ?? 99) > 1)
    }
}

@Suite("Food catalog attachment")
struct FoodCatalogAttachmentTests {
    @Test("the bundled catalog is attached read-only: a write to it fails and changes nothing")
    func readOnly() throws {
        let store = try AppDatabase.inMemory(clock: FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin))
        #expect(throws: (any Error).self) {
            try store.writer.write { db in try db.execute(sql: "UPDATE foods.foods SET kcal = 0 WHERE id = 9040") }
        }
        #expect(try store.food(id: "9040", language: .en)?.per100g.kcal == 79)
    }
}

@Suite("Food search inside compound words")
struct CompoundSearchTests {
    func names(_ text: String, limit: Int = 30) throws -> [FoodHit] {
        let store = try AppDatabase.inMemory(clock: FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin))
        return try store.searchFoods(text, language: .de, timeZone: Zones.berlin, limit: limit)
    }

    @Test(
        "a German compound's last part finds it, after the food of that name (Kuchen and Saft name none)",
        arguments: [
            ("kase", "Frischkäse", true), ("käse", "Hüttenkäse", true), ("brot", "Vollkornbrot", true), ("Brot", "Weißbrot", true),
            ("milch", "Magermilch", true), ("wurst", "Bratwurst", true), ("kuchen", "Käsekuchen", false), ("saft", "Orangensaft", false),
        ]
    )
    func compoundPart(typed: String, compound: String, named hasNamedFood: Bool) throws {
        // Given a German user typing a word that ends compound names
        let hits = try names(typed)
        // When the compound is among the results
        let index = try #require(hits.firstIndex { $0.food.name == compound }, "\(hits.map(\.food.name))")
        // Then the food called by the typed word itself, where there is one, comes before it
        let named = hits.firstIndex { $0.rank.name.match == .exact }
        #expect((named != nil) == hasNamedFood, "\(hits.map(\.food.name))")
        #expect(named.map { $0 < index } ?? true)
    }

    @Test("käse: cheeses whose name ends in käse come before foods that only start with it (Käsekuchen)")
    func headBeforeModifier() throws {
        let names = try names("käse", limit: 100).map(\.food.name)
        let cheese = try #require(names.firstIndex(of: "Frischkäse"), "\(names)")
        let cake = try #require(names.firstIndex(of: "Käsekuchen"), "\(names)")
        #expect(cheese < cake)
    }
}

@Suite("Food search by the first letter")
struct FirstLetterSearchTests {
    @Test("after logging it, a food is the first result for its first letter", arguments: ["23610", "11477", "9421"])
    func usedFirst(id: String) throws {
        let clock = FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin)
        let store = try AppDatabase.inMemory(clock: clock)
        try store.completeOnboarding(.alice, timeZone: Zones.berlin)
        let food = try #require(try store.food(id: id, language: .en))
        try store.logMeal(
            try MealEntry(name: food.name, kcal: 100, at: clock.now(), in: Zones.berlin),
            food: FoodPortion(foodID: id, grams: 100)
        )
        let letter = String(food.name.prefix(1))
        #expect(try store.searchFoods(letter, language: .en, timeZone: Zones.berlin).first?.food.id == id)
    }
}
