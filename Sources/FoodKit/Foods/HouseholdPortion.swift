import DietCore
import Foundation

/// One unit of a household measure of a food ("1 cup" = 81 g): what a person chooses an
/// amount in. The source lists some measures for several amounts ("1 cup" and "0.333 cup",
/// "0.5 breast"); a person counts in whole units, so each name appears once, for one unit.
public struct HouseholdPortion: Hashable, Sendable {
    /// What the person reads ("Scheibe").
    public let name: String
    public let gramsPerUnit: Double
    /// The English name the measure is also known by ("slice"), see `Portion.reference`.
    public let reference: String
    /// Offered on the portion screen in the food's language (see `Portion.isOffered`).
    public let isOffered: Bool
    /// What the person reads for any count but one ("Scheiben"), see `Portion.pluralName`.
    public let pluralName: String

    public init(name: String, gramsPerUnit: Double, reference: String? = nil, isOffered: Bool = true, pluralName: String? = nil) {
        self.name = name
        self.gramsPerUnit = gramsPerUnit
        self.reference = reference ?? name
        self.isOffered = isOffered
        self.pluralName = pluralName ?? name
    }

    /// "1 cup".
    public var label: String { "1 " + name }

    /// The name for a count as the user's language shows it: "Scheibe" for "1", "Scheiben" for
    /// "2", "0" or "1,5".
    public func unitName(forCount count: String, _ l: Localizer) -> String {
        l.pluralCategory(ofShown: count) == .one ? name : pluralName
    }

    /// `count` of the measure in the user's language, with as few decimals as it needs: "2 Scheiben",
    /// "1 Scheibe", "1,5 Portionen".
    public func countedLabel(_ count: Double, _ l: Localizer) -> String {
        let shown = l.amount(count)
        return shown + " " + unitName(forCount: shown, l)
    }
}

extension Food {
    /// The food's household measures, one per name (the source's first listing of it wins,
    /// converted to one unit), in the source's order.
    public var householdPortions: [HouseholdPortion] {
        var seen: Set<String> = []
        return portions.compactMap { portion in
            let key = SearchText.fold(portion.name)
            guard portion.gramsPerUnit > 0, !key.isEmpty, seen.insert(key).inserted else { return nil }
            return HouseholdPortion(
                name: portion.name,
                gramsPerUnit: portion.gramsPerUnit,
                reference: portion.reference,
                isOffered: portion.isOffered,
                pluralName: portion.pluralName
            )
        }
    }

    /// The words that name grams (and millilitres, counted as grams) when a person types a unit.
    public static let gramUnits: Set<String> = ["g", "gr", "grs", "gram", "grams", "gramm", "gramo", "gramos", "ml"]

    /// The amount of one food a meal may hold, in grams (docs/rules.md §4 meal limits: 5 kg).
    public static let gramRange = 1.0...5000.0

    /// `grams` of the food, checked: a finite amount of 1–5,000 g, else an error naming the
    /// amount with its unit.
    public static func checkedGrams(_ grams: Double) throws(ValidationError) -> Double {
        guard grams.isFinite, gramRange.contains((grams * 10).rounded() / 10) else {
            throw ValidationError(
                field: .amount,
                allowed: .range(min: gramRange.lowerBound, max: gramRange.upperBound, digits: 0, unit: "g"),
                received: !grams.isFinite ? "" : grams >= 1 ? String(format: "%.0f g", grams) : "< 1 g"
            )
        }
        return grams
    }

    /// The units an amount of this food may be given in: grams, then its household measures.
    public var units: [FoodUnit] {
        [.grams] + householdPortions.indices.map(FoodUnit.portion)
    }

    /// The household measures a person is offered, each with its unit (its place among all
    /// of them, so a unit's id is the same whichever are offered), and `keeping` where it is one
    /// of them (the measure a typed "Tasse" chose).
    public func offeredPortions(keeping kept: FoodUnit? = nil) -> [(unit: FoodUnit, portion: HouseholdPortion)] {
        householdPortions.enumerated().compactMap { index, portion in
            portion.isOffered || kept == .portion(index) ? (FoodUnit.portion(index), portion) : nil
        }
    }

