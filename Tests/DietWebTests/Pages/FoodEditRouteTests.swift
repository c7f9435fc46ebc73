import DietCore
import DietStore
import DietWeb
import FoodKit
import Foundation
import Testing

@Suite("Editing your own foods and recipes in the browser")
struct FoodEditRouteTests {
    @Test("a German edit: the form shows 2,5, a decimal comma is saved on the same food, and it is listed among your foods")
    func germanEdit() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let store = try harness.store()
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            // Given a food of one's own with 2.5 g protein
            let food = try store.addCustomFood(
                try CustomFood(
                    name: "Haferdrink",
                    per100g: Self.nutrients(kcal: 46, protein: 2.5),
                    portions: [Portion(amount: 1, name: "Glas", grams: 250)]
                )
            )
            #expect(try await browser.get("/foods").body.contains("href=\"/foods/\(food.id)/edit\""))
            #expect(try await browser.get("/log/food/\(food.id)").body.contains("href=\"/foods/\(food.id)/edit\""))
            // When its edit form is opened
            let form = try await browser.get("/foods/\(food.id)/edit")
            #expect(form.status == .ok && form.missingStrings.isEmpty)
            #expect(
                form.body.contains("action=\"/foods/\(food.id)\"") && form.body.contains("value=\"2,5\"") && form.body.contains("value=\"1 Glas\"")
            )
            // And saved with decimal commas
            let saved = try await browser.post(
                "/foods/\(food.id)",
                [
                    ("name", "Haferdrink light"), ("kcal", "38,5"), ("protein", "1,5"),
                    ("carbs", "6"), ("fat", "1,2"), ("portion", "1 Glas"),
                    ("portion_grams", "250"), ("barcode", ""),
                ]
            )
            // Then the same food has the new values
            #expect(saved.status == .seeOther && saved.location == "/log/food/\(food.id)")
            let edited = try #require(try store.food(id: food.id, language: .de))
            #expect(edited.name == "Haferdrink light" && edited.per100g.kcal == 38.5 && edited.per100g.proteinG == 1.5 && edited.per100g.fatG == 1.2)
            #expect(try store.customFoods().count == 1)
        }
    }

    @Test("an edit keeps what the form does not show: the barcode shown back, sugars, sodium, further portions, the attribution")
    func editKeepsTheRest() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let store = try harness.store()
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            // Given a product saved from Open Food Facts with a barcode, sugars, sodium and two portions
            let values = Nutrients(kcal: 480, proteinG: 7, carbsG: 60, totalCarbsG: 63, fiberG: 3, sugarsG: 30, fatG: 22, sodiumMg: 90)
            let food = try store.addCustomFood(
                try CustomFood(
                    name: "Riegel",
                    barcode: try Barcode("4006381333931"),
                    per100g: values,
                    portions: [
                        Portion(amount: 1, name: "Riegel", grams: 45),
                        Portion(amount: 1, name: "Packung", grams: 180),
                    ],
                    source: .openFoodFacts,
                    attribution: "Open Food Facts, ODbL"
                )
            )
            // When its edit form is opened, the barcode is in it
            let form = try await browser.get("/foods/\(food.id)/edit")
            #expect(form.body.contains("value=\"4006381333931\""))
            // And saved as shown, with only the calories changed
            _ = try await browser.post(
                "/foods/\(food.id)",
                [
                    ("name", "Riegel"), ("kcal", "470"), ("protein", "7"), ("carbs", "60"), ("fat", "22"),
                    ("portion", "1 Riegel"), ("portion_grams", "45"), ("barcode", "4006381333931"),
                ]
            )
            // Then nothing the form does not show was lost
            let draft = try #require(try store.customFoodDraft(id: food.id))
            #expect(draft.per100g.kcal == 470 && draft.per100g.sugarsG == 30 && draft.per100g.sodiumMg == 90 && draft.per100g.fiberG == 3)
            #expect(draft.barcode?.digits == "4006381333931")
            #expect(draft.portions.map(\.name) == ["Riegel", "Packung"])
            #expect(draft.source == .openFoodFacts && draft.attribution == "Open Food Facts, ODbL")
        }
    }

    @Test("a barcode another food has is refused on the barcode field, and nothing changes", arguments: Language.allCases)
    func duplicateBarcode(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let store = try harness.store()
        try await harness.run { browser in
            try await browser.onboard(language: language)
            // Given two foods, one with a barcode
            let barcode = try Barcode("4006381333931")
            let bar = try store.addCustomFood(try CustomFood(name: "Riegel", barcode: barcode, per100g: Self.nutrients(kcal: 400, protein: 10)))
            let drink = try store.addCustomFood(try CustomFood(name: "Drink", per100g: Self.nutrients(kcal: 46, protein: 2.5)))
            // When the other is saved with that barcode
            let refused = try await browser.post("/foods/\(drink.id)", [("name", "Drink 2"), ("kcal", "50"), ("barcode", "4006381333931")])
            // Then the barcode field says why, and neither food changed
            #expect(refused.status == .unprocessableContent && refused.missingStrings.isEmpty)
            #expect(refused.shows(StoreError.duplicateBarcode(barcode.gtin13).message(Localizer(language))))
            #expect(refused.body.contains("id=\"food-barcode-error\""))
            #expect(try store.food(id: drink.id, language: language) == drink)
            #expect(try store.customFood(barcode: barcode)?.id == bar.id)
        }
    }

    static func nutrients(kcal: Double, protein: Double) -> Nutrients {
        Nutrients(kcal: kcal, proteinG: protein, carbsG: 5, totalCarbsG: 5, fiberG: 0, sugarsG: 0, fatG: 1, sodiumMg: 0)
    }
}

