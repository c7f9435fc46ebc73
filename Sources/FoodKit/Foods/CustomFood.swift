import DietCore
import Foundation

/// A food the user adds, or a product found by barcode.
public struct CustomFood: Hashable, Sendable {
    public enum Source: String, Sendable {
        case user
        case openFoodFacts = "openfoodfacts"
    }

    public var name: String
    public var barcode: Barcode?
    /// Per 100 g; `carbsG` is available carbohydrate.
    public var per100g: Nutrients
    public var portions: [Portion]
    public var source: Source
    /// Where the data came from, shown with the food ("Open Food Facts, ODbL").
    public var attribution: String?

    /// Validates the values a label can have: a name of 1–80 characters without control characters,
    /// energy 0–900 kcal and each macro 0–100 g per 100 g.
    public init(
        name: String,
        barcode: Barcode? = nil,
        per100g: Nutrients,
        portions: [Portion] = [],
        source: Source = .user,
        attribution: String? = nil
    ) throws(ValidationError) {
        let trimmed = try TextRules.name(name, field: .foodName)
        guard per100g.kcal.isFinite, (0...900).contains(per100g.kcal) else {
            throw ValidationError(field: .calories, allowed: .range(min: 0, max: 900, digits: 0, unit: "kcal"), received: "\(per100g.kcal)")
        }
        for (field, grams) in [
            (ValidationError.Field.protein, per100g.proteinG), (.carbs, per100g.carbsG), (.fat, per100g.fatG),
            (.fiber, per100g.fiberG),
        ] where !(grams.isFinite && (0...100).contains(grams)) {
            throw ValidationError(field: field, allowed: .range(min: 0, max: 100, digits: 0, unit: "g"), received: "\(grams)")
        }
        var named: [Portion] = []
        for portion in portions {
            guard portion.grams > 0 && portion.grams <= 5000 && portion.amount > 0 && portion.amount <= 1000 else {
                throw ValidationError(field: .portion, allowed: .range(min: 1, max: 5000, digits: 0, unit: "g"), received: "\(portion.grams)")
            }
            // the sync row contract's rule for a portion's name: 1–80 characters, no control character
            let portionName = try TextRules.name(portion.name, field: .portion)
            let reference = portion.reference == portion.name ? portionName : try TextRules.name(portion.reference, field: .portion)
            named.append(Portion(amount: portion.amount, name: portionName, grams: portion.grams, reference: reference))
        }
        self.name = trimmed
        self.barcode = barcode
        self.per100g = per100g
        self.portions = named
        self.source = source
        self.attribution = attribution
    }
}

extension ValidationError.Field {
    public static let foodName = Self("foodName")
    public static let portion = Self("portion")
}
