import DietCore
import Foundation

/// Energy and nutrients per 100 g. `carbsG` is available carbohydrate (total − fibre), the
/// figure European labels show and the app uses for macro goals.
public struct Nutrients: Hashable, Sendable, Codable {
    public let kcal: Double
    public let proteinG: Double
    public let carbsG: Double
    public let totalCarbsG: Double
    public let fiberG: Double
    public let sugarsG: Double
    public let fatG: Double
    public let sodiumMg: Double

    public init(
        kcal: Double,
        proteinG: Double,
        carbsG: Double,
        totalCarbsG: Double,
        fiberG: Double,
        sugarsG: Double,
        fatG: Double,
        sodiumMg: Double
    ) {
        self.kcal = kcal
        self.proteinG = proteinG
        self.carbsG = carbsG
        self.totalCarbsG = totalCarbsG
        self.fiberG = fiberG
        self.sugarsG = sugarsG
        self.fatG = fatG
        self.sodiumMg = sodiumMg
    }

    /// The nutrients of `grams` of the food.
    public func scaled(toGrams grams: Double) -> Nutrients {
        let f = grams / 100
        return Nutrients(
            kcal: kcal * f,
            proteinG: proteinG * f,
            carbsG: carbsG * f,
            totalCarbsG: totalCarbsG * f,
            fiberG: fiberG * f,
            sugarsG: sugarsG * f,
            fatG: fatG * f,
            sodiumMg: sodiumMg * f
        )
    }

    enum CodingKeys: String, CodingKey {
        case kcal
        case proteinG = "protein_g"
        case carbsG = "carbs_g"
        case totalCarbsG = "total_carbs_g"
        case fiberG = "fiber_g"
        case sugarsG = "sugars_g"
        case fatG = "fat_g"
        case sodiumMg = "sodium_mg"
    }
}

/// A household portion of a food: "1 large" = 50 g. `name` is what the person reads, in their
/// language ("mittelgroße"); `reference` is the English name it is matched by ("medium"), so
/// "1 Scheibe Brot" and "1 slice bread" find the same slice. For the user's own foods both are
/// the name they gave.
public struct Portion: Hashable, Sendable, Codable {
    public let amount: Double
    public let name: String
    public let grams: Double
    public let reference: String
    /// Whether a person reading the food's language is offered this measure: a US measuring cup
    /// of a solid ("Messbecher" of oats) is not, in German and Spanish; it only reads a typed "Tasse".
    public let isOffered: Bool
    /// The name for any count but one ("Scheiben" of "Scheibe", "große Eier", "cups, chopped"),
    /// from the food database; the name itself for the user's own portions (they name them once).
    public let pluralName: String

    public init(
        amount: Double,
        name: String,
        grams: Double,
        reference: String? = nil,
        isOffered: Bool = true,
        pluralName: String? = nil
    ) {
        self.amount = amount
        self.name = name
        self.grams = grams
        self.reference = reference ?? name
        self.isOffered = isOffered
        self.pluralName = pluralName ?? name
    }

    enum CodingKeys: String, CodingKey {
        case amount, name, grams, reference
        case pluralName = "plural"
    }

