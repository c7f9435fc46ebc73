import Foundation

extension MealTextParser {
    /// Words, with "200g" split into "200" "g", "2-3" into "2" "-" "3", "2x100g" into "2" "x"
    /// "100" "g", and list punctuation and parentheses as tokens of their own.
    static func tokens(_ text: String) -> [String] {
        var marked = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let spaced = spacedMarks[scalar] { marked.append(contentsOf: spaced.unicodeScalars) } else { marked.append(scalar) }
        }
        var spaced = String(marked)
        // "&" joins foods, but "m&m" is one name
        if spaced.utf8.contains(UInt8(ascii: "&")) {
            spaced = spaced.replacingOccurrences(of: #"(?<!\b\p{L})&|&(?!\p{L}\b)"#, with: " & ", options: .regularExpression)
        }
        // "n. B." (nach Belieben) is one note, not two words
        if zip(spaced.utf8, spaced.utf8.dropFirst()).contains(where: { $0 == UInt8(ascii: "n") && $1 == UInt8(ascii: ".") }) {
            spaced = spaced.replacingOccurrences(of: #"(?<![\p{L}.])n\.\s*[bB]\."#, with: " n.B. ", options: .regularExpression)
        }
        var result: [String] = []
        let words = spaced.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        for (index, word) in words.enumerated() {
            result += commaSplit(word).flatMap { $0 == "," ? [","] : splitNumberAndUnit(trimmed($0)) }
            // "… o limón. Puede llevar tomate": a full stop after a word, and a capital after it, end a sentence
            if word.hasSuffix("."), index + 1 < words.count, words[index + 1].first?.isUppercase == true, endsSentence(word, before: words[index + 1])
            {
                result.append(";")
            }
        }
        return joinedCompounds(result.filter { !$0.isEmpty })
    }

    /// German heads of food compounds, in lower case, longest first: "Walnussöl" ends in "öl".
    static let compoundHeads: [String] = [
        "blätter", "schinken", "zwiebeln", "joghurt", "nudeln", "zucker", "fleisch", "flocken", "pulver", "butter", "bohnen",
        "erbsen", "linsen", "beeren", "samen", "kerne", "nüsse", "essig", "sauce", "soße", "sahne", "suppe", "brühe", "creme",
        "quark", "honig", "sirup", "wurst", "milch", "mehl", "saft", "käse", "salat", "brot", "wein", "kohl", "kraut", "pilze",
        "tee", "mus", "öl",
    ]

    /// "Erdnuss- oder Walnussöl" → "Erdnussöl oder Walnussöl", "Apfel- und Orangensaft" →
    /// "Apfelsaft und Orangensaft": a compound cut before a joining word takes the head of the
    /// compound after it.
    private static func joinedCompounds(_ tokens: [String]) -> [String] {
        var tokens = tokens
        for index in tokens.indices.dropLast(2) where tokens[index].count > 3 && tokens[index].hasSuffix("-") {
            let joiner = SearchText.fold(tokens[index + 1])
            let next = tokens[index + 2].lowercased()
            guard ["oder", "und", "bzw", ","].contains(joiner), tokens[index].dropLast().last?.isLetter == true,
                let head = compoundHeads.first(where: { next.hasSuffix($0) && next.count > $0.count })
            else { continue }
            tokens[index] = tokens[index].dropLast() + head
        }
        return tokens
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

    /// A trailing full stop goes ("ca.", "EL."), unless it ends a number; a letter written four
    /// times or more is written once ("muuuuchas").
    private static func trimmed(_ word: String) -> String {
        var word = elongated(word) ? shortened(word) : word
        // quotes around a product's name: "„Gummibärchen“"
        if let first = word.first, let last = word.last, quotes.contains(first) || quotes.contains(last) {
            word = word.trimmingCharacters(in: CharacterSet(charactersIn: String(quotes)))
        }
        while word.hasSuffix("."), word.count > 1, !(word.dropLast().last?.isNumber ?? false) { word.removeLast() }
        return word == "." ? "" : word
    }

    /// Marks that are tokens of their own, spaced, or written as another.
    private static let spacedMarks: [Unicode.Scalar: String] = [
        "\n": " \n ", "\r": " ", "\t": " ", ";": " ; ", "+": " + ", "(": " ( ", ")": " ) ", "[": " ( ", "]": " ) ", ":": " : ",
        "–": "-", "—": "-", "×": " x ", "~": " ~ ", "≈": " ≈ ",
    ]

    /// A word of four letters or more before a full stop, not a unit or an abbreviation ("Tbsp.",
    /// "Pck.", "gestr. TL").
    private static func endsSentence(_ word: String, before next: String) -> Bool {
        let stem = word.dropLast()
        guard stem.count >= 4, stem.allSatisfy(\.isLetter) else { return false }
        let folded = SearchText.fold(String(stem))
        return QuantityUnit.words[folded] == nil && !FoodWords.isPreparation(folded) && QuantityUnit.words[SearchText.fold(next)] == nil
    }

    private static let quotes: Set<Character> = ["\"", "„", "“", "”", "‚", "‘", "’", "«", "»"]

    /// Whether a letter is written four times or more in a row.
    private static func elongated(_ word: String) -> Bool {
        var run = 0
        var previous: UInt8 = 0
        for byte in word.utf8 {
            run = byte == previous ? run + 1 : 1
            if run >= 4, byte >= 65 { return true }
            previous = byte
        }
        return false
    }

    /// Runs of a letter written three times or more, written once.
    private static func shortened(_ word: String) -> String {
        let characters = Array(word)
        var result = ""
        var start = 0
        while start < characters.count {
            var end = start
            while end + 1 < characters.count, characters[end + 1] == characters[start] { end += 1 }
            result += end - start >= 2 && characters[start].isLetter ? String(characters[start]) : String(characters[start...end])
            start = end + 1
        }
        return result
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
