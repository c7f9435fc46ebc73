import DietCore
import FoodKit
import Foundation
import Testing

/// Issue 30, finding 12: the web app and the CLI showed "2 Scheibe · 56 g" and "1,5 Portion". A
/// counted measure reads in its singular only where the count shows exactly one in the user's
/// language (`Language.pluralCategory(ofShown:)`), in its plural from the food database otherwise.
@Suite("A counted measure takes its plural")
struct PortionPluralTests {
    static let values = Nutrients(kcal: 250, proteinG: 9, carbsG: 45, totalCarbsG: 48, fiberG: 3, sugarsG: 4, fatG: 3, sodiumMg: 400)

    /// Bread as the catalog reads it in one language: a slice of 28 g and a serving of 40 g.
    static func bread(slice: (String, String), serving: (String, String)) -> Food {
        Food(
            id: "18069",
            name: "Bread",
            usdaName: "Bread, white",
            per100g: values,
            portions: [
                Portion(amount: 1, name: slice.0, grams: 28, reference: "slice", pluralName: slice.1),
                Portion(amount: 1, name: serving.0, grams: 40, reference: "serving", pluralName: serving.1),
            ],
            isCommon: true
        )
    }

    static let german = bread(slice: ("Scheibe", "Scheiben"), serving: ("Portion", "Portionen"))
    static let english = bread(slice: ("slice", "slices"), serving: ("serving", "servings"))
    static let spanish = bread(slice: ("rebanada", "rebanadas"), serving: ("porción", "porciones"))

    @Test("an amount in a measure reads '2 Scheiben · 56 g', '1 Scheibe · 28 g', '1,5 Portionen · 60 g' (and so in English and Spanish)")
    func amountLabel() {
        let de = Localizer(.de)
        #expect(Self.german.amountLabel(grams: 56, de) == "2 Scheiben · 56 g")
        #expect(Self.german.amountLabel(grams: 28, de) == "1 Scheibe · 28 g")
        #expect(Self.german.amountLabel(grams: 60, de) == "1,5 Portionen · 60 g")
        #expect(Self.german.amountLabel(grams: 42, de) == "1,5 Scheiben · 42 g")
        #expect(Self.english.amountLabel(grams: 56, Localizer(.en)) == "2 slices · 56 g")
        #expect(Self.english.amountLabel(grams: 28, Localizer(.en)) == "1 slice · 28 g")
        #expect(Self.spanish.amountLabel(grams: 56, Localizer(.es)) == "2 rebanadas · 56 g")
        #expect(Self.spanish.amountLabel(grams: 28, Localizer(.es)) == "1 rebanada · 28 g")
        // not a whole or half number of a measure: grams alone, as before
        #expect(Self.german.amountLabel(grams: 33, de) == "33 g")
    }

    @Test("a measure's label follows its count: '1 Scheibe', '2 Scheiben', '0,5 Brüste'; the select's '1 Scheibe' stays singular")
    func labels() throws {
        let de = Localizer(.de)
        let slice = try #require(Self.german.householdPortions.first)
        #expect(slice.label == "1 Scheibe" && slice.pluralName == "Scheiben")
        #expect(slice.countedLabel(1, de) == "1 Scheibe")
        #expect(slice.countedLabel(2, de) == "2 Scheiben")
        #expect(slice.countedLabel(1.5, de) == "1,5 Scheiben")
        #expect(slice.unitName(forCount: "1,0", de) == "Scheiben")
        #expect(Portion(amount: 0.5, name: "Brust", grams: 118, pluralName: "Brüste").label(de) == "0,5 Brüste")
        #expect(Portion(amount: 1, name: "Brust", grams: 236, pluralName: "Brüste").label(de) == "1 Brust")
        #expect(Portion(amount: 2, name: "taza", grams: 480, pluralName: "tazas").label(Localizer(.es)) == "2 tazas")
    }

    @Test("a user's portion stored without a plural reads its name for every count and encodes as before; a plural round-trips")
    func storedPortions() throws {
        let stored = #"{"amount":1,"name":"Riegel","grams":45}"#
        let old = try JSONDecoder().decode(Portion.self, from: Data(stored.utf8))
        #expect(old.pluralName == "Riegel" && old.label(Localizer(.de)) == "1 Riegel")
        let encoded = try JSONEncoder().encode(old)
        #expect(!String(decoding: encoded, as: UTF8.self).contains("plural"))
        let bundled = Portion(amount: 1, name: "Scheibe", grams: 28, reference: "slice", pluralName: "Scheiben")
        #expect(try JSONDecoder().decode(Portion.self, from: JSONEncoder().encode(bundled)) == bundled)
    }
}