    // Portions stored before the reference name or the plural existed (the user's foods) decode
    // with their name for both.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        amount = try container.decode(Double.self, forKey: .amount)
        name = try container.decode(String.self, forKey: .name)
        grams = try container.decode(Double.self, forKey: .grams)
        reference = try container.decodeIfPresent(String.self, forKey: .reference) ?? name
        pluralName = try container.decodeIfPresent(String.self, forKey: .pluralName) ?? name
        isOffered = true
    }

    // The reference and the plural are written only when they differ, so a user's portion
    // encodes as before (the sync contract's shape of a user's portions has neither).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(amount, forKey: .amount)
        try container.encode(name, forKey: .name)
        try container.encode(grams, forKey: .grams)
        if reference != name { try container.encode(reference, forKey: .reference) }
        if pluralName != name { try container.encode(pluralName, forKey: .pluralName) }
    }

    /// The grams of one unit of this portion ("1 cup (4.86 large eggs)" = 243 g → 243).
    public var gramsPerUnit: Double { amount > 0 ? grams / amount : grams }

    /// The name for a count as the user's language shows it: "Scheibe" for "1", "Scheiben" for
    /// "2", "0" or "1,5" (`Language.pluralCategory(ofShown:)`).
    public func unitName(forCount count: String, _ l: Localizer) -> String {
        l.pluralCategory(ofShown: count) == .one ? name : pluralName
    }

    /// The label with the amount in the user's language: "0,5 Brüste", "1 Tasse", "2 Scheiben".
    public func label(_ l: Localizer) -> String {
        let count = l.amount(amount)
        return count + " " + unitName(forCount: count, l)
    }
}

/// A food of the bundled database.
public struct Food: Hashable, Sendable, Identifiable, Codable {
    public init(
        id: String,
        name: String,
        usdaName: String,
        per100g: Nutrients,
        portions: [Portion],
        isCommon: Bool,
        serving: Portion? = nil
    ) {
        self.id = id
        self.name = name
        self.usdaName = usdaName
        self.per100g = per100g
        self.portions = portions
        self.isCommon = isCommon
        self.serving = serving
    }

    /// The USDA SR24 number ("5062") for bundled foods, a UUID for the user's own foods.
    public let id: String
    /// The curated name in the requested language, else English, else the USDA name.
    public let name: String
    public let usdaName: String
    public let per100g: Nutrients
    public let portions: [Portion]
    /// The food has curated short names (a common food).
    public let isCommon: Bool
    /// What the food means when named without an amount ("Butter", "eine Cola"): one of its
    /// portions, from the food database's serving rules; nil when its whole item is meant
    /// ("1 medium" banana) or it has no rule.
    public let serving: Portion?

    enum CodingKeys: String, CodingKey {
        case id, name, portions, serving
        case usdaName = "usda_name"
        case per100g = "per_100g"
        case isCommon = "is_common"
    }
}

/// A search result with its rank.
public struct FoodHit: Hashable, Sendable {
    public let food: Food
    public let rank: SearchRank
    /// The name that matched the query, folded.
    public let matched: String

    public init(food: Food, rank: SearchRank, matched: String) {
        self.food = food
        self.rank = rank
        self.matched = matched
    }
}

extension Nutrients {
    /// The values as a meal keeps them: calories whole (at least 1), grams to one decimal. What
    /// a surface shows before saving is this, so the confirm screen and the saved meal round
    /// alike (65,46 g carbs is kept as 65,5 and shows 66 g on both, never 65 before and 66 after).
    public var asLogged: Nutrients {
        func tenth(_ value: Double) -> Double { (value * 10).rounded() / 10 }
        return Nutrients(
            kcal: Double(max(1, Int(kcal.rounded()))),
            proteinG: tenth(proteinG),
            carbsG: tenth(carbsG),
            totalCarbsG: tenth(totalCarbsG),
            fiberG: tenth(fiberG),
            sugarsG: tenth(sugarsG),
            fatG: tenth(fatG),
            sodiumMg: sodiumMg.rounded()
        )
    }

    /// The meal these nutrients make, named `name` (cut to 80 characters): calories rounded
    /// (at least 1), grams to one decimal (`asLogged`). Used by every surface that logs a food.
    public func mealEntry(
        named name: String,
        at instant: Date,
        in timeZone: TimeZone,
        moment: Int? = nil
    ) throws(ValidationError) -> MealEntry {
        let logged = asLogged
        return try MealEntry(
            name: String(name.prefix(80)),
            kcal: Int(logged.kcal),
            proteinG: logged.proteinG,
            carbsG: logged.carbsG,
            fatG: logged.fatG,
            fiberG: logged.fiberG,
            at: instant,
            in: timeZone,
            moment: moment
        )
    }
}
