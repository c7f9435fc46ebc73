import DietCore
import Foundation

/// One food in a typed meal: "200 g chicken breast" → quantity 200, unit gram, food
/// "chicken breast". Matching the food and its portion is the food database's job.
public struct ParsedItem: Hashable, Sendable {
    /// The fragment as typed.
    public let text: String
    /// How many units; 1 when none was typed (then `quantityGiven` is false). The middle of a
    /// typed range.
    public let quantity: Double
    public let quantityGiven: Bool
    /// nil: the quantity counts the food itself ("2 eggs") or its default portion.
    public let unit: QuantityUnit?
    /// The words naming the food, as typed (trimmed), without preparation words.
    public let food: String
    /// Both bounds of a typed range ("2 to 3 tablespoons" → 2...3); `quantity` is its middle.
    public let range: ClosedRange<Double>?
    /// How the food is prepared, as typed ("diced", "peeled", "gehackt"): kept apart from
    /// the food so that search matches the food itself.
    public let preparation: [String]
    /// Typed as going with the food before it: "Kaffee mit Milch", "toast with butter".
    public var withPrevious = false
    /// The quantity counts the whole foods a part is taken from: "juice of 2 lemons" is the
    /// juice two lemons give, not two servings of juice.
    public var countsWholeFoods = false
    /// Other foods typed as alternatives ("agua o caldo de verduras" → ["caldo de verduras"]):
    /// the first is counted, these are said.
    public var alternatives: [String] = []
    /// The counted food a dish is made from ("Rührei aus 2 Eiern" → "Eiern"): `quantity` and
    /// `unit` count it, and the dish is as much as it weighs.
    public var madeOf: String?

    public init(
        text: String,
        quantity: Double,
        quantityGiven: Bool,
        unit: QuantityUnit?,
        food: String,
        range: ClosedRange<Double>? = nil,
        preparation: [String] = []
    ) {
        self.text = text
        self.quantity = quantity
        self.quantityGiven = quantityGiven
        self.unit = unit
        self.food = food
        self.range = range
        self.preparation = preparation
    }
}

/// The result of reading a typed meal: the items understood, and every fragment that was
/// not, so nothing is guessed silently.
public struct MealTextParse: Hashable, Sendable {
    public let items: [ParsedItem]
    public let unparsed: [String]
}

/// Reads "2 eggs and a slice of toast", "Haferflocken 60g mit Milch", "un plátano y 1½ tazas de
/// leche", and recipe lines such as "2 1/2 cups diced, peeled potatoes" into items (docs/rules.md §6).
public enum MealTextParser {
    /// Words and marks that separate foods, folded.
    public static let separators: Set<String> = ["and", "with", "w", "plus", "und", "mit", "sowie", "y", "e", "con", "&", "+"]
    /// Separators that add a food to the one before it rather than list a new one.
    static let accompaniments: Set<String> = ["with", "w", "mit", "con"]
    /// Words between a unit and its food: "a slice of toast", "1 Tasse von", "una taza de leche".
    static let connectors: Set<String> = ["of", "von", "vom", "de", "del"]

    /// - Parameter dishes: folded names (`SearchText.fold`) of known foods and dishes that hold
    ///   a separator word ("arroz con leche", "mac and cheese"): a span of the text that is one
    ///   of them stays one item.
    public static func parse(_ text: String, dishes: Set<String> = []) -> MealTextParse {
        var items: [ParsedItem] = []
        var unparsed: [String] = []
        for fragment in fragments(tokens(text), dishes: dishes) {
            if let previous = items.last, let item = repeated(fragment, of: previous) {
                items.append(item)
            } else if var item = item(fragment) {
                // "galletas, muchas galletas": a food said again, described but without an amount, only stresses it
                if !item.quantityGiven, !item.preparation.isEmpty, let previous = items.last, previous.food.lowercased() == item.food.lowercased() {
                    continue
                }
                item.withPrevious = fragment.withPrevious && !items.isEmpty
                if let made = madeFrom(item) {
                    // "Rührei aus 0 Eiern" is refused as "0 Eier" is, never a scrambled egg of no eggs
                    if let made { items.append(made) } else { unparsed.append(fragment.text) }
                } else {
                    items.append(item)
                }
            } else if !fragment.text.isEmpty, !fragment.describesOnly {
                // "plus more to taste" names nothing to log and is no mistake either
                unparsed.append(fragment.text)
            }
        }
        return MealTextParse(items: items, unparsed: unparsed)
    }

