import Foundation

/// One item of a meal phrase: what the parser must find, or what it found.
public struct PhraseItem: Hashable, Sendable, CustomStringConvertible {
    public let quantity: Double
    /// A `QuantityUnit` raw value; nil when the quantity counts the food itself.
    public let unit: String?
    public let food: String

    public init(quantity: Double, unit: String?, food: String) {
        self.quantity = quantity
        self.unit = unit
        self.food = food
    }

    public var description: String { "\(String(format: "%g", quantity))|\(unit ?? "-")|\(food)" }
}

/// A line of the labelled phrase set (`Tests/DietStoreTests/Foods/phrase-set.tsv`, written by
/// `scripts/dev/make-parser-phrases`).
public struct LabelledPhrase: Hashable, Sendable, CustomStringConvertible {
    public let language: String
    /// The class of phrase: basic, unit, hedge, notfirst, range, compound, fraction, comma, prep,
    /// noamount, spoken, dish, legacy.
    public let kind: String
    public let text: String
    public let items: [PhraseItem]

    public var description: String { text }
}

public enum PhraseSet {
    /// The committed set, found from this file so tests and the benchmark read the same one.
    public static let url = RepositoryFolder.url("Tests/DietStoreTests/Foods/phrase-set.tsv")
    /// Real recipe and diary lines (issue 29), in the same columns with the source as the class;
    /// its sources and licences: `real-lines-sources.md`.
    public static let realLinesURL = RepositoryFolder.url("Tests/DietStoreTests/Foods/real-lines.tsv")

    public struct MalformedLine: Error, CustomStringConvertible {
        public let line: Int
        public let text: String
        public var description: String { "phrase-set.tsv line \(line) is malformed: \(text)" }
    }

    /// Reads the set; a line that does not hold four columns of well-formed labels throws.
    public static func load(from url: URL = url) throws -> [LabelledPhrase] {
        try parse(String(contentsOf: url, encoding: .utf8))
    }

    public static func parse(_ text: String) throws -> [LabelledPhrase] {
        var phrases: [LabelledPhrase] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty && !line.hasPrefix("#") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count == 4 else { throw MalformedLine(line: index + 1, text: String(line)) }
            var items: [PhraseItem] = []
            for label in columns[3].split(separator: ";") {
                let parts = label.split(separator: "|", omittingEmptySubsequences: false)
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 3, let quantity = Double(parts[0]), !parts[2].isEmpty else {
                    throw MalformedLine(line: index + 1, text: String(line))
                }
                items.append(PhraseItem(quantity: quantity, unit: parts[1] == "-" ? nil : parts[1], food: parts[2]))
            }
            phrases.append(LabelledPhrase(language: columns[0], kind: columns[1], text: columns[2], items: items))
        }
        return phrases
    }
}

/// Tallies of one group of phrases. Items are aligned in order; a missing or an extra item
/// counts against quantity, unit and food alike.
public struct PhraseScore: Sendable {
    public var phrases = 0
    /// Phrases whose every item matches in quantity, unit and food words.
    public var exactPhrases = 0
    /// Expected items plus extra parsed items: the denominator of quantity and unit accuracy.
    public var slots = 0
    public var quantityHits = 0
    public var unitHits = 0
    public var sharedTokens = 0
    public var expectedTokens = 0
    public var parsedTokens = 0

    public init() {}

    public var quantityAccuracy: Double { slots == 0 ? 0 : Double(quantityHits) / Double(slots) }
    public var unitAccuracy: Double { slots == 0 ? 0 : Double(unitHits) / Double(slots) }

    /// Micro-averaged token F1 of the food names.
    public var foodF1: Double {
        guard parsedTokens > 0, expectedTokens > 0, sharedTokens > 0 else { return 0 }
        let precision = Double(sharedTokens) / Double(parsedTokens)
        let recall = Double(sharedTokens) / Double(expectedTokens)
        return 2 * precision * recall / (precision + recall)
    }

