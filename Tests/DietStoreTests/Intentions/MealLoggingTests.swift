import DietCore
import FoodKit
import Foundation
import GRDB
import TestSupport
import Testing

@testable import DietStore

/// Logging as a person does it many times a day (issue 14): foods by amount, several at once,
/// repeat foods with their last amount, undo, and meals grouped by eating moment.
@Suite("Meal logging")
struct MealLoggingTests {
    @Test("a deleted meal comes back with Undo, as a change that syncs")
    func undoDelete() throws {
        // Given a logged meal that was deleted
        let (store, clock) = try makeStore()
        let saved = try store.logMeal(try meal("Porridge", at: clock))
        try store.deleteMeal(saved.id, timeZone: Zones.berlin)
        #expect(try store.meals(on: .ymd(2026, 1, 5)).isEmpty)
        // When the person taps Undo
        let restored = try store.restoreMeal(saved.id, timeZone: Zones.berlin)
        // Then it is back with its values, and the restore waits to be synced
        #expect(restored.entry.name == "Porridge")
        #expect(try store.meals(on: .ymd(2026, 1, 5)).map(\.id) == [saved.id])
        #expect(try store.pendingChanges(limit: 100).contains { $0.id == saved.id && !$0.deleted })
        // and a meal that is not deleted cannot be "restored"
        #expect(throws: StoreError.self) { try store.restoreMeal(saved.id, timeZone: Zones.berlin) }
    }

    @Test("foods of a meal in words are saved together: all of them or none")
    func logFoodsAllOrNothing() throws {
        let (store, clock) = try makeStore()
        // When one amount is beyond 5 kg
        #expect(throws: ValidationError.self) {
            try store.logFoods(
                [FoodAmount(foodID: "1123", grams: 100), FoodAmount(foodID: "5062", grams: 6000)],
                at: clock.now(),
                moment: 1,
                timeZone: Zones.berlin,
                language: .en,
                source: .text
            )
        }
        // or a food does not exist
        #expect(throws: StoreError.self) {
            try store.logFoods(
                [FoodAmount(foodID: "1123", grams: 100), FoodAmount(foodID: "99999999", grams: 10)],
                at: clock.now(),
                moment: 1,
                timeZone: Zones.berlin,
                language: .en,
                source: .text
            )
        }
        // Then nothing was saved
        #expect(try store.count("meal_logs") == 0)
        // And with good items both are saved, in the same eating moment
        let meals = try store.logFoods(
            [FoodAmount(foodID: "1123", grams: 100), FoodAmount(foodID: "5062", grams: 150)],
            at: clock.now(),
            moment: 2,
            timeZone: Zones.berlin,
            language: .en,
            source: .text
        )
        #expect(meals.map(\.entry.moment) == [2, 2])
        #expect(try store.count("meal_logs") == 2)
    }

    @Test("150 g of a food is saved as 150 g, whatever portion the food offers")
    func typedGramsSaved() throws {
        let (store, clock) = try makeStore()
        let saved = try store.logFood(
            "5062",
            grams: 150,
            at: clock.now(),
            moment: nil,
            timeZone: Zones.berlin,
            language: .en,
            source: .search
        )
        let grams = try store.reader.read { db in
            try Double.fetchOne(
                db,
                sql: "SELECT portion_g FROM meal_logs WHERE id = ?",
                arguments: [saved.id.uuidString]
            )
        }
        #expect(grams == 150)
        // chicken breast, meat only, raw: 109 kcal per 100 g (BLS V4A6100)
        #expect(saved.entry.kcal == 164)
    }

    @Test("recent foods remember the amount last logged")
    func recentsRememberAmount() throws {
        let (store, clock) = try makeStore()
        try store.logFood("5062", grams: 150, at: clock.now(), moment: nil, timeZone: Zones.berlin, language: .en, source: .search)
        clock.advance(by: 60)
        try store.logFood("5062", grams: 118, at: clock.now(), moment: nil, timeZone: Zones.berlin, language: .en, source: .search)
        let recent = try store.usedFoods(frequent: false, language: .en)
        #expect(recent.first?.foodID == "5062")
        #expect(recent.first?.lastGrams == 118)
        #expect(recent.first?.uses == 2)
    }

    @Test("editing a meal keeps the food it came from, so it stays among the recent foods")
    func editKeepsFood() throws {
        let (store, clock) = try makeStore()
        let saved = try store.logFood("5062", grams: 150, at: clock.now(), moment: nil, timeZone: Zones.berlin, language: .en, source: .search)
        var entry = saved.entry
        entry.name = "Hähnchen"
        try store.editMeal(saved.id, to: entry)
        #expect(try store.usedFoods(frequent: false, language: .en).map(\.foodID) == ["5062"])
    }

    @Test("today's meals are grouped by the profile's eating moments, every moment shown")
    func groupsByMoment() throws {
        // Given Alice's moments 12:00, 15:00 and 18:00
        let (store, clock) = try makeStore()
        // a meal logged to moment 3 at 08:00, and one without a moment at 08:00 (by its time: moment 1)
        try store.logMeal(try MealEntry(name: "Abendbrot", kcal: 500, at: clock.now(), in: Zones.berlin, moment: 3))
        try store.logMeal(try meal("Porridge", at: clock))
        let snapshot = try #require(try store.today(timeZone: Zones.berlin))
        #expect(snapshot.mealGroups.map(\.moment.number) == [1, 2, 3])
        #expect(snapshot.mealGroups.map { $0.meals.map(\.entry.name) } == [["Porridge"], [], ["Abendbrot"]])
        #expect(snapshot.mealGroups[2].kcal == 500)
        // and at 08:00 a new meal goes to the next moment, the first
        #expect(snapshot.currentMoment == 1)
    }

    @Test("copying a day keeps each meal's moment")
    func copyKeepsMoment() throws {
        let (store, clock) = try makeStore()
        try store.logMeal(try MealEntry(name: "Abendbrot", kcal: 500, at: clock.now(), in: Zones.berlin, moment: 3))
        let copies = try store.copyDay(from: .ymd(2026, 1, 5), to: .ymd(2026, 1, 6), timeZone: Zones.berlin)
        #expect(copies.map(\.entry.moment) == [3])
    }
}