    /// "Rührei aus 2 Eiern", "omelette from 3 eggs", "tortilla de 3 huevos": a dish, a word
    /// saying what it is made from, and a counted food. One item of the dish whose quantity and
    /// unit are the counted food's (so the limits of a meal apply to them), `madeOf` naming it.
    /// nil where the item says no such thing; `.some(nil)` where it counts none or less ("aus 0
    /// Eiern", "aus -3 Eiern") or a count it cannot read ("aus 1e309 Eiern"): nothing to log.
    static func madeFrom(_ item: ParsedItem) -> ParsedItem?? {
        guard !item.quantityGiven else { return nil }
        let words = item.food.split(separator: " ").map(String.init) + item.preparation
        guard let at = words.indices.dropFirst().first(where: { FoodWords.madeFrom.contains(SearchText.fold(words[$0])) }),
            at + 2 < words.count
        else { return nil }
        let count = words[at + 1]
        guard let number = NumberWords.number(count.hasPrefix("-") ? String(count.dropFirst()) : count) else {
            // "aus 1e309 Eiern": a count no one can read is no amount to drop in silence
            return count.first?.isNumber == true ? .some(nil) : nil
        }
        if count.hasPrefix("-") || number <= 0 { return .some(nil) }
        let counted = parse(words[(at + 1)...].joined(separator: " ")).items
        guard counted.count == 1, let part = counted.first, part.quantityGiven, !part.food.contains(where: \.isNumber) else { return nil }
        var made = ParsedItem(
            text: item.text,
            quantity: part.quantity,
            quantityGiven: true,
            unit: part.unit,
            food: words[..<at].joined(separator: " "),
            range: part.range
        )
        made.madeOf = part.food
        return made
    }

    /// "6 dientes de ajo crudos y 6 fritos": a second amount with nothing but how it is made is
    /// more of the food before it, in its unit.
    static func repeated(_ fragment: Fragment, of previous: ParsedItem) -> ParsedItem? {
        let words = fragment.words
        guard words.count >= 2, words[0].first?.isNumber == true, fragment.parentheticals.isEmpty, NumberWords.number(words[0]) != nil,
            let amount = leadingAmount(words),
            amount.used < words.count, words[amount.used...].allSatisfy({ FoodWords.looksPrepared(SearchText.fold($0)) })
        else { return nil }
        return ParsedItem(
            text: fragment.text,
            quantity: amount.value,
            quantityGiven: true,
            unit: previous.unit,
            food: previous.food,
            range: amount.range,
            preparation: Array(words[amount.used...])
        )
    }

    /// The words of one food, with what was typed in parentheses set aside.
    struct Fragment {
        var words: [String] = []
        var parentheticals: [[String]] = []
        /// Opened by "with", "mit" or "con".
        var withPrevious = false

        /// Nothing but descriptions: no amount and no food ("more to taste", "finely chopped").
        var describesOnly: Bool {
            words.allSatisfy { MealTextParser.isDescription($0) || MealTextParser.isEnglishParticiple(SearchText.fold($0)) }
                || MealTextParser.remark(words) == words.count || MealTextParser.relativeClause(words)
        }

        var text: String {
            (words + parentheticals.map { "(" + $0.joined(separator: " ") + ")" }).joined(separator: " ")
                .replacingOccurrences(of: " ,", with: ",").trimmingCharacters(in: CharacterSet(charactersIn: ", "))
        }
    }

