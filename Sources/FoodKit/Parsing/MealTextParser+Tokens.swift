import Foundation

extension MealTextParser {
    /// Words, with "200g" split into "200" "g", "2-3" into "2" "-" "3", "2x100g" into "2" "x"
    /// "100" "g", and list punctuation and parentheses as tokens of their own.
    static func tokens(_ text: String) -> [String] {
        var marked = text
        for (mark, spaced) in [
            ("\n", " \n "), ("\r", " "), ("\t", " "), (";", " ; "), ("+", " + "), ("&", " & "), ("(", " ( "),
            (")", " ) "), ("[", " ( "), ("]", " ) "), (":", " "), ("–", "-"), ("—", "-"), ("×", " x "), ("~", " ~ "), ("≈", " ≈ "),
        ] {
            marked = marked.replacingOccurrences(of: mark, with: spaced)
        }
        // "n. B." (nach Belieben) is one note, not two words
        marked = marked.replacingOccurrences(of: #"(?<![\p{L}.])n\.\s*[bB]\."#, with: " n.B. ", options: .regularExpression)
        var result: [String] = []
        for word in marked.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            result += commaSplit(word).flatMap { $0 == "," ? [","] : splitNumberAndUnit(trimmed($0)) }
        }
        return result.filter { !$0.isEmpty }
    }

    /// "Milch,Brot" → "Milch" "," "Brot"; "potatoes," → "potatoes" ","; "1,5" stays a number.
    private static func commaSplit(_ word: String) -> [String] {
        guard word.contains(",") else { return [word] }
        var parts: [String] = []
        var current = ""
        let characters = Array(word)
        for (index, character) in characters.enumerated() {
            let decimal =
                character == "," && index > 0 && characters[index - 1].isNumber
                && index + 1 < characters.count && characters[index + 1].isNumber
            if character == ",", !decimal {
                if !current.isEmpty { parts.append(current) }
                parts.append(",")
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }

    /// A trailing full stop goes ("ca.", "EL."), unless it ends a number.
    private static func trimmed(_ word: String) -> String {
        var word = word
        while word.hasSuffix("."), word.count > 1, !(word.dropLast().last?.isNumber ?? false) { word.removeLast() }
        return word == "." ? "" : word
    }

    /// "200g" → ["200", "g"]; "2-3" → ["2", "-", "3"]; "1/2-2" → ["1/2", "-", "2"]; "15-ounce" →
    /// ["15", "ounce"]; "2x100g" → ["2", "x", "100", "g"]; "1½" stays.
    static func splitNumberAndUnit(_ word: String) -> [String] {
        guard let first = word.first, first.isNumber || NumberWords.fractions[first] != nil else { return [word] }
        let numeric = String(word.prefix { $0.isNumber || $0 == "." || $0 == "," || $0 == "/" || $0 == "-" || NumberWords.fractions[$0] != nil })
        let rest = String(word.dropFirst(numeric.count))
        var head = [numeric]
        if numeric.hasSuffix("-") { head = [String(numeric.dropLast())] }
        if numeric.contains("-"), head.count == 1, let range = rangeParts(head[0]) { head = range }
        if rest.isEmpty { return head }
        if rest.first == "x" || rest.first == "X", rest.count > 1, rest.dropFirst().first?.isNumber == true {
            return head + ["x"] + splitNumberAndUnit(String(rest.dropFirst()))
        }
        if rest == "x" || rest == "X" { return head + ["x"] }
        guard QuantityUnit.words[SearchText.fold(rest)] != nil else { return [word] }
        return head + [rest]
    }

    /// "2-3" → ["2", "-", "3"] when both sides are numbers.
    private static func rangeParts(_ token: String) -> [String]? {
        let parts = token.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, NumberWords.number(parts[0]) != nil, NumberWords.number(parts[1]) != nil else { return nil }
        return [parts[0], "-", parts[1]]
    }
}
