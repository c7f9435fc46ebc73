import Foundation

/// One food in a typed meal: "200 g chicken breast" → quantity 200, unit gram, food
/// "chicken breast". Matching the food and its portion is the food database's job.
public struct ParsedItem: Hashable, Sendable {
    /// The fragment as typed.
    public let text: String
    /// How many units; 1 when none was typed (then `quantityGiven` is false).
    public let quantity: Double
    public let quantityGiven: Bool
    /// nil: the quantity counts the food itself ("2 eggs") or its default portion.
    public let unit: QuantityUnit?
    /// The words naming the food, as typed (trimmed), without preparation words.
    public let food: String
    /// Both bounds of a typed range ("2 to 3 tablespoons" → 2...3); `quantity` is its middle.
    public let range: ClosedRange<Double>?
    /// How the food is prepared, as typed ("diced", "peeled", "gehackt"): kept apart from
    /// the food so that search matches the food itself.
    public let preparation: [String]

    public init(text: String, quantity: Double, quantityGiven: Bool, unit: QuantityUnit?, food: String,
                range: ClosedRange<Double>? = nil, preparation: [String] = []) {
        self.text = text
        self.quantity = quantity
        self.quantityGiven = quantityGiven
        self.unit = unit
        self.food = food
        self.range = range
        self.preparation = preparation
    }
}

/// The result of reading a typed meal: the items understood, and every fragment that was
/// not, so nothing is guessed silently.
public struct MealTextParse: Hashable, Sendable {
    public let items: [ParsedItem]
    public let unparsed: [String]
}

/// Reads "2 eggs and a slice of toast", "Haferflocken 60g mit Milch", "un plátano y 1½ tazas de
/// leche" into items (SPEC §6).
public enum MealTextParser {
    /// Words and marks that separate foods, folded.
    public static let separators: Set<String> = ["and", "with", "plus", "und", "mit", "sowie", "y", "e", "con", "&", "+"]
    /// Words between a unit and its food: "a slice of toast", "1 Tasse von", "una taza de leche".
    static let connectors: Set<String> = ["of", "von", "vom", "de", "del"]

    /// - Parameter dishes: folded names (`SearchText.fold`) of known foods and dishes that hold
    ///   a separator word ("arroz con leche", "mac and cheese"): a span of the text that is one
    ///   of them stays one item.
    public static func parse(_ text: String, dishes: Set<String> = []) -> MealTextParse {
        var items: [ParsedItem] = []
        var unparsed: [String] = []
        for fragment in fragments(text) {
            if let item = item(fragment) {
                items.append(item)
            } else {
                unparsed.append(fragment)
            }
        }
        return MealTextParse(items: items, unparsed: unparsed)
    }

    /// Splits on punctuation (not a decimal comma) and separator words.
    static func fragments(_ text: String) -> [String] {
        var pieces: [String] = []
        var current: [String] = []
        for token in tokens(text) {
            if [",", ";", "\n"].contains(token) || separators.contains(token) || separators.contains(SearchText.fold(token)) {
                if !current.isEmpty { pieces.append(current.joined(separator: " ")) }
                current = []
            } else {
                current.append(token)
            }
        }
        if !current.isEmpty { pieces.append(current.joined(separator: " ")) }
        return pieces
    }

