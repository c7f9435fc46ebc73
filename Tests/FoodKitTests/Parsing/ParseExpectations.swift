import Testing

@testable import FoodKit

/// That `text` parses to exactly one item of `quantity` (to 1e-9), `unit` and `food`, with
/// nothing left unread.
func expectOneItem(
    _ text: String,
    _ quantity: Double,
    _ unit: QuantityUnit?,
    _ food: String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let parse = MealTextParser.parse(text)
    let item = try #require(parse.items.first, "\(text)", sourceLocation: sourceLocation)
    #expect(
        parse.items.count == 1 && abs(item.quantity - quantity) < 1e-9 && item.unit == unit && item.food == food
            && parse.unparsed.isEmpty,
        "\(text): \(parse.items.map { "\($0.quantity) \(String(describing: $0.unit)) \($0.food)" }) \(parse.unparsed)",
        sourceLocation: sourceLocation
    )
}
