import DietCore
import DietStore
import FoodKit
import Foundation
import TestSupport
import Testing

/// The meal parser measured on the labelled phrase set (`phrase-set.tsv`, written by
/// `scripts/dev/make-parser-phrases`): recipe lines and spoken meals in three languages.
@Suite("Meal parser phrase set")
struct PhraseSetTests {
    static let languages = ["de", "en", "es"]

    let phrases: [LabelledPhrase]
    let dishes: Set<String>

    init() throws {
        phrases = try PhraseSet.load()
        let store = try AppDatabase.inMemory(clock: FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin))
        dishes = try store.mealTextDishes()
    }

    @Test("the set holds at least 1,000 phrases, a third in each language")
    func size() {
        // Given the committed set
        // Then it is large enough and no language is short
        #expect(phrases.count >= 1000)
        for language in Self.languages {
            let count = phrases.filter { $0.language == language }.count
            #expect(count * 3 >= phrases.count, "\(language): \(count) of \(phrases.count)")
        }
        #expect(Set(phrases.map(\.language)) == Set(Self.languages))
    }

    @Test("every label names a unit the parser knows and a positive quantity")
    func labels() {
        for phrase in phrases {
            #expect(!phrase.items.isEmpty, "\(phrase.text)")
            for item in phrase.items {
                #expect(item.unit.map { QuantityUnit(rawValue: $0) != nil } ?? true, "\(phrase.text): \(item)")
                #expect(item.quantity > 0, "\(phrase.text): \(item)")
            }
        }
    }

    @Test("a curated dish is one item in the labels and every other separator splits")
    func dishLabels() {
        // Given the database's curated names holding a separator word
        for phrase in phrases {
            let foods = phrase.items.map { " \(SearchText.fold($0.food)) " }
            // Then a food label holding a separator word is one of them
            for food in foods where SearchText.words(food).contains(where: MealTextParser.separators.contains) {
                #expect(dishes.contains(food.trimmingCharacters(in: .whitespaces)), "not a curated dish: \(food) in \(phrase.text)")
            }
            // And no curated dish in a phrase is labelled as two items
            let text = " \(SearchText.fold(phrase.text)) "
            for dish in dishes where text.contains(" \(dish) ") {
                #expect(foods.contains { $0.contains(" \(dish) ") }, "curated dish \(dish) split in \(phrase.text)")
            }
        }
    }

    @Test("the score counts a missing or an extra item against quantity, unit and food alike")
    func scoring() {
        // Given two expected items, of which the parser found the first and an extra one
        let expected = [PhraseItem(quantity: 2, unit: nil, food: "Eier"), PhraseItem(quantity: 1, unit: "slice", food: "Vollkorn Brot")]
        let parsed = [
            PhraseItem(quantity: 2.01, unit: nil, food: "eier"), PhraseItem(quantity: 3, unit: "gram", food: "Käse"),
            PhraseItem(quantity: 1, unit: nil, food: "Milch"),
        ]
        // When it is scored
        let score = PhraseSetScorer.score(expected: expected, parsed: parsed, fold: SearchText.fold)
        // Then the first item counts (within 1 %), the second misses, the extra one counts against all three
        #expect(score.slots == 3 && score.quantityHits == 1 && score.unitHits == 1)
        #expect(score.sharedTokens == 1 && score.expectedTokens == 3 && score.parsedTokens == 3)
        #expect(abs(score.foodF1 - 1.0 / 3) < 1e-9 && score.exactPhrases == 0)
        let right = PhraseSetScorer.score(expected: expected, parsed: expected, fold: SearchText.fold)
        #expect(right.exactPhrases == 1 && right.foodF1 == 1 && right.quantityAccuracy == 1)
    }

    @Test("per language the parser reaches quantity 98 %, unit 97 % and food-name F1 0.90")
    func targets() {
        // When every phrase is parsed with the curated dish names
        let report = PhraseSetScorer.score(phrases, fold: SearchText.fold) { text in
            MealTextParser.parse(text, dishes: dishes).items.map {
                PhraseItem(quantity: $0.quantity, unit: $0.unit?.rawValue, food: $0.food)
            }
        }
        print("Meal parser phrase set:\n" + report.lines.joined(separator: "\n"))
        print("Phrases not read as labelled (\(report.failures.count)):\n" + report.failures.map(\.description).joined(separator: "\n"))
        // Then each language reaches the targets
        for language in Self.languages {
            let score = report.byLanguage[language, default: PhraseScore()]
            #expect(score.quantityAccuracy >= 0.98, "\(language): \(score.line)")
            #expect(score.unitAccuracy >= 0.97, "\(language): \(score.line)")
            #expect(score.foodF1 >= 0.90, "\(language): \(score.line)")
        }
    }
}
