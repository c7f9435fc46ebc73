import ArgumentParser
import DietCore

/// A number given on the command line as the person writes it (docs/rules.md §4): "72,4" and "72.4"
/// both mean 72.4. Parsing never fails in ArgumentParser (whose errors are English and name
/// no range); the command reads the number with the field's range and unit, so a refusal
/// names field, range and what was typed in the user's language.
struct TypedNumber: ExpressibleByArgument, Hashable, Sendable {
    let text: String

    init(argument: String) { text = argument }

    init(_ value: Double) { text = String(value) }

    /// The number within `range`, else a refusal naming `field`.
    func value(
        _ field: DietCore.ValidationError.Field,
        _ range: ClosedRange<Double>,
        digits: Int,
        unit: String?
    ) throws(DietCore.ValidationError) -> Double {
        try NumberInput.value(text, field: field, range: range, digits: digits, unit: unit)
    }

    /// A whole number within `range` (a decimal is rounded), else a refusal naming `field`.
    func whole(_ field: DietCore.ValidationError.Field, _ range: ClosedRange<Int>, unit: String?) throws(DietCore.ValidationError) -> Int {
        try NumberInput.whole(text, field: field, range: range, unit: unit)
    }

    /// The number as typed, without a range (the domain checks it), else a refusal naming
    /// `field` with `range` as the hint.
    func number(
        _ field: DietCore.ValidationError.Field,
        hint range: ClosedRange<Double>,
        digits: Int,
        unit: String?
    ) throws(DietCore.ValidationError) -> Double {
        guard let value = NumberInput.decimal(text) else {
            throw DietCore.ValidationError(
                field: field,
                allowed: .range(
                    min: range.lowerBound,
                    max: range.upperBound,
                    digits: digits,
                    unit: unit
                ),
                received: TextRules.quoted(text)
            )
        }
        return value
    }
}
