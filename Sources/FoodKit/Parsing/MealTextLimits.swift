import DietCore

extension MealTextParser {
    /// The longest meal in words, in characters.
    public static let maxCharacters = 1000
    /// The most foods one meal in words may name.
    public static let maxFoods = 30
    /// The most of one food by weight or volume ("5 kg potatoes"), in grams or millilitres.
    public static let maxAmount = 5000.0
    /// The most of one food by count or household measure ("50 eggs", "50 cups").
    public static let maxCount = 50.0

    /// Reads `text` like `parse(_:)`, refusing what no meal can be, before anything is looked
    /// up or logged: more than 1,000 characters, control characters, more than 30 foods, or a
    /// quantity of one food beyond 5,000 g (or ml) or 50 pieces or measures.
    public static func checkedParse(_ text: String, dishes: Set<String> = []) throws(ValidationError) -> MealTextParse {
        try TextRules.check(text, field: .mealText)
        guard text.count <= maxCharacters else {
            throw ValidationError(field: .mealText, allowed: .length(min: 1, max: maxCharacters), received: "\(text.count)")
        }
        let parse = parse(text, dishes: dishes)
        let foods = parse.items.count + parse.unparsed.count
        guard foods <= maxFoods else {
            throw ValidationError(
                field: .mealTextFoods,
                allowed: .range(min: 1, max: Double(maxFoods), digits: 0, unit: nil),
                received: "\(foods)"
            )
        }
        for item in parse.items {
            try checkQuantity(item)
        }
        return parse
    }

    private static func checkQuantity(_ item: ParsedItem) throws(ValidationError) {
        if let unit = item.unit, let fixed = unit.fixedAmount {
            let amount = item.quantity * fixed
            let symbol = unit.isVolume ? "ml" : "g"
            guard amount <= maxAmount else {
                throw ValidationError(
                    field: .quantity,
                    allowed: .range(min: 0, max: maxAmount, digits: 0, unit: symbol),
                    received: "\(plain(amount.rounded())) \(symbol) (\"\(item.text)\")"
                )
            }
        } else if item.quantity > maxCount {
            throw ValidationError(
                field: .quantity,
                allowed: .range(min: 0, max: maxCount, digits: 0, unit: nil),
                received: "\(plain(item.quantity)) (\"\(item.text)\")"
            )
        }
    }
}

/// 10000 → "10000", 2.5 → "2.5": as typed, whatever the locale.
private func plain(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}

extension ValidationError.Field {
    public static let mealText = Self("mealText")
    public static let mealTextFoods = Self("mealTextFoods")
    public static let quantity = Self("quantity")
}