@Suite("Household portions: one arithmetic everywhere")
struct HouseholdPortionTests {
    func food(_ id: String) throws -> Food {
        let (store, _) = try makeStore()
        return try #require(try store.food(id: id, language: .en))
    }

    @Test("0.5 breast is 118 g (the source's half breast), not 236 g")
    func halfBreast() throws {
        let chicken = try food("5062")
        #expect(chicken.unit(named: "breast").flatMap { chicken.grams(amount: 0.5, unit: $0) } == 118)
        #expect(chicken.unit(named: "breast, bone and skin removed").flatMap { chicken.grams(amount: 1, unit: $0) } == 236)
        #expect(chicken.householdPortions.first { $0.name.hasPrefix("breast") }?.label == "1 breast, bone and skin removed")
        #expect(chicken.unit(named: "g").flatMap { chicken.grams(amount: 150, unit: $0) } == 150)
        #expect(chicken.unit(named: "bowl").flatMap { chicken.grams(amount: 1, unit: $0) } == nil)
    }

    @Test("oats offer one cup, not both '1 cup 81 g' and '0.333 cup 81 g'")
    func oatsOneCup() throws {
        let oats = try food("8120")
        let cups = oats.householdPortions.filter { $0.name == "cup" }
        #expect(cups.count == 1)
        #expect(cups.first?.gramsPerUnit == 81)
    }

    @Test("an amount reads in the food's measure when it is one: '2 cups · 162 g', '1 cup · 81 g', else in grams")
    func amountLabel() throws {
        let oats = try food("8120")
        #expect(oats.amountLabel(grams: 162, Localizer(.en)) == "2 cups · 162 g")
        #expect(oats.amountLabel(grams: 81, Localizer(.en)) == "1 cup · 81 g")
        #expect(oats.amountLabel(grams: 40.5, Localizer(.de)) == "0,5 cups · 41 g")
        #expect(oats.amountLabel(grams: 55, Localizer(.en)) == "55 g")
    }
}

@Suite("Own foods and recipes can be changed")
struct OwnFoodEditingTests {
    let cake = Nutrients(kcal: 250, proteinG: 3, carbsG: 35, totalCarbsG: 37, fiberG: 2, sugarsG: 20, fatG: 11, sodiumMg: 120)

    @Test("an own food is edited in place: same id, new values, the change syncs; another food's barcode is refused")
    func editFood() throws {
        let (store, _) = try makeStore()
        let food = try store.addCustomFood(try CustomFood(name: "Apfelkuchen", barcode: try Barcode("4006381333931"), per100g: cake))
        let other = try store.addCustomFood(try CustomFood(name: "Quark", barcode: try Barcode("96385074"), per100g: cake))
        let edited = try store.updateCustomFood(
            id: food.id,
            try CustomFood(
                name: "Omas Apfelkuchen",
                barcode: try Barcode("4006381333931"),
                per100g: cake
            )
        )
        #expect(edited.id == food.id && edited.name == "Omas Apfelkuchen")
        #expect(try store.customFoods().map(\.name) == ["Omas Apfelkuchen", "Quark"])
        #expect(throws: StoreError.self) {
            try store.updateCustomFood(id: other.id, try CustomFood(name: "Quark", barcode: try Barcode("4006381333931"), per100g: self.cake))
        }
        #expect(try store.pendingChanges(limit: 100).filter { $0.table == .customFoods }.count >= 2)
        // the stored draft holds what a form needs to edit it, barcode included
        let draft = try #require(try store.customFoodDraft(id: food.id))
        #expect(draft.barcode?.digits == "4006381333931" && draft.per100g.sugarsG == 20 && draft.name == "Omas Apfelkuchen")
    }

    @Test("a recipe is edited and deleted; meals logged from it stay")
    func editRecipe() throws {
        let (store, clock) = try makeStore()
        let recipe = try store.addRecipe(name: "Overnight oats", items: [Recipe.Item(foodID: "8120", grams: 80)], servings: 2)
        let meal = try store.mealEntry(servings: 1, of: recipe, at: clock.now(), in: Zones.berlin, language: .en)
        try store.logMeal(meal, source: .recipe)
        let edited = try store.updateRecipe(id: recipe.id, name: "Oats", items: [Recipe.Item(foodID: "8120", grams: 60)], servings: 1)
        #expect(edited.name == "Oats" && edited.servings == 1)
        #expect(try store.recipes().map(\.name) == ["Oats"])
        try store.deleteRecipe(recipe.id)
        #expect(try store.recipes().isEmpty)
        #expect(try store.meals(on: .ymd(2026, 1, 5)).count == 1)
        #expect(throws: StoreError.self) { try store.deleteRecipe(recipe.id) }
    }
}
