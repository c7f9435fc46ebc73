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
