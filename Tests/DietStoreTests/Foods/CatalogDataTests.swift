import DietCore
import FoodKit
import Foundation
import GRDB
import TestSupport
import Testing

@testable import DietStore

/// The bundled food database as scripts/build-food-db writes it: the recipe dishes and the
/// household portions a person reads.
@Suite("Catalog data")
struct CatalogDataTests {
    func store() throws -> AppDatabase {
        try AppDatabase.inMemory(clock: FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin))
    }

    /// The kcal of one serving (the dish's first portion).
    func servingKcal(_ id: String, in store: AppDatabase) throws -> Double {
        let dish = try #require(try store.food(id: id, language: .de))
        let serving = try #require(dish.portions.first)
        return dish.per100g.kcal * serving.grams / 100
    }

    @Test("a Döner serving has the energy of a takeaway Döner, a Currywurst with sauce that of a snack-bar one")
    func dishServings() throws {
        // Given the bundled database
        let store = try store()
        // When a Döner and a Currywurst are read by their fixed ids
        let doner = try servingKcal("95001", in: store)
        let currywurst = try servingKcal("95003", in: store)
        // Then one serving each is in the range of the real thing
        #expect((550...900).contains(doner), "Döner \(doner) kcal")
        #expect((350...650).contains(currywurst), "Currywurst \(currywurst) kcal")
    }

    @Test("every dish's energy agrees with its macronutrients (4·protein + 4·carbs + 9·fat, within 15 %)")
    func dishEnergy() throws {
        // Given every recipe dish of the database
        let rows = try store().reader.read { db in
            try Row.fetchAll(db, sql: "SELECT id, kcal, protein_g, carbs_g, fat_g FROM foods.foods WHERE id BETWEEN 95001 AND 95999")
        }
        // Then there are at least 60, each with plausible energy
        #expect(rows.count >= 60)
        for row in rows {
            let kcal: Double = row["kcal"]
            let atwater = 4 * (row["protein_g"] as Double) + 4 * (row["carbs_g"] as Double) + 9 * (row["fat_g"] as Double)
            #expect(abs(kcal - atwater) <= 0.15 * atwater, "dish \(row["id"] as Int): \(kcal) kcal, macros give \(atwater)")
        }
    }

    @Test("a dish is found by its everyday name in each language, is common, and its serving comes first")
    func dishNames() throws {
        // Given the bundled database
        let store = try store()
        // When the Döner is searched for as a person types it, in German and Spanish
        let german = try store.searchFoods("Döner Kebab", language: .de, timeZone: Zones.berlin, limit: 5)
        let spanish = try store.searchFoods("tortilla de patatas", language: .es, timeZone: Zones.berlin, limit: 5)
        // Then the dish is among the results, common, named in the language, its serving first
        #expect(german.contains { $0.food.id == "95001" })
        #expect(spanish.contains { $0.food.id == "95005" })
        let doner = try #require(try store.food(id: "95001", language: .de))
        #expect(doner.name == "Döner" && doner.isCommon)
        #expect(doner.usdaName.hasPrefix("Döner kebab (recipe: "))
        #expect(doner.portions.first?.grams == 350)
    }

    /// Every portion of the database as read in `language`, by food.
    func portions(_ language: Language) throws -> [Int: [Portion]] {
        let ids = try store().reader.read { db in try Int.fetchAll(db, sql: "SELECT DISTINCT food_id FROM foods.portions") }
        return try store().reader.read { db in try FoodCatalog.foods(db, ids: ids, language: language) }
            .mapValues(\.portions)
    }

    @Test("no portion in any language reads with a USDA yield note, and no food shows one name twice")
    func portionNames() throws {
        for language in Language.allCases {
            // Given every food's portions as read in the language
            let all = try portions(language)
            #expect(all.count > 5000)
            for (id, portions) in all {
                // Then none carries a yield note and each name is shown once
                let names = portions.map { SearchText.fold($0.name) }
                #expect(
                    !names.contains { $0.split(separator: " ").contains { $0 == "yield" || $0 == "yields" } },
                    "\(language) \(id): \(names)"
                )
                #expect(Set(names).count == names.count, "\(language) \(id): \(names)")
            }
        }
    }

    /// Issue 30, finding 12: "2 Scheibe · 56 g", "1,5 Portion". scripts/build-food-db gives every
    /// portion name its plural in each language (portions.plural_en, plural_de, plural_es).
    @Test("every household portion has a plural in each language: Scheibe → Scheiben, Portion → Portionen, slice → slices")
    func portionPlurals() throws {
        let store = try store()
        let empty = try store.reader.read { db in
            try Int.fetchOne(
                db,
                sql: "SELECT count(*) FROM foods.portions WHERE trim(plural_en) = '' OR trim(plural_de) = '' OR trim(plural_es) = ''"
            )
        }
        #expect(empty == 0)
        for language in Language.allCases {
            // Given every food's portions as read in the language
            let all = try portions(language)
            #expect(all.count > 5000)
            var differing = 0
            for (id, portions) in all {
                // Then each has a plural, and most nouns' plural differs from their singular
                for portion in portions {
                    #expect(!portion.pluralName.trimmingCharacters(in: .whitespaces).isEmpty, "\(language) \(id): \(portion.name)")
                    differing += portion.pluralName == portion.name ? 0 : 1
                }
            }
            #expect(differing > 5000, "\(language): \(differing)")
        }
        // And bread and oats count in their plurals where the count is not one
        let de = Localizer(.de)
        let bread = try #require(try store.food(id: "18069", language: .de))
        #expect(bread.householdPortions.first { $0.name == "Scheibe" }?.pluralName == "Scheiben")
        #expect(bread.amountLabel(grams: 56, de) == "2 Scheiben · 56 g" && bread.amountLabel(grams: 28, de) == "1 Scheibe · 28 g")
        let oats = try #require(try store.food(id: "8120", language: .de))
        #expect(oats.amountLabel(grams: 60, de) == "1,5 Portionen · 60 g")
        let english = try #require(try store.food(id: "18069", language: .en))
        #expect(english.amountLabel(grams: 56, Localizer(.en)) == "2 slices · 56 g")
        let spanish = try #require(try store.food(id: "18069", language: .es))
        #expect(spanish.amountLabel(grams: 56, Localizer(.es)) == "2 rebanadas · 56 g")
    }

    @Test("a German banana reads '1 mittelgroße' of 118 g, a Spanish one '1 mediano'; the English name still matches")
    func germanBanana() throws {
        // Given a banana read in German and in Spanish
        let german = try #require(try store().food(id: "9040", language: .de))
        let spanish = try #require(try store().food(id: "9040", language: .es))
        // Then its medium portion is named in the language, with the same weight, and found by either name
        #expect(german.householdPortions.contains { $0.label == "1 mittelgroße" && $0.gramsPerUnit == 118 })
        #expect(spanish.householdPortions.contains { $0.label == "1 mediano" && $0.gramsPerUnit == 118 })
        #expect(
            german.unit(named: "mittelgroße").flatMap { german.grams(amount: 2, unit: $0) } == 236
                && german.unit(named: "medium").flatMap { german.grams(amount: 2, unit: $0) } == 236
        )
    }

    @Test("a typed unit finds the same portion in every language: 1 Scheibe Brot, 0.5 Brust, 1 Messbecher Haferflocken")
    func sameGrams() throws {
        // Given bread, chicken breast and oats read in German
        let store = try store()
        let bread = try #require(try store.food(id: "18069", language: .de))
        let chicken = try #require(try store.food(id: "5062", language: .de))
        let oats = try #require(try store.food(id: "8120", language: .de))
        // When quantities are chosen with the parser's units, or the shown or English portion name
        let slice = PortionChooser.grams(quantity: 1, unit: .slice, portions: bread.portions, foodName: bread.usdaName)
        // Then the grams are those of the English portions
        #expect(slice.grams == 28 && slice.portion?.name == "Scheibe")
        #expect(
            chicken.unit(named: "breast").flatMap { chicken.grams(amount: 0.5, unit: $0) } == 118
                && chicken.unit(named: "Brust").flatMap { chicken.grams(amount: 0.5, unit: $0) } == 118
        )
        #expect(PortionChooser.grams(quantity: 1, unit: .cup, portions: oats.portions).grams == 81)
        // a cup of a solid is a measuring cup in German, never the drinking cup "Tasse" (issue 29, finding 3)
        #expect(oats.householdPortions.filter { $0.name == "Messbecher" }.count == 1)
        #expect(!oats.householdPortions.contains { $0.name == "Tasse" })
    }

    /// "Kartoffelsalat · Kartoffelsalat" was a "which one?" with two choices of one name: the one
    /// with mayonnaise and the Swabian one with broth.
    @Test("no two foods with curated names show the same name in one language")
    func shownNamesDiffer() throws {
        let twice = try store().reader.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT d.language, lower(d.name) AS name FROM foods.display_names d
                    JOIN foods.foods f ON f.id = d.food_id WHERE f.common = 1
                    GROUP BY d.language, lower(d.name) HAVING count(*) > 1
                    """
            ).map { "\($0["language"] as String): \($0["name"] as String)" }
        }
        #expect(twice.isEmpty, "\(twice)")
    }
}
