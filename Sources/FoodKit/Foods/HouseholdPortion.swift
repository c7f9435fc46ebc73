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

    public init(name: String, gramsPerUnit: Double, reference: String? = nil) {
        self.name = name
        self.gramsPerUnit = gramsPerUnit
        self.reference = reference ?? name
    }

    /// "1 cup".
    public var label: String { "1 " + name }
}

extension Food {
    /// The food's household measures, one per name (the source's first listing of it wins,
    /// converted to one unit), in the source's order.
    public var householdPortions: [HouseholdPortion] {
        var seen: Set<String> = []
        return portions.compactMap { portion in
            let key = SearchText.fold(portion.name)
            guard portion.gramsPerUnit > 0, !key.isEmpty, seen.insert(key).inserted else { return nil }
            return HouseholdPortion(name: portion.name, gramsPerUnit: portion.gramsPerUnit, reference: portion.reference)
        }
    }

    /// The units an amount of the food may be given in: grams ("g"; "ml" counts as grams)
    /// or one of its household measures, by name.
    public static let gramUnits: Set<String> = ["g", "gram", "grams", "gramm", "ml"]

    /// The amount of one food a meal may hold, in grams (docs/rules.md §4 meal limits: 5 kg).
    public static let gramRange = 1.0...5000.0

    /// `grams` of the food, checked: a finite amount of 1–5,000 g, else an error naming the
    /// amount with its unit.
    public static func checkedGrams(_ grams: Double) throws(ValidationError) -> Double {
        guard grams.isFinite, gramRange.contains((grams * 10).rounded() / 10) else {
            throw ValidationError(
                field: .amount,
                allowed: .range(min: gramRange.lowerBound, max: gramRange.upperBound, digits: 0, unit: "g"),
                received: !grams.isFinite ? "" : grams >= 1 ? String(format: "%.0f g", grams) : String(format: "%.3g g", grams)
            )
        }
        return grams
    }

    /// The grams of `amount` of `unit` (docs/rules.md §6): the one portion arithmetic of every surface.
    /// `unit` is "g" (or "ml") or the name of a household measure, as shown or in English, matched
    /// exactly, else by its start ("breast" for "breast, bone and skin removed"), accents and case ignored.
    /// nil when the food has no such measure.
    public func grams(amount: Double, unit: String) -> Double? {
        guard let portion = householdPortion(named: unit) else {
            return Food.gramUnits.contains(SearchText.fold(unit)) ? amount : nil
        }
        return amount * portion.gramsPerUnit
    }

    /// The household measure called `name`, its shown or its English name ("Scheibe" or "slice"):
    /// exactly, else by its start; nil for none.
    public func householdPortion(named name: String) -> HouseholdPortion? {
        let wanted = SearchText.fold(name)
        guard !wanted.isEmpty else { return nil }
        let all = householdPortions
        let names = { (portion: HouseholdPortion) in [SearchText.fold(portion.name), SearchText.fold(portion.reference)] }
        return all.first { names($0).contains(wanted) } ?? all.first { names($0).contains { $0.hasPrefix(wanted) } }
    }

    /// How an amount of the food reads: "2 slice · 60 g" when it is a whole or half number of
    /// a household measure, else "150 g". Numbers in the user's language.
    public func amountLabel(grams: Double, _ l: Localizer) -> String {
        let gramsText = l.number(grams, digits: 0) + " g"
        for portion in householdPortions {
            let count = grams / portion.gramsPerUnit
            let halves = (count * 2).rounded()
            if halves >= 1, halves <= 40, abs(count * 2 - halves) < 0.01 {
                return l.number(halves / 2, digits: halves.truncatingRemainder(dividingBy: 2) == 0 ? 0 : 1) + " " + portion.name
                    + " · " + gramsText
            }
        }
        return gramsText
    }
}

extension ValidationError.Field {
    /// The amount of a food in a meal.
    public static let amount = Self("amount")
}
