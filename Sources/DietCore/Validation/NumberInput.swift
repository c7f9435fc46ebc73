import Foundation

/// Numbers as people type them (docs/rules.md §4): "72,4" and "72.4" both mean 72.4 in every number
/// field of every surface, in every language; a thousands separator is never required.
public enum NumberInput {
    /// The number `text` spells: optional sign, digits and at most one decimal separator
    /// (comma or point), white space around it ignored. nil for anything else: empty text,
    /// letters, two separators ("1.234,5" or "1,2,3"), exponents, infinity, NaN.
    public static func decimal(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var digits = 0
        var separators = 0
        for (index, character) in trimmed.enumerated() {
            switch character {
            case "0"..."9": digits += 1
            case ",", ".": separators += 1
            case "-" where index == 0, "+" where index == 0: continue
            default: return nil
            }
        }
        guard digits > 0, separators <= 1, trimmed.count <= 40 else { return nil }
        guard let value = Double(trimmed.replacingOccurrences(of: ",", with: ".")), value.isFinite else { return nil }
        return value
    }

    /// The number in `text` within `range`; otherwise the error names `field`, the range with
    /// `digits` and `unit`, and what was typed ("nothing" when nothing was).
    public static func value(
        _ text: String?,
        field: ValidationError.Field,
        range: ClosedRange<Double>,
        digits: Int,
        unit: String?
    ) throws(ValidationError) -> Double {
        let allowed = ValidationError.Allowed.range(min: range.lowerBound, max: range.upperBound, digits: digits, unit: unit)
        guard let text, let value = decimal(text), range.contains(value) else {
            throw ValidationError(field: field, allowed: allowed, received: shown(text))
        }
        return value
    }

    /// Like `value`, but empty or absent text means "not given" (nil), for optional fields.
    public static func optionalValue(
        _ text: String?,
        field: ValidationError.Field,
        range: ClosedRange<Double>,
        digits: Int,
        unit: String?
    ) throws(ValidationError) -> Double? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return try value(text, field: field, range: range, digits: digits, unit: unit)
    }

    /// A whole number within `range`. A decimal typed into a whole-number field is rounded
    /// half away from zero ("450,5" kcal → 451): the person meant that amount, and a refusal
    /// for a fraction of a kilocalorie would only be in the way.
    public static func whole(
        _ text: String?,
        field: ValidationError.Field,
        range: ClosedRange<Int>,
        unit: String?
    ) throws(ValidationError) -> Int {
        let allowed = ValidationError.Allowed.range(min: Double(range.lowerBound), max: Double(range.upperBound), digits: 0, unit: unit)
        guard let text, let value = decimal(text), abs(value) < 1e9 else {
            throw ValidationError(field: field, allowed: allowed, received: shown(text))
        }
        let rounded = Int(value.rounded(.toNearestOrAwayFromZero))
        guard range.contains(rounded) else { throw ValidationError(field: field, allowed: allowed, received: shown(text)) }
        return rounded
    }

    /// What was typed, for a message: quoted when it is not a plain number, empty for nothing.
    static func shown(_ text: String?) -> String {
        let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if trimmed.isEmpty { return "" }
        return decimal(trimmed) != nil ? trimmed : TextRules.quoted(trimmed)
    }
}