    public var line: String {
        String(
            format: "quantity %.1f %% · unit %.1f %% · food F1 %.3f · phrases right %d of %d (%d items)",
            quantityAccuracy * 100,
            unitAccuracy * 100,
            foodF1,
            exactPhrases,
            phrases,
            slots
        )
    }

    mutating func add(_ other: PhraseScore) {
        phrases += other.phrases
        exactPhrases += other.exactPhrases
        slots += other.slots
        quantityHits += other.quantityHits
        unitHits += other.unitHits
        sharedTokens += other.sharedTokens
        expectedTokens += other.expectedTokens
        parsedTokens += other.parsedTokens
    }
}

/// A phrase the parser did not read as labelled, with what it read.
public struct PhraseFailure: Sendable, CustomStringConvertible {
    public let phrase: LabelledPhrase
    public let parsed: [PhraseItem]

    public var description: String {
        "[\(phrase.language) \(phrase.kind)] \(phrase.text)\n    expected \(phrase.items.map(\.description).joined(separator: "; "))"
            + "\n    parsed   \(parsed.isEmpty ? "nothing" : parsed.map(\.description).joined(separator: "; "))"
    }
}

public struct PhraseSetReport: Sendable {
    /// Language code → score.
    public var byLanguage: [String: PhraseScore] = [:]
    /// "language kind" → score.
    public var byKind: [String: PhraseScore] = [:]
    public var failures: [PhraseFailure] = []

    /// One line per language, then one per class of phrase.
    public var lines: [String] {
        byLanguage.keys.sorted().map { "\($0): \(byLanguage[$0, default: PhraseScore()].line)" }
            + byKind.keys.sorted().map { "  \($0): \(byKind[$0, default: PhraseScore()].line)" }
    }
}

/// Scores a parser against the labelled set. The parser and the folding of food names are
/// passed in (FoodKit's `MealTextParser` and `SearchText.fold`), so this file needs no FoodKit.
public enum PhraseSetScorer {
    public static func score(
        _ phrases: [LabelledPhrase],
        fold: (String) -> String,
        parse: (String) -> [PhraseItem]
    ) -> PhraseSetReport {
        var report = PhraseSetReport()
        for phrase in phrases {
            let parsed = parse(phrase.text)
            let score = score(expected: phrase.items, parsed: parsed, fold: fold)
            report.byLanguage[phrase.language, default: PhraseScore()].add(score)
            report.byKind["\(phrase.language) \(phrase.kind)", default: PhraseScore()].add(score)
            if score.exactPhrases == 0 { report.failures.append(PhraseFailure(phrase: phrase, parsed: parsed)) }
        }
        return report
    }

    /// The tallies of one phrase.
    public static func score(expected: [PhraseItem], parsed: [PhraseItem], fold: (String) -> String) -> PhraseScore {
        var score = PhraseScore()
        score.phrases = 1
        score.slots = max(expected.count, parsed.count)
        for (want, got) in zip(expected, parsed) {
            if abs(got.quantity - want.quantity) <= 0.01 * abs(want.quantity) { score.quantityHits += 1 }
            if got.unit == want.unit { score.unitHits += 1 }
            score.sharedTokens += shared(tokens(want.food, fold), tokens(got.food, fold))
        }
        score.expectedTokens = expected.reduce(0) { $0 + tokens($1.food, fold).count }
        score.parsedTokens = parsed.reduce(0) { $0 + tokens($1.food, fold).count }
        let allRight =
            score.quantityHits == score.slots && score.unitHits == score.slots
            && score.sharedTokens == score.expectedTokens && score.sharedTokens == score.parsedTokens
        score.exactPhrases = allRight ? 1 : 0
        return score
    }

    static func tokens(_ food: String, _ fold: (String) -> String) -> [String] {
        fold(food).split(separator: " ").map(String.init)
    }

    /// Tokens in both, counted with their multiplicity.
    static func shared(_ a: [String], _ b: [String]) -> Int {
        var counts: [String: Int] = [:]
        for token in a { counts[token, default: 0] += 1 }
        var shared = 0
        for token in b where counts[token, default: 0] > 0 {
            counts[token, default: 0] -= 1
            shared += 1
        }
        return shared
    }
}