    /// Splits the tokens into foods: on ";" and line breaks; on a separator word unless it is
    /// inside a known dish name, joins two amounts ("1 cup plus 2 tbsp") or two preparation
    /// words ("peeled and diced"); on a comma only when a new food follows it (not a
    /// preparation word: "1/2 pound firm, crisp green beans"). Parentheses never split.
    static func fragments(_ tokens: [String], dishes: Set<String>) -> [Fragment] {
        let folded = tokens.map(SearchText.fold)
        let protected = dishSpans(folded, dishes: dishes)
        var pieces: [Fragment] = []
        var current = Fragment()
        var parenthetical: [String]?
        var offering = false
        func close() {
            offering = false
            if !current.words.isEmpty || !current.parentheticals.isEmpty { pieces.append(current) }
            current = Fragment()
        }
        var remarkEnd = -1
        for (index, token) in tokens.enumerated() where index > remarkEnd {
            // "3 Knäckebrot - erstmals mit Marmelade": a dash after a German noun opens a remark in lower case
            if token == "-", parenthetical == nil, let last = current.words.last, last.first?.isUppercase == true, isFoodWord(last) {
                remarkEnd = index + tokens[(index + 1)...].prefix { $0.first?.isLowercase == true && !separators.contains($0) }.count
                continue
            }
            if token == "(" {
                parenthetical = []
                continue
            }
            if token == ")" {
                if let words = parenthetical, !words.isEmpty { current.parentheticals.append(words) }
                parenthetical = nil
                continue
            }
            if parenthetical != nil {
                if token != ":" { parenthetical?.append(token) }
                continue
            }
            // "850 g Kohlsorte: Weißkohl, Wirsingkohl": a label before a list names no food
            if token == ":" {
                if tokens[(index + 1)...].prefix(while: { ![";", "\n"].contains($0) }).contains(",") {
                    while let last = current.words.last, isFoodWord(last) { current.words.removeLast() }
                    // "Ramito con: laurel, perejil": a label ending in "with"
                    if current.words.isEmpty, current.withPrevious, let label = pieces.last, label.words.count == 1, label.parentheticals.isEmpty {
                        pieces.removeLast()
                        current.withPrevious = false
                    }
                }
                continue
            }
            if protected.contains(index) {
                current.words.append(token)
                continue
            }
            // "Sopa / Pollo asado / Yogur" lists foods (but "200 g / 7 oz" is one amount)
            if [";", "\n"].contains(token) || token == "/" && !(index + 1 < tokens.count && NumberWords.number(tokens[index + 1]) != nil) {
                close()
                continue
            }
            if token == "," {
                if splitsAtComma(tokens, folded, after: index, current: current.words),
                    !exchangeList(tokens, folded, after: index, current: current.words)
                {
                    close()
                } else {
                    current.words.append(token)
                }
                continue
            }
            // "100g yogurt 30g berry smoothie": a new amount and unit after a food start the next
            if startsNextFood(tokens, folded, at: index, current: current.words)
                || countsNextFood(tokens, folded, at: index, current: current.words)
            {
                close()
            }
            // "acompañado con fajitas", "served with rice": what goes with the food before
            if FoodWords.accompanying.contains(folded[index]), index + 1 < folded.count, ["de", "con", "with", "mit"].contains(folded[index + 1]) {
                close()
                current.withPrevious = true
                continue
            }
            if separators.contains(token) || separators.contains(folded[index]) {
                // "mit Frischkäse oder mit Quark und Kräutern": all after "oder mit" is the other choice
                if accompaniments.contains(folded[index]), index > 0, isAlternativeWord(tokens[index - 1]) { offering = true }
                if !offering, splitsAtSeparator(tokens, folded, at: index) {
                    close()
                    current.withPrevious = accompaniments.contains(folded[index])
                } else {
                    current.words.append(token)
                }
                continue
            }
            current.words.append(token)
        }
        if let words = parenthetical, !words.isEmpty { current.words += words }
        close()
        return pieces
    }

    /// A number and a unit after a food name, with a food after them, start another food, as
    /// food diaries list them: "100g yogurt 30g berry smoothie", "30g oatmeal 1Tbsp maple syrup".
    private static func startsNextFood(_ tokens: [String], _ folded: [String], at index: Int, current: [String]) -> Bool {
        guard index + 2 < tokens.count, NumberWords.number(tokens[index]) != nil, QuantityUnit.words[folded[index + 1]] != nil,
            let last = current.last, isFoodWord(last)
        else { return false }
        // "2 x 100 g", "2 to 3 cups", "4 cups nuts or 800 ml extract" go on with the amount
        guard !joiningAmounts.contains(SearchText.fold(last)), last != "-" else { return false }
        return isFoodWord(tokens[index + 2]) && !separators.contains(folded[index + 2])
    }

