import DietCore
import FoodKit
import Foundation
import Testing

/// Careless and hostile input: the parser never traps, and what it returns is always usable.
@Suite("Meal parser robustness")
struct ParserRobustnessTests {
    /// Pieces of real phrases and of broken ones, glued at random.
    static let pieces = [
        "2", "1/2", "½", "1,5", "0", "-3", "1/0", "1e309", "99999999999", "x", "×", "2x100g", "to", "bis", "a", "o", "-", "–", "(", ")",
        "((", "))", ",", ";", "+", "&", "plus", "and", "und", "y", "mit", "con", "with", "of", "de", "EL", "TL", "cup", "g", "kg",
        "Becher", "Zehen", "ca.", "about", "unos", "alrededor", "de", "drei", "Viertel", "medio", "y media", "a dozen", "docena",
        "Juice", "Saft", "einer", "halben", "zumo", "Zitrone", "eggs", "Käse", "arroz con leche", "fein", "gehackt", "diced",
        "for frying", "zum", "para", "I had", "🍕", "\u{202E}", "𝟐", "\u{0301}", "", " ", "\n", "Döner", "Pommes", "(500 g)",
    ]

    @Test("8,000 random phrases: no trap, every item a positive finite amount of a named food, a range holding its middle")
    func randomPhrases() {
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<8000 {
            let phrase = (0..<(1 + next(12))).map { _ in Self.pieces[next(Self.pieces.count)] }.joined(separator: next(3) == 0 ? "" : " ")
            let parse = MealTextParser.parse(phrase, dishes: ["arroz con leche"])
            for item in parse.items {
                #expect(item.quantity > 0 && item.quantity.isFinite, "\(phrase) → \(item)")
                #expect(item.food.contains { $0.isLetter }, "\(phrase) → \(item)")
                let rangeHoldsQuantity = item.range.map { $0.lowerBound < $0.upperBound && $0.contains(item.quantity) } ?? true
                #expect(rangeHoldsQuantity, "\(phrase) → \(item)")
            }
        }
    }

    @Test("a descending or broken range is no range", arguments: ["3 to 2 tbsp sugar", "2--3 EL Zucker", "- 3 EL Zucker", "1/0 cup flour"])
    func brokenRanges(text: String) {
        #expect(MealTextParser.parse(text).items.allSatisfy { $0.range == nil && $0.quantity.isFinite }, "\(MealTextParser.parse(text))")
    }

    @Test("an absurd product of amounts is refused by the limits, naming the quantity")
    func absurdProduct() {
        #expect(throws: ValidationError.self) { try MealTextParser.checkedParse("1000 x 1000 g Reis") }
    }
}
