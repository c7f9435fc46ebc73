import Foundation

/// The "Why like this?" articles (docs/rules.md §10): markdown resources in every language.
public enum EducationTopic: String, CaseIterable, Codable, Sendable {
    case matadorStudy = "matador-study"
    case intermittentFasting = "intermittent-fasting"
    case tdee
    case protein

    public var title: Message { Message("education.\(rawValue).title") }
}

/// A topic's article is missing from the app's resources.
public struct EducationError: Error, Hashable, Sendable {
    public let topic: EducationTopic
    public let language: Language
}

public enum EducationLibrary {
    /// The markdown of `topic` in `language`.
    public static func article(_ topic: EducationTopic, in language: Language) throws(EducationError) -> String {
        guard
            let url = Bundle.module.url(
                forResource: topic.rawValue,
                withExtension: "md",
                subdirectory: "Resources/Education/\(language.rawValue)"
            ),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else {
            throw EducationError(topic: topic, language: language)
        }
        return text
    }

    /// The topic whose name or title starts with `text` (case and accents ignored), for
    /// `wdiet learn tdee` or `wdiet learn proteína`.
    public static func topic(matching text: String, in language: Language) -> EducationTopic? {
        let wanted = fold(text)
        guard !wanted.isEmpty else { return nil }
        return EducationTopic.allCases.first { topic in
            fold(topic.rawValue).hasPrefix(wanted) || fold(Localizer(language).render(topic.title)).contains(wanted)
        }
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespaces)
    }
}
