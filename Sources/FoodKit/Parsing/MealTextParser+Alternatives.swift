import Foundation

extension MealTextParser {
    /// Words that offer another food instead ("o", "or", "oder", "u", "y/o", "und/oder").
    static let alternativeWords: Set<String> = ["o", "or", "oder", "u", "bzw", "y o", "und oder", "and or"]

    /// Describing words that a first alternative shares the noun of the last for ("green or red
    /// bell pepper" → green bell pepper); German adjectives are told by their lower case.
    static let sharedNounModifiers: Set<String> = [
        "green", "red", "yellow", "white", "black", "brown", "dark", "light", "heavy", "sweet", "hot", "mild", "plain", "whole",
        "french", "italian", "greek", "spanish", "mexican", "english", "american", "dry",
    ]

    /// A food name split at its alternatives, each with letters: the first and the others.
    /// "Kräuter-Tee/Wasser" offers two; a first alternative that only describes takes the noun of
    /// the last: "heavy or whipping cream" → heavy cream, "grüne oder rote Paprika" → grüne Paprika.
    static func alternatives(_ food: String) -> (String, [String]) {
        var parts: [[String]] = [[]]
        for word in food.split(separator: " ").flatMap(slashAlternatives) {
            if isAlternativeWord(word) && !parts[parts.count - 1].isEmpty {
                parts.append([])
            } else {
                parts[parts.count - 1].append(word)
            }
        }
        let named = parts.filter { $0.joined().contains(where: \.isLetter) }
        guard named.count > 1, var first = named.first, let last = named.last else { return (food, []) }
        if let word = first.last, last.count > 1, sharesNoun(word, with: last) { first += last.dropFirst() }
        return (first.joined(separator: " "), named.dropFirst().map { $0.joined(separator: " ") })
    }

    static func isAlternativeWord(_ word: String) -> Bool {
        alternativeWords.contains(SearchText.fold(word).trimmingCharacters(in: .punctuationCharacters))
    }

    /// "Kräuter-Tee/Wasser" → "Kräuter-Tee" "o" "Wasser"; "y/o" and "1/2" stay. A slash between
    /// spaces lists foods instead (`fragments`).
    private static func slashAlternatives(_ word: Substring) -> [String] {
        let parts = word.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count > 1, parts.allSatisfy({ $0.count > 1 && $0.allSatisfy { $0.isLetter || $0 == "-" } }),
            !alternativeWords.contains(SearchText.fold(String(word)))
        else { return [String(word)] }
        return parts.map(String.init).flatMap { [$0, "o"] }.dropLast()
    }

    /// Whether `word`, ending the first alternative, describes the noun the last one ends with.
    private static func sharesNoun(_ word: String, with last: [String]) -> Bool {
        let folded = SearchText.fold(word)
        if sharedNounModifiers.contains(folded) || folded.count > 4 && (folded.hasSuffix("ed") || folded.hasSuffix("ing")) { return true }
        // German: an adjective is written in lower case, the noun it shares in capitals
        let german = { (text: String) in text.first?.isLowercase == true && text.contains(where: \.isLetter) }
        return german(word) && german(last[0]) && last.last?.first?.isUppercase == true
    }

    /// After a comma, a list that ends in an alternative offers one food: "almendras, piñones o
    /// pasas", "beef, lamb, or mutton", "potatoes, or other baking potatoes". A new amount or a
    /// separator word before the alternative ends the list, and so does a new amount after a
    /// comma after it ("1 Knäckebrot, Joghurt oder Quark, 1 Apfel" lists three foods).
    static func listsAlternatives(_ tokens: [String], _ folded: [String], after index: Int) -> Bool {
        // "empanadas, acompañadas de bebida o postre": a description, not a list of foods
        if index + 1 < folded.count, FoodWords.looksPrepared(folded[index + 1]) { return false }
        var inside = false
        var offered = false
        for position in (index + 1)..<tokens.count {
            let token = tokens[position]
            if token == "(" || token == ")" {
                inside = token == "("
                continue
            }
            if inside { continue }
            let amount = NumberWords.number(token) != nil || NumberWords.words[folded[position]] != nil
            if offered {
                if token == ",", position + 1 < tokens.count {
                    return NumberWords.number(tokens[position + 1]) == nil && NumberWords.words[folded[position + 1]] == nil
                }
                continue
            }
            if [";", "\n"].contains(token) || separators.contains(folded[position]) || amount { return false }
            offered = isAlternativeWord(token)
        }
        return offered
    }
}