    /// A whole number and a food after a food start another food, as diaries add to a drink:
    /// "coffee 2 sugar" (but "Eier 2", "bar 2 points", "2 x 100 g" stay one).
    private static func countsNextFood(_ tokens: [String], _ folded: [String], at index: Int, current: [String]) -> Bool {
        guard index + 1 < tokens.count, tokens[index].first?.isNumber == true, let last = current.last,
            let value = NumberWords.number(tokens[index]), value.rounded() == value, isFoodWord(last), isFoodWord(tokens[index + 1]),
            !separators.contains(folded[index + 1]),
            !FoodWords.energyUnits.contains(tokens[index + 1].lowercased()), !FoodWords.times.contains(folded[index + 1])
        else { return false }
        return !joiningAmounts.contains(SearchText.fold(last)) && last != "-"
    }

    /// Words after which an amount goes on with the food before it: times, ranges, sums,
    /// alternatives, and what a dish is made from ("Rührei aus 2 Eiern", "omelette from 3 eggs").
    /// (A Spanish "de" before an amount is left out: "ensalada de 50 g de lechuga" lists what it holds.)
    private static let joiningAmounts = FoodWords.times.union(FoodWords.rangeWords).union(FoodWords.plus).union(alternativeWords)
        .union(FoodWords.madeFrom.subtracting(["de"]))

    /// A weight followed by a list of foods with neither amounts nor "and" offers them in
    /// exchange, as diet plans list them: "175 g de fresas, fresones, melón, sandía", "100 g
    /// apples, pears, plums". The first is counted; a list of foods eaten ends in "and".
    private static func exchangeList(_ tokens: [String], _ folded: [String], after index: Int, current: [String]) -> Bool {
        guard current.count > 2, NumberWords.number(current[0]) != nil, let amount = leadingAmount(current), current.count > amount.used + 1,
            QuantityUnit.words[SearchText.fold(current[amount.used])]?.fixedAmount != nil
        else { return false }
        var depth = 0
        var commas = 1 + current.filter { $0 == "," }.count
        for position in (index + 1)..<tokens.count {
            let token = tokens[position]
            if token == "(" { depth += 1 }
            if token == ")" { depth -= 1 }
            if depth > 0 || token == ")" { continue }
            if [";", "\n"].contains(token) { break }
            if token == "," { commas += 1 }
            if separators.contains(folded[position]) || NumberWords.number(token) != nil || NumberWords.words[folded[position]] != nil {
                return false
            }
        }
        return commas >= 2
    }

    /// Token positions covered by a known dish name ("arroz con leche"), longest first.
    static func dishSpans(_ folded: [String], dishes: Set<String>) -> Set<Int> {
        guard !dishes.isEmpty else { return [] }
        var covered: Set<Int> = []
        var start = 0
        while start < folded.count {
            var matched = 0
            for length in stride(from: min(8, folded.count - start), through: 3, by: -1) {
                let span = folded[start..<start + length]
                guard span.allSatisfy({ !$0.isEmpty }), span.contains(where: separators.contains) else { continue }
                if dishes.contains(span.joined(separator: " ")) {
                    matched = length
                    break
                }
            }
            if matched > 0 {
                covered.formUnion(start..<start + matched)
                start += matched
            } else {
                start += 1
            }
        }
        return covered
    }

