import DietCore
import Foundation

/// A recipe (docs/rules.md §6): a named list of food portions that yields a number of servings.
public struct Recipe: Hashable, Sendable, Identifiable {
    public struct Item: Hashable, Sendable, Codable {
        public let foodID: String
        public let grams: Double

        public init(foodID: String, grams: Double) {
            self.foodID = foodID
            self.grams = grams
        }

        enum CodingKeys: String, CodingKey {
            case grams
            case foodID = "food_id"
        }
    }

    public let id: String
    public let name: String
    public let items: [Item]
    public let servings: Double

    /// How many servings a recipe may make.
    public static let yieldRange = 0.5...100.0
    /// How many servings of it one meal may be.
    public static let servingsPerMeal = 0.1...20.0

    /// Validates: a name of 1–80 characters without control characters, 1–50 items of 0.1–5,000 g, 0.5–100 servings.
    public init(id: String, name: String, items: [Item], servings: Double) throws(ValidationError) {
        let trimmed = try TextRules.name(name, field: .recipeName)
        guard (1...50).contains(items.count) else {
            throw ValidationError(field: .recipeItems, allowed: .range(min: 1, max: 50, digits: 0, unit: nil), received: "\(items.count)")
        }
        for item in items where !(item.grams.isFinite && (0.1...5000).contains(item.grams)) {
            throw ValidationError(field: .portion, allowed: .range(min: 0.1, max: 5000, digits: 1, unit: "g"), received: "\(item.grams)")
        }
        guard servings.isFinite, Recipe.yieldRange.contains(servings) else {
            throw ValidationError(
                field: .servings,
                allowed: .range(
                    min: Recipe.yieldRange.lowerBound,
                    max: Recipe.yieldRange.upperBound,
                    digits: 1,
                    unit: nil
                ),
                received: "\(servings)"
            )
        }
        self.id = id
        self.name = trimmed
        self.items = items
        self.servings = servings
    }

    /// A recipe read back from storage, where it was validated on the way in: a name from an
    /// older version or another device that breaks today's rules still shows (escaped) rather
    /// than vanishing.
    public init(restoring id: String, name: String, items: [Item], servings: Double) {
        self.id = id
        self.name = name
        self.items = items
        self.servings = servings
    }

    /// What one serving holds, given each item's food (items whose food is unknown are skipped).
    public func perServing(foods: [String: Food]) -> (grams: Double, nutrients: Nutrients) {
        var total = Nutrients(kcal: 0, proteinG: 0, carbsG: 0, totalCarbsG: 0, fiberG: 0, sugarsG: 0, fatG: 0, sodiumMg: 0)
        var grams = 0.0
        for item in items {
            guard let food = foods[item.foodID] else { continue }
            let n = food.per100g.scaled(toGrams: item.grams)
            grams += item.grams
            total = Nutrients(
                kcal: total.kcal + n.kcal,
                proteinG: total.proteinG + n.proteinG,
                carbsG: total.carbsG + n.carbsG,
                totalCarbsG: total.totalCarbsG + n.totalCarbsG,
                fiberG: total.fiberG + n.fiberG,
                sugarsG: total.sugarsG + n.sugarsG,
                fatG: total.fatG + n.fatG,
                sodiumMg: total.sodiumMg + n.sodiumMg
            )
        }
        return (grams / servings, total.scaled(toGrams: 100 / servings))
    }
}

extension ValidationError.Field {
    public static let recipeName = Self("recipeName")
    public static let recipeItems = Self("recipeItems")
    public static let servings = Self("servings")
}