    /// The grams of `amount` of `unit` (docs/rules.md §6): the one portion arithmetic of every
    /// surface. A unit is chosen by its identity; nil when the food has no such measure.
    public func grams(amount: Double, unit: FoodUnit) -> Double? {
        guard let perUnit = gramsPerUnit(of: unit) else { return nil }
        return amount * perUnit
    }

    /// Grams in one `unit` of the food; nil when the food has no such measure.
    public func gramsPerUnit(of unit: FoodUnit) -> Double? {
        switch unit {
        case .grams: return 1
        case .portion(let index):
            let portions = householdPortions
            return portions.indices.contains(index) ? portions[index].gramsPerUnit : nil
        }
    }

    /// The household measure `unit` stands for; nil for grams.
    public func householdPortion(_ unit: FoodUnit) -> HouseholdPortion? {
        guard case .portion(let index) = unit else { return nil }
        let portions = householdPortions
        return portions.indices.contains(index) ? portions[index] : nil
    }

    /// The unit a person TYPED (the CLI's "--portion 2 Scheibe", a count's unit): grams when it
    /// is a gram word ("g", "gramm", "ml"), whatever the food's measures are called; else the
    /// household measure whose shown or English name is exactly that, or whose noun (the name
    /// before its first comma: "Brust" of "Brust, ohne Knochen") is, when only one measure has
    /// it; accents and case ignored. Never by the start of a word: "g" is not "große". nil for none.
    public func unit(named name: String) -> FoodUnit? {
        let wanted = SearchText.fold(name)
        guard !wanted.isEmpty else { return nil }
        if Food.gramUnits.contains(wanted) { return .grams }
        let portions = householdPortions
        let names = { (portion: HouseholdPortion) in [portion.name, portion.reference] }
        if let exact = portions.firstIndex(where: { names($0).contains { SearchText.fold($0) == wanted } }) { return .portion(exact) }
        let byNoun = portions.indices.filter { index in
            names(portions[index]).contains { SearchText.fold(String($0.prefix { $0 != "," })) == wanted }
        }
        return byNoun.count == 1 ? .portion(byNoun[0]) : nil
    }

    /// How an amount of the food reads: "2 slices · 60 g", "1 Scheibe · 28 g", "1,5 Portionen ·
    /// 60 g" when it is a whole or half number of a household measure, else "150 g". Numbers and
    /// the measure's singular or plural as the user's language says them.
    public func amountLabel(grams: Double, _ l: Localizer) -> String {
        let gramsText = l.number(grams, digits: 0) + " g"
        for portion in householdPortions where portion.isOffered {
            let count = grams / portion.gramsPerUnit
            let halves = (count * 2).rounded()
            if halves >= 1, halves <= 40, abs(count * 2 - halves) < 0.01 {
                let shown = l.number(halves / 2, digits: halves.truncatingRemainder(dividingBy: 2) == 0 ? 0 : 1)
                return shown + " " + portion.unitName(forCount: shown, l) + " · " + gramsText
            }
        }
        return gramsText
    }
}

extension ValidationError.Field {
    /// The amount of a food in a meal.
    public static let amount = Self("amount")
}

/// What an amount of a food is counted in, by identity: grams, or one of the food's household
/// measures by its place in `Food.householdPortions` (never by its name, which differs by
/// language and may start like another word). Its `id` travels in forms: "g", "p0", "p1", ….
public enum FoodUnit: Hashable, Sendable {
    case grams
    case portion(Int)

    public var id: String {
        switch self {
        case .grams: "g"
        case .portion(let index): "p\(index)"
        }
    }

    /// The unit of a form's `id`; nil for anything else (a name, an old form's text).
    public init?(id: String) {
        if id == "g" {
            self = .grams
            return
        }
        guard id.hasPrefix("p"), id.count <= 4, let index = Int(id.dropFirst()), index >= 0, String(index) == id.dropFirst() else { return nil }
        self = .portion(index)
    }
}
