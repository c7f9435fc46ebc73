import DietCore
import FoodKit
import Foundation
import GRDB

/// A typed meal resolved against the food database, for the user to confirm.
public struct TextMeal: Hashable, Sendable {
    public struct Item: Hashable, Sendable {
        public let parsed: ParsedItem
        public let food: Food
        public let choice: PortionChooser.Choice
        public let nutrients: Nutrients
    }

    public let items: [Item]
    /// Fragments that named no food: reported, never guessed.
    public let unparsed: [String]
    /// Items whose food was not found.
    public let unmatched: [ParsedItem]

    public var totals: Nutrients {
        items.map(\.nutrients).reduce(Nutrients(kcal: 0, proteinG: 0, carbsG: 0, totalCarbsG: 0, fiberG: 0, sugarsG: 0,
                                                fatG: 0, sodiumMg: 0)) { sum, n in
            Nutrients(kcal: sum.kcal + n.kcal, proteinG: sum.proteinG + n.proteinG, carbsG: sum.carbsG + n.carbsG,
                      totalCarbsG: sum.totalCarbsG + n.totalCarbsG, fiberG: sum.fiberG + n.fiberG,
                      sugarsG: sum.sugarsG + n.sugarsG, fatG: sum.fatG + n.fatG, sodiumMg: sum.sodiumMg + n.sodiumMg)
        }
    }
}

extension AppDatabase {
    /// The folded curated names that hold a separator word ("arroz con leche", "mac and
    /// cheese"), which the meal parser keeps whole.
    public func mealTextDishes() throws -> Set<String> {
        try reader.read { db in try FoodCatalog.dishes(db) }
    }

    /// Parses "2 eggs and a slice of toast", finds each food (the best search hit) and its
    /// grams, and totals them. Nothing is logged: the caller confirms first.
    public func resolveMealText(_ text: String, language: Language, timeZone: TimeZone) throws -> TextMeal {
        let parse = MealTextParser.parse(text, dishes: try mealTextDishes())
        let today = LocalDate(clock.now(), in: timeZone)
        return try reader.read { db in
            var items: [TextMeal.Item] = []
            var unmatched: [ParsedItem] = []
            for parsed in parse.items {
                let direct = try FoodCatalog.search(db, text: parsed.food, language: language, today: today, limit: 1).first
                // a plural ("Brezeln") finds its food by the singular before any name that merely contains it
                let viaSingular = direct.map { $0.rank.exactness >= 3 } ?? true
                    ? try singular(parsed.food).flatMap { try FoodCatalog.search(db, text: $0, language: language, today: today, limit: 1).first }
                    : nil
                guard let hit = [viaSingular, direct].compactMap({ $0 }).min(by: { $0.rank.exactness < $1.rank.exactness }) else {
                    unmatched.append(parsed)
                    continue
                }
                let choice = PortionChooser.grams(quantity: parsed.quantity, unit: parsed.unit, portions: hit.food.portions,
                                                  foodName: hit.food.usdaName)
                items.append(TextMeal.Item(parsed: parsed, food: hit.food, choice: choice,
                                           nutrients: hit.food.per100g.scaled(toGrams: choice.grams)))
            }
            return TextMeal(items: items, unparsed: parse.unparsed, unmatched: unmatched)
        }
    }

    /// "Brezeln" → "Brezel", "eggs" → "egg", "huevos" → "huevo": a second try for plurals.
    private func singular(_ food: String) -> String? {
        for suffix in ["es", "en", "n", "s"] where food.count > suffix.count + 2 && food.lowercased().hasSuffix(suffix) {
            return String(food.dropLast(suffix.count))
        }
        return nil
    }
}
