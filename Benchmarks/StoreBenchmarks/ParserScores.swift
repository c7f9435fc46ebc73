import DietStore
import FoodKit
import Foundation
import TestSupport

/// The meal parser over the labelled phrase set: quantity, unit and food-name scores per
/// language (and per class of phrase), and phrases parsed per second.
enum ParserScores {
    static func run(store: AppDatabase) throws {
        let phrases = try PhraseSet.load()
        let dishes = try store.mealTextDishes()
        let parse = { (text: String) in
            MealTextParser.parse(text, dishes: dishes).items.map {
                PhraseItem(quantity: $0.quantity, unit: $0.unit?.rawValue, food: $0.food)
            }
        }
        let report = PhraseSetScorer.score(phrases, fold: SearchText.fold, parse: parse)
        print("\nMeal parser, \(phrases.count) labelled phrases (targets: quantity 98 %, unit 97 %, food F1 0.90):")
        for line in report.lines { print("  " + line) }
        let real = try PhraseSet.load(from: PhraseSet.realLinesURL)
        let realReport = PhraseSetScorer.score(real, fold: SearchText.fold, parse: parse)
        print("Meal parser, \(real.count) real recipe and diary lines (targets: quantity 98 %, unit 97 %, food F1 0.92):")
        for language in realReport.byLanguage.keys.sorted() {
            print("  \(language): \(realReport.byLanguage[language, default: PhraseScore()].line)")
        }

        let began = ContinuousClock.now
        var parsedPhrases = 0
        var parsedItems = 0
        while milliseconds(ContinuousClock.now - began) < 1000 {
            for phrase in phrases {
                parsedItems += MealTextParser.parse(phrase.text, dishes: dishes).items.count
                parsedPhrases += 1
            }
        }
        let seconds = milliseconds(ContinuousClock.now - began) / 1000
        print(String(format: "Meal parser: %.0f phrases per second (%d items)", Double(parsedPhrases) / seconds, parsedItems))
    }
}