    /// A comma ends a food once one is named, unless what follows describes it: a preparation
    /// word or clause ("potatoes, peeled and diced", "Käse, in Scheiben", "eggs, at room
    /// temperature") or a participle ending its clause ("2 Brötchen, aufgebacken", "cloves
    /// separated and peeled"). Before the food is named, a comma lists its descriptions
    /// ("1/2 pound firm, crisp green beans").
    private static func splitsAtComma(_ tokens: [String], _ folded: [String], after index: Int, current: [String]) -> Bool {
        guard current.contains(where: { isFoodWord($0) && !isEnglishParticiple(SearchText.fold($0)) }) else { return false }
        if listsAlternatives(tokens, folded, after: index) { return false }
        let words = Array(folded[(index + 1)...].prefix { !$0.isEmpty }.prefix(12))
        guard let first = words.first else { return true }
        // an approximate weight after the food, or the weight of a unit, belongs to it: "1
        // Hühnerbrust, ca. 250 g", "1 Glas Oliven, 290 g" (but "2 eggs, 200 g" says nothing of the eggs)
        let following = tokens[(index + 1)...].prefix { ![",", ";", "\n", "("].contains($0) }
        if isMeasure(following), isHedge(following.first ?? "") || current.contains(where: { QuantityUnit.words[SearchText.fold($0)] != nil }) {
            return false
        }
        // a new amount starts a new food: "2 Eier, 1 Brötchen"
        if NumberWords.number(tokens[index + 1]) != nil || NumberWords.words[first] != nil,
            !(words.count > 1 && FoodWords.isPreparation(words[1]))
        {
            return true
        }
        if FoodWords.isPreparation(first) { return namesNewFood(words) }
        if FoodWords.clauseStarters.contains(first) || FoodWords.cutStarters.contains(first) { return false }
        if describesInGerman(tokens, after: index) { return false }
        // a participle with nothing but descriptions around it: "cloves separated and peeled",
        // "aufgebacken" (but "jamón cocido" is a food)
        let joiners: Set<String> = ["and", "und", "y", "or", "o", "oder"]
        // "wings, tips removed": a part and what was done to it
        if words.count == 2, isEnglishParticiple(words[1]), isFoodWord(words[0]) { return false }
        for (position, word) in words.enumerated() where FoodWords.looksPrepared(word) {
            let before = words[..<position].allSatisfy { FoodWords.isPreparation($0) || QuantityUnit.words[$0] != nil }
            let after = words[(position + 1)...].allSatisfy {
                FoodWords.looksPrepared($0) || joiners.contains($0) || FoodWords.cutStarters.contains($0) || FoodWords.cuts.contains($0)
            }
            if before && after { return false }
        }
        return true
    }

    /// After a comma, descriptions and then a food's name or an amount start a new food
    /// ("Kaffee, gekochtes Ei", "Salz, frisch gemahlener Pfeffer"); descriptions alone describe
    /// the food before it.
    private static func namesNewFood(_ words: [String]) -> Bool {
        let rest = words.drop(while: FoodWords.isPreparation).prefix { !separators.contains($0) }
        // "Topping 1 TL Nüsse": a note, then a new amount
        if let first = rest.first, NumberWords.number(first) != nil || NumberWords.words[first] != nil { return true }
        return !rest.isEmpty && rest.count <= 3
            && rest.allSatisfy {
                isFoodWord($0) && !FoodWords.looksPrepared($0) && !FoodWords.cuts.contains($0)
                    && !FoodWords.clauseStarters.contains($0) && !FoodWords.cutStarters.contains($0)
            }
    }

    /// German nouns are written in capitals: after a food in capitals ("½ TL Paprikapulver,
    /// rosenscharf"), words in lower case only describe it. The first word of the line does not
    /// count, as any language writes it in capitals.
    private static func describesInGerman(_ tokens: [String], after index: Int) -> Bool {
        guard index > 1, tokens[index - 1].first?.isUppercase == true else { return false }
        let words = tokens[(index + 1)...].prefix { ![",", ";", "\n", "(", ")"].contains($0) }
        return !words.isEmpty && words.allSatisfy { $0.allSatisfy(\.isLowercase) }
    }

    /// "cooked", "ripe"-like English descriptions before the food: "1 cup cooked, crumbled bacon".
    static func isEnglishParticiple(_ folded: String) -> Bool {
        folded.count >= 5 && folded.hasSuffix("ed") && !FoodWords.participleNouns.contains(folded)
    }

    /// A word that may name a food: not an amount, a unit or a description.
    static func isFoodWord(_ token: String) -> Bool {
        let folded = SearchText.fold(token)
        return !folded.isEmpty && NumberWords.number(token) == nil && NumberWords.words[folded] == nil && QuantityUnit.words[folded] == nil
            && !FoodWords.isPreparation(folded) && !connectors.contains(folded) && !NumberWords.hedges.contains(folded)
    }

