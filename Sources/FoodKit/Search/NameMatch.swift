import DietCore

/// How one folded food name answers the typed words, best first. The order is what a person
/// expects of a food search: the name they typed, then names built around it ("Milch" →
/// "fettarme Milch"), then German compounds ending in it ("Brot" → "Vollkornbrot"), then names
/// that merely start with it ("Brötchen", "pancakes"), then names that contain it somewhere.
public enum NameMatch: Int, Comparable, Hashable, Sendable {
    /// The name is what was typed: "milch" → "Milch".
    case exact
    /// Every typed word is a whole word of the name and one of them is its head noun:
    /// "leche" → "leche entera", but not "arroz con leche".
    case wholeWordsHead
    /// Every typed word is a whole word of the name: "leche" → "café con leche".
    case wholeWords
    /// German only: a word of the name ends with the typed word, the head of a compound:
    /// "brot" → "Vollkornbrot", "kase" → "Frischkäse".
    case compoundHead
    /// The name starts with what was typed (the last word maybe half typed): "hahnchenbr".
    case namePrefix
    /// Every typed word starts a word of the name: "bro" → "Brötchen", "pan" → "pancakes".
    case wordPrefix
    /// A typed word is only found inside a word.
    case infix

    /// Typed words shorter than this are never taken as the head of a compound ("ei" ends
    /// "Rührei" but also "Brei").
    public static let compoundMinimum = 4

    /// The order of the ranking: a German compound around the typed word is as good as a
    /// name built around it as a separate word ("Sojamilch" like "fettarme Milch").
    public var level: Int {
        switch self {
        case .exact: 0
        case .wholeWordsHead, .compoundHead: 1
        case .wholeWords: 2
        case .namePrefix: 3
        case .wordPrefix: 4
        case .infix: 5
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.level, lhs.rawValue) < (rhs.level, rhs.rawValue) }

    /// How `name` (folded) answers `words`, where each typed word accepts any of its
    /// alternatives (itself, a typo correction, its singular). `language` is the language
    /// of the name (nil for the USDA's English description), which decides where its head
    /// noun stands and whether compounds count.
    public static func of(name: String, words: [[String]], language: Language?) -> NameMatch {
        let allWords = SearchText.words(name)
        guard !words.isEmpty, !allWords.isEmpty else { return .infix }
        let nameWords = SearchText.withoutConnectors(allWords)
        if nameWords.count == words.count && zip(nameWords, words).allSatisfy({ $1.contains($0) }) { return .exact }
        // a letter alone ("M&M's" folds to "m m s") is no word a person types whole: typed, it is
        // the start of one
        let wordSet = Set(nameWords.filter { $0.count > 1 })
        if words.allSatisfy({ !wordSet.isDisjoint(with: $0) }) {
            // a kind of the food ("leche entera") before the food with something ("pan con tomate")
            guard allWords.allSatisfy({ !accompaniments.contains($0) }) else { return .wholeWords }
            let heads = Self.heads(allWords, language: language)
            return words.contains { !heads.isDisjoint(with: $0) } ? .wholeWordsHead : .wholeWords
        }
        if language == .de
            && words.allSatisfy({ alternatives in
                alternatives.contains { typed in
                    wordSet.contains(typed) || (typed.count >= compoundMinimum && nameWords.contains { $0.hasSuffix(typed) })
                }
            })
        {
            return .compoundHead
        }
        if startsName(nameWords, words) { return .namePrefix }
        if words.allSatisfy({ alternatives in alternatives.contains { typed in nameWords.contains { $0.hasPrefix(typed) } } }) {
            return .wordPrefix
        }
        return .infix
    }

    /// Whether the name's first words are the typed ones, the last of them as a prefix.
    private static func startsName(_ nameWords: [String], _ words: [[String]]) -> Bool {
        guard nameWords.count >= words.count else { return false }
        for (index, alternatives) in words.enumerated() {
            let word = nameWords[index]
            let isLast = index == words.count - 1
            guard alternatives.contains(where: { isLast ? word.hasPrefix($0) : word == $0 }) else { return false }
        }
        return true
    }

    /// The name's head noun, the word the name is about. Spanish names and the USDA
    /// descriptions put it first ("leche entera", "Milk, whole"). German and English curated
    /// names put it last before any connector ("fettarme Milch", "Brot mit Tomate", "skim
    /// milk", "chicken with rice") and before trailing descriptors: numbers, participles and
    /// words such as "roh", "raw" ("Kartoffeln roh", "Milch 1,5 %", "potatoes boiled").
    static func heads(_ nameWords: [String], language: Language?) -> Set<String> {
        guard let language, language != .es else { return nameWords.first { !isNumber($0) }.map { [$0] } ?? [] }
        let connectors = language == .de ? germanConnectors : englishConnectors
        var core = Array(nameWords.prefix { !connectors.contains($0) })
        while let last = core.last, core.count > 1, isDescriptor(last, language: language) { core.removeLast() }
        return core.last.map { [$0] } ?? []
    }

    /// Words that join a food with what comes with it: a dish, not a kind of the food.
    static let accompaniments: Set<String> = ["mit", "und", "con", "y", "with", "and"]
    static let germanConnectors: Set<String> = ["mit", "und", "im", "in", "auf", "nach", "vom", "von", "ohne", "aus", "zum", "zur"]
    static let englishConnectors: Set<String> = ["with", "and", "in", "on", "of", "without", "from"]
    static let germanDescriptors: Set<String> = [
        "roh", "trocken", "light", "tk", "dose", "glas", "grun", "natur", "zero", "frisch",
        "pur", "mager", "fettarm", "vegan", "bio", "art", "klein", "gross", "ganz", "frittiert",
    ]
    static let englishDescriptors: Set<String> = [
        "raw", "dry", "fresh", "frozen", "light", "plain", "lean", "whole", "canned", "cooked",
        "diet", "zero", "low", "fat", "free", "sweetened", "unsweetened",
    ]

    /// A word that describes rather than names: a number, a participle ("gekocht",
    /// "boiled"), or a listed adjective.
    private static func isDescriptor(_ word: String, language: Language) -> Bool {
        if isNumber(word) { return true }
        switch language {
        case .de:
            return germanDescriptors.contains(word) || word.hasSuffix("iert")
                || ((word.hasPrefix("ge") || word.hasPrefix("unge")) && word.count >= 6 && (word.hasSuffix("t") || word.hasSuffix("en")))
        case .en:
            return englishDescriptors.contains(word) || (word.count >= 5 && word.hasSuffix("ed"))
        case .es:
            return false
        }
    }

    private static func isNumber(_ word: String) -> Bool { word.first?.isNumber ?? true }
}