    /// Words, with "200g" split into "200" "g", and list punctuation as its own token.
    static func tokens(_ text: String) -> [String] {
        var result: [String] = []
        let marked = text.replacingOccurrences(of: "\n", with: " \n ")
            .replacingOccurrences(of: ";", with: " ; ")
            .replacingOccurrences(of: "+", with: " + ")
            .replacingOccurrences(of: "&", with: " & ")
            .replacingOccurrences(of: "–", with: "-")
        for word in marked.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            var word = word
            var trailingComma = false
            while word.hasSuffix(",") || word.hasSuffix(".") && !(word.dropLast().last?.isNumber ?? false) {
                if word.hasSuffix(",") { trailingComma = true }
                word.removeLast()
            }
            result += splitNumberAndUnit(word)
            if trailingComma { result.append(",") }
        }
        return result.filter { !$0.isEmpty }
    }

    /// "200g" → ["200", "g"]; "2-3" stays; "1½" stays.
    private static func splitNumberAndUnit(_ word: String) -> [String] {
        guard let first = word.first, first.isNumber || NumberWords.fractions[first] != nil else { return [word] }
        let numeric = word.prefix { $0.isNumber || $0 == "." || $0 == "," || $0 == "/" || $0 == "-" || NumberWords.fractions[$0] != nil }
        let rest = word.dropFirst(numeric.count)
        guard !rest.isEmpty, QuantityUnit.words[SearchText.fold(String(rest))] != nil else { return [word] }
        return [String(numeric), String(rest)]
    }

    /// One fragment → an item; nil when no food words remain.
    static func item(_ fragment: String) -> ParsedItem? {
        var words = fragment.split(separator: " ").map(String.init)
        var quantity: Double?
        var unit: QuantityUnit?
        // "about 200 g", "ca. 2 EL", "unos 100 g": the hedge goes, the amount stays
        if words.count > 2, NumberWords.hedges.contains(SearchText.fold(words[0])), leadingQuantity(Array(words.dropFirst())) != nil {
            words.removeFirst()
        }
        if let (value, used) = leadingQuantity(words) {
            quantity = value
            words.removeFirst(used)
            // "tres cuartos de taza de leche": a connector between the amount and its unit
            if words.count > 2, connectors.contains(SearchText.fold(words[0])), QuantityUnit.words[SearchText.fold(words[1])] != nil {
                words.removeFirst()
            }
            if let first = words.first, let found = QuantityUnit.words[SearchText.fold(first)] {
                // "200 g" with nothing after it names no food
                guard words.count > 1 else { return nil }
                unit = found
                words.removeFirst()
            }
        }
        if quantity == nil, let (value, found, used) = trailingQuantity(words) {
            quantity = value
            unit = found
            words.removeLast(used)
        }
        if let first = words.first, connectors.contains(SearchText.fold(first)), words.count > 1 {
            words.removeFirst()
        }
        let food = words.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        guard food.contains(where: \.isLetter) else { return nil }
        if let quantity, !(quantity > 0 && quantity.isFinite) { return nil }
        return ParsedItem(text: fragment, quantity: quantity ?? 1, quantityGiven: quantity != nil, unit: unit, food: food)
    }

    /// A quantity at the start: "2", "1 1/2", "2-3" (the middle), "2 to 3", "zwei", "a half".
    static func leadingQuantity(_ words: [String]) -> (Double, Int)? {
        guard let first = words.first else { return nil }
        let folded = words.map(SearchText.fold)
        if let range = range(first) { return (range, 1) }
        guard let value = NumberWords.number(first) ?? NumberWords.words[folded[0]] else { return nil }
        if words.count > 2, ["to", "bis", "a", "o", "or", "oder"].contains(folded[1]),
           let upper = NumberWords.number(words[2]) ?? NumberWords.words[folded[2]], upper > value {
            return ((value + upper) / 2, 3)
        }
        if words.count > 1, value >= 1, value.rounded() == value, let fraction = NumberWords.number(words[1]), fraction < 1,
           words[1].contains("/") || NumberWords.fractions[words[1].last ?? " "] != nil {
            return (value + fraction, 2)
        }
        // "a couple of", "ein paar", "un par de": two
        if words.count > 1, value == 1, NumberWords.couples.contains(folded[1]) {
            return (2, 2)
        }
        // "ein halbes", "one half", "drei Viertel", "tres cuartos", "two thirds": the count of parts
        if words.count > 1, value >= 1, value.rounded() == value, let part = NumberWords.parts[folded[1]] {
            return (value * part, 2)
        }
        if words.count > 1, value == 0.5, NumberWords.words[folded[1]] == 1 {
            return (0.5, 2)
        }
        return (value, 1)
    }

    /// "2-3" → 2.5.
    private static func range(_ token: String) -> Double? {
        let parts = token.split(separator: "-")
        guard parts.count == 2, let low = NumberWords.number(String(parts[0])), let high = NumberWords.number(String(parts[1])),
              high > low else { return nil }
        return (low + high) / 2
    }

    /// A quantity at the end: "Haferflocken 60 g", "Milch 200ml", "Eier 2".
    static func trailingQuantity(_ words: [String]) -> (Double, QuantityUnit?, Int)? {
        guard words.count >= 2 else { return nil }
        if words.count >= 3, let unit = QuantityUnit.words[SearchText.fold(words[words.count - 1])],
           let value = NumberWords.number(words[words.count - 2]) {
            return (value, unit, 2)
        }
        if let value = NumberWords.number(words[words.count - 1]) {
            return (value, nil, 1)
        }
        return nil
    }
}