    /// A separator word ends a food unless it joins two amounts, an amount and a half, or two
    /// preparation words.
    private static func splitsAtSeparator(_ tokens: [String], _ folded: [String], at index: Int) -> Bool {
        let before = index > 0 ? folded[index - 1] : ""
        let after = index + 1 < folded.count ? Array(folded[(index + 1)...]) : []
        guard let next = after.first else { return true }
        // "one and a half cups", "2 tazas y media", "1 kg y 1/4"
        if FoodWords.halfJoiners.contains(folded[index]), joinedPart(Array(tokens[(index + 1)...])) != nil,
            NumberWords.number(tokens[index - 1 < 0 ? index : index - 1]) != nil || NumberWords.words[before] != nil
                || QuantityUnit.words[before] != nil
        {
            return false
        }
        // "entre 300 g y 400 g", "between 2 and 3 cups"
        if FoodWords.halfJoiners.contains(folded[index]), closesRangeStart(tokens, folded, at: index) { return false }
        // "1/2 cup plus 1 tablespoon", "1 lb and 2 oz"
        if FoodWords.plus.contains(folded[index]) || FoodWords.plus.contains(tokens[index]), QuantityUnit.words[before] != nil, index >= 2,
            NumberWords.number(tokens[index - 2]) != nil || NumberWords.words[folded[index - 2]] != nil,
            NumberWords.number(tokens[index + 1]) != nil, after.count > 1, QuantityUnit.words[after[1]] != nil
        {
            return false
        }
        // "frijoles con carne", "fish and chips": one dish, also without the food database
        if ["con", "and"].contains(folded[index]), FoodWords.dishes.contains(before + " " + folded[index] + " " + next) { return false }
        // "tostada de trigo y centeno", "wheat and rye bread": two grains make one bread or flour
        if FoodWords.grains.contains(before), FoodWords.grains.contains(next) { return false }
        // "25g e mantequilla": "e" after a weight is "de" typed without its "d"
        if folded[index] == "e", index >= 2, QuantityUnit.words[before]?.fixedAmount != nil, NumberWords.number(tokens[index - 2]) != nil {
            return false
        }
        // "peeled and diced", "gewürfelt und in Scheiben geschnitten"
        if FoodWords.isPreparation(before), !before.isEmpty,
            FoodWords.isPreparation(next)
                || FoodWords.cutStarters.contains(next) && after.count > 1 && FoodWords.cuts.contains(after[1])
        {
            return false
        }
        return true
    }

    /// Whether the word at `index` joins the bounds of a range opened by "between": "entre
    /// 300 g y 400 g", "zwischen 2 und 3 EL".
    static func closesRangeStart(_ tokens: [String], _ folded: [String], at index: Int) -> Bool {
        var start = index - 1
        if start > 0, QuantityUnit.words[folded[start]] != nil { start -= 1 }
        guard start > 0, NumberWords.number(tokens[start]) != nil, index + 1 < tokens.count, NumberWords.number(tokens[index + 1]) != nil
        else { return false }
        return FoodWords.betweens.contains(folded[start - 1])
    }

    /// A part of one after "and": "a half", "ein halb", "half", "media", "un cuarto", "1/4",
    /// "¼"; its value and the words it took.
    static func joinedPart(_ words: [String]) -> (value: Double, used: Int)? {
        guard let first = words.first else { return nil }
        let folded = words.prefix(2).map(SearchText.fold)
        if NumberWords.parts[folded[0]] == 0.5 { return (0.5, 1) }
        if folded.count > 1, NumberWords.words[folded[0]] == 1, let part = NumberWords.parts[folded[1]] { return (part, 2) }
        if let value = NumberWords.number(first), value < 1 { return (value, 1) }
        return nil
    }
}

extension ParsedItem {
    /// What the confirm screen says about a typed range: "“2–3 EL Zucker” gives a range from 2
    /// to 3: the middle, 2.5, is counted." nil without a range.
    /// What the confirm screen says of how the words were read: a range's middle, or the
    /// alternative counted.
    public func note(_ l: Localizer) -> String? {
        if let range = rangeNote(l) { return range }
        guard !alternatives.isEmpty else { return nil }
        return l.text("text.alternativeFirst", ["typed": .text(text), "food": .text(food)])
    }

    public func rangeNote(_ l: Localizer) -> String? {
        guard let range else { return nil }
        return l.text(
            "text.rangeMiddle",
            [
                "typed": .text(text), "low": .text(l.amount(range.lowerBound)),
                "high": .text(l.amount(range.upperBound)), "middle": .text(l.amount(quantity)),
            ]
        )
    }
}
