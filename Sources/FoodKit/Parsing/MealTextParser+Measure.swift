import Foundation

extension MealTextParser {
    /// A weight or volume given besides the amount, and whether it was said to be approximate
    /// ("ca. 250 g", "~ 550 g", "about 8 oz").
    struct Measure {
        var amount: Amount
        var unit: QuantityUnit
        var approximate: Bool
    }

    /// A weight or volume in parentheses or after the food, which wins over the unit before it:
    /// "1 Becher Joghurt (500 g)", "1 can (15 oz) beans", "(ca. 200 g)", "(Abtropfgewicht 240 g)".
    /// Of several measures ("½ cup (110 g / 3.9 oz)", "1 cup (2 sticks / 250 g)") the first
    /// weight or volume counts; a conversion note ("1 TL ~ 2 g") is no amount of the food.
    static func measure(_ inner: [String]) -> Measure? {
        let measures = inner.split { [",", "/"].contains($0) || alternativeWords.contains(SearchText.fold($0)) }.map(Array.init)
        for measure in measures {
            var words = measure
            var approximate = false
            while words.count > 2, isHedge(words[0]) || FoodWords.weightLeads.contains(SearchText.fold(words[0])) {
                approximate = approximate || isHedge(words[0])
                words.removeFirst()
            }
            // "(taza y 1/3 cocida)": a unit without a number is one
            if let first = words.first, QuantityUnit.words[SearchText.fold(first)] != nil { words.insert("1", at: 0) }
            guard var amount = leadingAmount(words) else { continue }
            // "(3/4 de taza)"
            let position = amount.used + (words.count > amount.used + 1 && connectors.contains(SearchText.fold(words[amount.used])) ? 1 : 0)
            guard words.count > position, let unit = QuantityUnit.words[SearchText.fold(words[position])] else { continue }
            var rest = words.dropFirst(position + 1)
            if let joiner = rest.first, FoodWords.halfJoiners.contains(SearchText.fold(joiner)), let part = joinedPart(Array(rest.dropFirst())) {
                amount.value += part.value
                rest = rest.dropFirst(1 + part.used)
            }
            // "(200 g + 25 g)": a sum
            if let (extra, used) = addedAmount(Array(rest), to: unit, alone: true) {
                amount.value += extra
                rest = rest.dropFirst(used)
            }
            // "(una taza cocida)", "(2 cucharadas soperas)"
            // "(80 gr. de pan)": the weight of the part that makes the food
            let ofPart = unit.fixedAmount != nil && rest.count > 1 && connectors.contains(SearchText.fold(rest.first ?? ""))
            guard ofPart || rest.allSatisfy({ isDescription($0) || FoodWords.looksPrepared(SearchText.fold($0)) }) else { return nil }
            if unit.fixedAmount != nil { return Measure(amount: amount, unit: unit, approximate: approximate) }
            // a cup or a spoon counts when it is the first measure ("1 can (~2 cups / 16 oz)")
            if unit.standardMilliliters != nil, measure == measures[0] {
                return Measure(amount: amount, unit: unit, approximate: approximate)
            }
        }
        return nil
    }

    /// What a container holds, typed after it: "de 1/2 kg de tomate" after "un bote", "of 400 g"
    /// after "2 cans" (twice 400 g). The measure and the words it took.
    static func containerContents(_ words: [String]) -> (Measure, Int)? {
        guard words.count > 3, connectors.contains(SearchText.fold(words[0])), let contents = leadingAmount(Array(words.dropFirst())),
            words.count > contents.used + 2, let unit = QuantityUnit.words[SearchText.fold(words[1 + contents.used])],
            unit.fixedAmount != nil
        else { return nil }
        return (Measure(amount: contents, unit: unit, approximate: false), contents.used + 2)
    }

    /// "ca.", "about", "unos", "~", "≈".
    static func isHedge(_ word: String) -> Bool {
        NumberWords.hedges.contains(SearchText.fold(word)) || ["~", "≈"].contains(word)
    }

    /// A weight or volume typed after the food without parentheses ("1 Hühnerbrust, ca. 250 g",
    /// "1 lata de tomate, 400 g"): taken off the words and returned as a measure to weigh.
    static func trailingMeasure(_ words: inout [String]) -> [[String]] {
        guard let start = words.indices.dropFirst().first(where: { isMeasure(words[$0...]) }),
            words[..<start].contains(where: isFoodWord)
        else { return [] }
        let measure = Array(words[start...])
        words.removeSubrange(start...)
        return [measure]
    }

    /// Whether the words are only a weight or volume, perhaps approximate: "ca. 250 g", "400 ml".
    static func isMeasure(_ words: ArraySlice<String>) -> Bool {
        // a hedge, a number of at most two words and a unit
        guard (2...5).contains(words.count) else { return false }
        let rest = Array(words.drop(while: isHedge))
        guard let amount = leadingAmount(rest), rest.count == amount.used + 1 else { return false }
        return QuantityUnit.words[SearchText.fold(rest[amount.used])]?.fixedAmount != nil
    }

    /// A glass of beer or wine named by its size ("eine Halbe Helles", "zwei Halbe", "ein Viertel
    /// Wein", "ein Seidla") is written out as its litres and its drink: "0.5 l Helles", "1.0 l Bier".
    static func drinkGlass(_ words: inout [String]) {
        let folded = words.prefix(2).map(SearchText.fold)
        let counted = folded.first.flatMap { NumberWords.words[$0] }.map { $0 >= 1 } ?? false
        let count = counted ? NumberWords.words[folded[0]] ?? 1 : NumberWords.number(words.first ?? "") ?? 1
        let position = counted || NumberWords.number(words.first ?? "") != nil ? 1 : 0
        guard folded.count > position, let glass = FoodWords.glasses[folded[position]] else { return }
        let rest = Array(words.dropFirst(position + 1))
        let drink = rest.first.map { FoodWords.isDrink(SearchText.fold($0)) } ?? false
        guard drink || rest.isEmpty && (glass.drink != nil), !glass.alsoPart || drink || rest.isEmpty else { return }
        words = [String(count * glass.liters), "l"] + (rest.isEmpty ? [glass.drink ?? ""] : rest)
    }
}
