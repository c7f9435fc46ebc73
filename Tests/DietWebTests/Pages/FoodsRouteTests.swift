import DietCore
import DietStore
import DietWeb
import FoodKit
import Foundation
import Testing

@Suite("Your own foods, recipes and barcodes in the browser")
struct FoodsRouteTests {
    @Test("a food of your own with a barcode: created with decimal commas, found by its barcode, logged, deleted")
    func customFood() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let store = try harness.store()
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            // Given a new food typed as a German would
            let saved = try await browser.post(
                "/foods",
                [
                    ("name", "Müsliriegel"), ("kcal", "389,5"), ("protein", "13,5"), ("carbs", "60"),
                    ("fat", "9,5"), ("portion", "1 Riegel"), ("portion_grams", "25"),
                    ("barcode", "4006381333931"),
                ]
            )
            // Then it opens ready to log, and its barcode finds it
            let location = try #require(saved.location)
            #expect(saved.status == .seeOther && location.hasPrefix("/log/food/"))
            let id = String(location.dropFirst("/log/food/".count))
            let food = try #require(try store.food(id: id, language: .de))
            #expect(food.per100g.kcal == 389.5 && food.per100g.proteinG == 13.5 && food.householdPortions.first?.gramsPerUnit == 25)
            let portion = try await browser.get(location)
            #expect(portion.body.contains("Riegel") && portion.body.contains("action=\"/foods/\(id)/delete\""))
            #expect(try await browser.post("/barcode", [("code", "4006381333931")]).location == location)
            // When two bars are logged
            // (the unit by its id: the food's first portion, "Riegel")
            #expect(try await browser.post(location, [("amount", "2"), ("unit", "p0")]).status == .seeOther)
            #expect(try store.meals(on: LocalDate(WebHarness.now, in: harness.timeZone)).map(\.entry.kcal) == [Int((389.5 / 2).rounded())])
            // And deleted
            #expect(try await browser.post("/foods/\(id)/delete").status == .seeOther)
            #expect(try store.customFood(barcode: try Barcode("4006381333931")) == nil)
        }
    }

    @Test("a barcode by its digits: a typo is explained, an unknown code says it is not on this device", arguments: Language.allCases)
    func barcodeMessages(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(language)
        try await harness.run { browser in
            try await browser.onboard(language: language)
            let typo = try await browser.post("/barcode", [("code", "4006381333932")])
            #expect(
                typo.status == .unprocessableContent && typo.shows(l.text("web.barcode.checkDigit", ["expected": .integer(1), "got": .integer(2)]))
            )
            let unknown = try await browser.post("/barcode", [("code", "4006381333931")])
            #expect(unknown.status == .notFound && unknown.shows(l.text("web.barcode.unknownHere", ["code": .text("4006381333931")])))
            // the new-food form opens with the code filled in
            #expect(
                unknown.body.contains("id=\"new-food\" open")
                    && unknown.body.contains("name=\"barcode\" type=\"text\" inputmode=\"numeric\" autocomplete=\"off\" value=\"4006381333931\"")
            )
            #expect(unknown.missingStrings.isEmpty)
        }
    }

    @Test("a recipe from its ingredients in words, then logged by servings from the log screen")
    func recipe() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let store = try harness.store()
        try await harness.run { browser in
            try await browser.onboard()
            let saved = try await browser.post(
                "/recipes",
                [
                    ("name", "Chicken rice"), ("ingredients", "300 g chicken breast, 200 g rice"),
                    ("servings", "2"), ("confirm", "yes"),
                ]
            )
            #expect(saved.status == .seeOther)
            let recipe = try #require(try store.recipes().first)
            #expect(recipe.name == "Chicken rice" && recipe.items.map(\.grams) == [300, 200] && recipe.servings == 2)
            #expect(try await browser.get("/log").body.contains("action=\"/log/recipe/\(recipe.id)\""))
            let nothing = try await browser.post("/recipes", [("name", "X"), ("ingredients", "qwxz plorb"), ("servings", "2")])
            #expect(nothing.status == .unprocessableContent && nothing.shows(Localizer(.en).text("web.recipes.nothing")))
        }
    }
}
