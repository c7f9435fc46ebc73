import DietCore
import Foundation

/// How food names and typed queries are folded so that "Käse", "kase" and "KAESE" meet:
/// lower case, accents removed, ß → ss, punctuation → spaces.
public enum SearchText {
    /// The folded form: `"Hähnchenbrust, gegrillt"` → `"hahnchenbrust gegrillt"`.
    public static func fold(_ text: String) -> String {
        let lowered = text.lowercased().replacingOccurrences(of: "ß", with: "ss")
        let stripped = lowered.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en"))
        let spaced = String(stripped.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : " " })
        return words(spaced).joined(separator: " ")
    }

    /// Every form a name is indexed under: the folded one, and the German transliteration
    /// (ä → ae, ö → oe, ü → ue) when it differs, so "kaese" finds Käse too.
    public static func indexForms(_ text: String) -> [String] {
        let folded = fold(text)
        let transliterated = fold(
            text.lowercased()
                .replacingOccurrences(of: "ä", with: "ae").replacingOccurrences(of: "ö", with: "oe")
                .replacingOccurrences(of: "ü", with: "ue")
        )
        return transliterated == folded ? [folded] : [folded, transliterated]
    }

    /// The words of a folded text (words are separated by spaces there). Split on its bytes:
    /// a search folds and splits every candidate name, and splitting by `Character` walked the
    /// grapheme clusters of each.
    public static func words(_ folded: String) -> [String] {
        folded.utf8.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Words that join the parts of a name in our languages ("aceite de oliva", "Döner im
    /// Brot", "fish and chips"): a query need not type them, and they never decide a match.
    public static let connectors: Set<String> = [
        "de", "del", "la", "el", "los", "las", "en", "con", "y", "al", "a", "mit", "und", "im", "in", "vom", "von", "with", "and", "of", "the",
    ]

    /// `words` without the connectors, unless nothing else is left.
    public static func withoutConnectors(_ words: [String]) -> [String] {
        let kept = words.filter { !connectors.contains($0) }
        return kept.isEmpty ? words : kept
    }

    /// Plural endings by language, longest first: "Kartoffeln" → "kartoffel", "Kekse" →
    /// "keks", "tomatoes" → "tomato", "patatas" → "patata"; in German also an adjective's
    /// endings: "rote", "rotes", "rotem" → "rot".
    static func pluralEndings(_ language: Language) -> [String] {
        switch language {
        case .de: ["en", "er", "es", "em", "e", "n", "s"]
        case .en, .es: ["es", "s"]
        }
    }

    /// `word` and its singular forms in `language` (without a plural ending, two letters or
    /// more). Shorter words may be half typed ("pean" is not "pea" but "peanut"): none, unless
    /// the word is `finished` (another word follows it: "rote Paprika").
    public static func singularForms(_ word: String, language: Language, finished: Bool = false) -> [String] {
        guard word.count >= (finished ? 4 : 5) else { return [word] }
        var forms = [word]
        for ending in pluralEndings(language) where word.hasSuffix(ending) && word.count - ending.count >= 2 {
            let stem = String(word.dropLast(ending.count))
            if !forms.contains(stem) { forms.append(stem) }
        }
        return forms
    }

    /// An FTS5 query matching every word of `typed` as a prefix, in any order:
    /// `"hahn" brust` → `"hahn"* "brust"*`. nil when nothing searchable was typed.
    public static func prefixQuery(_ typed: String) -> String? {
        let words = words(fold(typed))
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0)\"*" }.joined(separator: " ")
    }
}
