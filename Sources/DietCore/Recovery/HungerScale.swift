import Foundation

/// The five steps of the hunger–fullness scale of a mindful meal (docs/rules.md §8): one scale for
/// both "hunger before" and "fullness after", always shown in words, never as a number.
///
/// 1 very hungry · 2 hungry · 3 neutral · 4 satisfied · 5 very full.
public enum HungerScale: Int, CaseIterable, Codable, Sendable, Comparable {
    case veryHungry = 1
    case hungry = 2
    case neutral = 3
    case satisfied = 4
    case veryFull = 5

    public static let range = 1...5

    public static func < (lhs: HungerScale, rhs: HungerScale) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The step's word in the user's language ("satisfied", "angenehm satt", "a gusto").
    public var word: Message { Message("recovery.scale.\(rawValue)") }

    /// The step a person typed: its number 1–5, or its word in English, German or Spanish
    /// (case, accents, hyphens and surrounding spaces ignored; a few common synonyms too).
    /// Otherwise the error names `field` and lists the words of `language`.
    public static func parse(_ text: String?, field: ValidationError.Field, language: Language = .en) throws(ValidationError) -> HungerScale {
        let received = text ?? ""
        try TextRules.check(received, field: field)
        let key = folded(received)
        if let number = Int(key), let step = HungerScale(rawValue: number) { return step }
        if let step = synonyms[key] { return step }
        let localizer = Localizer(language)
        let words = allCases.map { "\($0.rawValue) \(localizer.render($0.word))" }
        throw ValidationError(field: field, allowed: .oneOf(words), received: received.isEmpty ? "" : TextRules.quoted(received))
    }

    /// Lower case, no diacritics, hyphens and underscores as spaces, single spaces.
    static func folded(_ text: String) -> String {
        let plain = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en"))
            .replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
        return plain.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Every word a person may type, already folded, in the three languages.
    private static let synonyms: [String: HungerScale] = {
        let words: [HungerScale: [String]] = [
            .veryHungry: [
                "very hungry", "starving", "ravenous", "sehr hungrig", "ausgehungert",
                "mucha hambre", "con mucha hambre", "muy hambriento", "muy hambrienta", "hambriento", "hambrienta",
            ],
            .hungry: ["hungry", "hungrig", "hambre", "con hambre"],
            .neutral: ["neutral", "okay", "ok", "neither", "weder noch", "ni hambre ni lleno", "normal"],
            .satisfied: [
                "satisfied", "content", "comfortable", "angenehm satt", "satt", "zufrieden", "a gusto",
                "satisfecho", "satisfecha", "saciado", "saciada",
            ],
            .veryFull: [
                "very full", "stuffed", "full", "sehr satt", "voll", "uberfullt", "pappsatt",
                "muy lleno", "muy llena", "lleno", "llena", "demasiado lleno", "demasiado llena",
            ],
        ]
        var table: [String: HungerScale] = [:]
        for (step, list) in words {
            for word in list { table[folded(word)] = step }
        }
        return table
    }()
}

/// How a person felt around a mindful meal: a short list of words to pick from, so the
/// feeling is named without being typed or judged (no "good" or "bad" food words).
public enum MealFeeling: String, CaseIterable, Codable, Sendable {
    case calm, happy, social, grateful, tired, stressed, anxious, sad, bored

    /// The feeling's word in the user's language.
    public var word: Message { Message("recovery.feeling.\(rawValue)") }

    /// A feeling typed by its identifier or its word in English, German or Spanish (case and
    /// accents ignored); empty text is "no feeling". Otherwise the error lists `language`'s words.
    public static func parse(_ text: String?, language: Language = .en) throws(ValidationError) -> MealFeeling? {
        let received = text ?? ""
        try TextRules.check(received, field: .mealFeeling)
        let key = HungerScale.folded(received)
        guard !key.isEmpty else { return nil }
        if let feeling = MealFeeling(rawValue: key) { return feeling }
        for language in Language.allCases {
            let localizer = Localizer(language)
            if let feeling = allCases.first(where: { HungerScale.folded(localizer.render($0.word)) == key }) { return feeling }
        }
        let words = allCases.map { Localizer(language).render($0.word) }
        throw ValidationError(field: .mealFeeling, allowed: .oneOf(words), received: TextRules.quoted(received))
    }
}

extension ValidationError.Field {
    public static let hunger = Self("hunger")
    public static let fullness = Self("fullness")
    public static let mealFeeling = Self("mealFeeling")
}
