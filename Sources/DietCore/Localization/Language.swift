import Foundation

/// The languages every user-facing string exists in.
public enum Language: String, CaseIterable, Codable, Sendable {
    case de, en, es

    /// The language of a POSIX locale such as `de_DE.UTF-8`, `es`, `en_US`; `nil` when it is
    /// none of ours.
    public init?(localeIdentifier: String) {
        let code =
            localeIdentifier
            .split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == "." || $0 == "@" })
            .first.map { $0.lowercased() } ?? ""
        self.init(rawValue: code)
    }

    /// The language to use: an explicit choice, else the first of `LC_ALL`, `LC_MESSAGES`,
    /// `LANG` that names one of ours, else English.
    public static func resolve(explicit: String? = nil, environment: [String: String]) -> Language {
        if let explicit, let language = Language(localeIdentifier: explicit) { return language }
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty, let language = Language(localeIdentifier: value) {
                return language
            }
        }
        return .en
    }

    /// The locale used to format numbers and dates.
    public var locale: Locale {
        switch self {
        case .de: Locale(identifier: "de_DE")
        case .en: Locale(identifier: "en_US")
        case .es: Locale(identifier: "es_ES")
        }
    }
}

/// A CLDR cardinal plural category, of those German, English and Spanish use for counts:
/// Spanish's "many" (a million and more) reads as `other` here.
public enum PluralCategory: String, CaseIterable, Sendable {
    case one, other
}

extension Language {
    /// The plural category of a number as shown in the language, by CLDR's cardinal rules: in
    /// German and English `one` is exactly "1" with no visible fraction digits (i = 1, v = 0: not
    /// "1,0" or "1.5"); in Spanish the value 1 (n = 1: "1" and "1,0"). "0", "2", "1,5" and text
    /// that is no number are `other`. The sign and grouping separators do not count.
    public func pluralCategory(ofShown number: String) -> PluralCategory {
        let separator: Character = self == .en ? "." : ","
        let grouping: Set<Character> = self == .en ? [",", " ", "\u{A0}", "\u{202F}"] : [".", " ", "\u{A0}", "\u{202F}"]
        var text = Substring(number.trimmingCharacters(in: .whitespaces))
        if let sign = text.first, sign == "-" || sign == "−" || sign == "+" { text = text.dropFirst() }
        let parts = text.split(separator: separator, maxSplits: 1, omittingEmptySubsequences: false)
        let integer = parts[0].filter { !grouping.contains($0) }
        let fraction = parts.count > 1 ? parts[1] : ""
        let digit = { (character: Character) in character.isASCII && character.isNumber }
        guard integer.allSatisfy(digit), fraction.allSatisfy(digit), Int(integer) == 1 else { return .other }
        switch self {
        case .de, .en: return fraction.isEmpty ? .one : .other
        case .es: return fraction.allSatisfy { $0 == "0" } ? .one : .other
        }
    }
}
