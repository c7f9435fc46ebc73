import Foundation

extension MealTextParser {
    /// An amount at the start: "2", "1 1/2", "2-3" and "2 to 3" (the middle, both bounds kept),
    /// "1 to 1 1/2", "one and a half", "2 x 100", "zwei", "a half", "drei Viertel".
    static func leadingAmount(_ words: [String]) -> Amount? {
        guard var amount = number(words, at: 0) else { return nil }
        let folded = words.map(SearchText.fold)
        // "one and a half", "zwei und ein halb"
        if folded.count > amount.used + 1, FoodWords.halfJoiners.contains(folded[amount.used]),
            let part = joinedPart(Array(words[(amount.used + 1)...]))
        {
            amount.used += 1 + part.used
            amount.value += part.value
        }
        guard folded.count > amount.used + 1 else { return amount }
        let next = folded[amount.used]
        // "2 to 3", "1 1/2-2", "2 bis 3", "2 o 3"
        if FoodWords.rangeWords.contains(next) || words[amount.used] == "-", let upper = number(words, at: amount.used + 1),
            upper.value > amount.value
        {
            return Amount(value: (amount.value + upper.value) / 2, range: amount.value...upper.value, used: amount.used + 1 + upper.used)
        }
        // "2 x 100 g"
        if FoodWords.times.contains(next), let each = number(words, at: amount.used + 1) {
            return Amount(value: amount.value * each.value, range: nil, used: amount.used + 1 + each.used)
        }
        // "2x Brötchen": times a food is a count
        if ["x", "×"].contains(next) { amount.used += 1 }
        return amount
    }

    /// One number at `start`: "2", "1 1/2", "1½", "zwei", "a couple (of)", "ein halbes",
    /// "drei Viertel", "half a".
    static func number(_ words: [String], at start: Int) -> Amount? {
        guard start < words.count else { return nil }
        let first = words[start]
        let folded = words[start...].prefix(2).map(SearchText.fold)
        guard var value = NumberWords.number(first) ?? NumberWords.words[folded[0]] else { return nil }
        // "a dozen", "media docena", "two dozen"
        if folded.count > 1, FoodWords.dozens.contains(folded[1]), !FoodWords.dozens.contains(folded[0]) {
            value *= 12
            return Amount(value: value, range: nil, used: 2)
        }
        let whole = value >= 1 && value.rounded() == value
        if folded.count > 1 {
            let second = words[start + 1]
            if whole, let fraction = NumberWords.number(second), fraction < 1,
                second.contains("/") || NumberWords.fractions[second.last ?? " "] != nil
            {
                return Amount(value: value + fraction, range: nil, used: 2)
            }
            // "a couple of", "ein paar", "un par de": two
            if value == 1, NumberWords.couples.contains(folded[1]) { return Amount(value: 2, range: nil, used: 2) }
            // "ein halbes", "one half", "drei Viertel", "tres cuartos", "two thirds": the count of parts
            if whole, let part = NumberWords.parts[folded[1]] { return Amount(value: value * part, range: nil, used: 2) }
            if value == 0.5, NumberWords.words[folded[1]] == 1 { return Amount(value: 0.5, range: nil, used: 2) }
        }
        return Amount(value: value, range: nil, used: 1)
    }

    /// A quantity at the end: "Haferflocken 60 g", "Milch 200ml", "Eier 2".
    static func trailingQuantity(_ words: [String]) -> (Double, QuantityUnit?, Int)? {
        guard words.count >= 2 else { return nil }
        if words.count >= 3, let unit = QuantityUnit.words[SearchText.fold(words[words.count - 1])],
            let value = NumberWords.number(words[words.count - 2])
        {
            return (value, unit, 2)
        }
        if let value = NumberWords.number(words[words.count - 1]) {
            return (value, nil, 1)
        }
        // "Brötchen 2x"
        if words.count >= 3, ["x", "×"].contains(SearchText.fold(words[words.count - 1])), let value = NumberWords.number(words[words.count - 2]) {
            return (value, nil, 2)
        }
        return nil
    }
}