@Suite("Recipes edited and deleted in the browser")
struct RecipeEditRouteTests {
    @Test("a recipe is edited in German (servings 2,5) on the same id, then deleted with a toast; a meal logged from it stays")
    func editAndDelete() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let store = try harness.store()
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            // Given a recipe logged once
            #expect(
                try await browser.post(
                    "/recipes",
                    [
                        ("name", "Hähnchen mit Reis"), ("ingredients", "300 g Hähnchenbrust, 200 g Reis"),
                        ("servings", "2"), ("confirm", "yes"),
                    ]
                ).status == .seeOther
            )
            let recipe = try #require(try store.recipes().first)
            #expect(try await browser.post("/log/recipe/\(recipe.id)", [("servings", "1")]).status == .seeOther)
            #expect(try await browser.get("/log").body.contains("href=\"/recipes/\(recipe.id)/edit\""))
            // When it is opened for editing, it shows its ingredients and a delete button
            let form = try await browser.get("/recipes/\(recipe.id)/edit")
            #expect(form.status == .ok && form.missingStrings.isEmpty && form.body.contains("id=\"new-recipe\" open"))
            #expect(
                form.body.contains("action=\"/recipes/\(recipe.id)\"") && form.body.contains("300 g ")
                    && form.body.contains("action=\"/recipes/\(recipe.id)/delete\"")
            )
            // And saved with a decimal comma
            let saved = try await browser.post(
                "/recipes/\(recipe.id)",
                [
                    ("name", "Hähnchen-Reis"), ("ingredients", "400 g Hähnchenbrust, 200 g Reis"),
                    ("servings", "2,5"), ("confirm", "yes"),
                ]
            )
            #expect(saved.status == .seeOther)
            let edited = try #require(try store.recipe(recipe.id))
            #expect(
                try store.recipes().count == 1 && edited.name == "Hähnchen-Reis" && edited.servings == 2.5 && edited.items.map(\.grams) == [400, 200]
            )
            // When it is deleted
            let deleted = try await browser.post("/recipes/\(recipe.id)/delete")
            #expect(deleted.status == .seeOther)
            let after = try await browser.get(try #require(deleted.location))
            // Then it is gone, the toast says so, and the meal logged from it stays
            #expect(after.shows(Localizer(.de).text("web.toast.recipe_deleted")))
            #expect(try store.recipes().isEmpty && !after.body.contains("/recipes/\(recipe.id)/edit"))
            #expect(try store.meals(on: LocalDate(WebHarness.now, in: harness.timeZone)).count == 1)
            #expect(try await browser.post("/recipes/\(recipe.id)/delete").status == .notFound)
        }
    }

    @Test("deleting a recipe without the CSRF token is refused and keeps it")
    func deleteNeedsToken() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let store = try harness.store()
        try await harness.run { browser in
            try await browser.onboard()
            #expect(
                try await browser.post(
                    "/recipes",
                    [("name", "Chicken rice"), ("ingredients", "300 g chicken breast, 200 g rice"), ("confirm", "yes")]
                ).status
                    == .seeOther
            )
            let recipe = try #require(try store.recipes().first)
            let refused = try await browser.post("/recipes/\(recipe.id)/delete", token: "wrong")
            #expect(refused.status == .forbidden)
            #expect(try store.recipes().count == 1)
        }
    }
}
