import Foundation

extension MealTextParser {
    /// A typed amount: its value (the middle of a range), the range's bounds, and how many
    /// words it took.
    struct Amount {
        var value: Double
        var range: ClosedRange<Double>?
        var used: Int
    }

    /// Words that may end a food's name only by accident of the phrasing ("sal al gusto",
    /// "pollo en trozos"): removed from its ends.
    static let looseEnds: Set<String> = [
        "en", "in", "de", "of", "to", "into", "y", "and", "a", "al", "la", "con", "with", "or", "oder", "o",
        "und", "-", "for", "para", "zum", "fur", "von",
        // "25g e mantequilla": "de" typed without its "d"
        "e",
        // "Döner mit allem": everything that comes with a dish is no food of its own
        "alles", "allem", "everything", "todo",
    ]

    /// One fragment → an item; nil when no food words remain.
    static func item(_ fragment: Fragment) -> ParsedItem? {
        var words = fragment.words
        var preparation: [String] = []
        // "yogur de menos de 60 kcal", "Fiber One bar 2 points", "with family": remarks, not the food
        let remarked = remark(words)
        guard remarked < words.count, !relativeClause(words) else { return nil }
        preparation += words.suffix(remarked)
        words.removeLast(remarked)
        if let part = opening(&words, text: fragment.text) { return part }
        var amount: Amount?
        var unit: QuantityUnit?
        dropLeadIn(&words)
        preparation += leadingNotes(&words)
        splitUnitNamingFood(&words)
        drinkGlass(&words)
        // "Radler 0,5", "0,5 Bier": a decimal that may be litres
        var decimal = false
        if let found = leadingAmount(words) ?? impliedAmount(words) {
            amount = found
            decimal = found.used == 1 && isDecimal(words[0])
            words.removeFirst(found.used)
            dropAlternativeAmount(&words)
            // "1 ea. eggplant", "1 slab ribs": the count is of the food itself
            if words.count > 1, FoodWords.eaches.contains(words[0].lowercased()) { words.removeFirst() }
            // "200 g" with nothing after it names no food
            if words.count == 1, QuantityUnit.words[SearchText.fold(words[0])] != nil,
                !FoodWords.unitsNamingFoodAlone.contains(SearchText.fold(words[0]))
            {
                return nil
            }
            (unit, preparation) = leadingUnit(&words, amount: &amount)
            // "un tomate o dos", "ein Ei oder zwei": the range's end typed after the food
            if unit == nil, let low = amount?.value, amount?.range == nil, words.count > 2, isAlternativeWord(words[words.count - 2]),
                let high = NumberWords.number(words[words.count - 1]) ?? NumberWords.words[SearchText.fold(words[words.count - 1])], high > low
            {
                amount = Amount(value: (low + high) / 2, range: low...high, used: 0)
                words.removeLast(2)
            }
        }
        if amount == nil, let (value, found, used) = trailingQuantity(words) {
            amount = Amount(value: value, range: nil, used: used)
            unit = found
            decimal = used == 1 && isDecimal(words[words.count - 1])
            words.removeLast(used)
        }
        // "1 Hühnerbrust (ca. 250 g)": a counted piece keeps its count beside an approximate weight
        let counted = amount != nil && unit == nil
        let fewer = !fragment.parentheticals.isEmpty && fragment.words.prefix(3).contains { NumberWords.couples.contains(SearchText.fold($0)) }
        for inner in fragment.parentheticals + trailingMeasure(&words) {
            // "ein paar Knoblauchzehen (2-4)": the count of "a few"
            if fewer, let count = leadingAmount(inner), count.used == inner.count {
                amount = count
                continue
            }
            // "200cc (un vaso) de leche": a glass is no measure to replace a typed volume or weight
            if let measure = measure(inner), !(counted && measure.approximate), measure.unit != .glass || unit?.fixedAmount == nil {
                amount = measure.amount
                unit = measure.unit
            } else {
                preparation += inner
            }
        }
        preparation += storeBrand(&words)
        // "natillas de postre", "Obst als Nachtisch": when it is eaten
        if words.count > 2, FoodWords.mealTimes.contains(SearchText.fold(words[words.count - 1])),
            FoodWords.mealTimeLeads.contains(SearchText.fold(words[words.count - 2]))
        {
            preparation += words.suffix(2)
            words.removeLast(2)
        }
        var (food, descriptions) = foodAndPreparation(words)
        // "un vaso de batido": a word that also describes is the food when nothing else names one
        let described = descriptions.filter {
            !looseEnds.contains(SearchText.fold($0)) && !FoodWords.notesOfUse.contains(SearchText.fold($0)) && $0.contains(where: \.isLetter)
        }
        if !food.contains(where: \.isLetter), amount != nil || unit != nil, described.count == 1 {
            food = described[0]
            descriptions = []
        }
        preparation += descriptions
        // "3 garlic cloves", "2 celery stalks": the unit named after the food
        if unit == nil, amount != nil, let (named, rest) = trailingUnit(food) {
            unit = named
            food = rest
        }
        // "2 filetes de merluza": a fillet of fish is a piece ("filete de ternera" is a steak, a food)
        if unit == nil, let rest = fishFillet(food) {
            unit = .piece
            food = rest
        }
        // "1 beef bouillon cube", "Seasoning cubes": a stock that comes as cubes
        if unit == nil, let rest = stockCube(food) {
            unit = .tablet
            food = rest
        }
        // "Radler 0,5", "Cola 0,33", "0,5 Bier": a decimal without a unit measures a drink in litres
        if unit == nil, decimal, let value = amount?.value, value < 5,
            food.split(separator: " ").contains(where: { FoodWords.isDrink(SearchText.fold(String($0))) })
        {
            unit = .liter
        }
        // "agua o caldo de verduras": the first of the alternatives is counted, the rest said
        let (first, others) = alternatives(food)
        food = first
        guard food.contains(where: \.isLetter) else { return nil }
        // "Joghurt, sweetened with honey": a participle alone names nothing
        if amount == nil, food.hasSuffix("ed"), !food.contains(" "), isEnglishParticiple(SearchText.fold(food)) { return nil }
        if let amount, !(amount.value > 0 && amount.value.isFinite) { return nil }
        var item = ParsedItem(
            text: fragment.text,
            quantity: amount?.value ?? 1,
            quantityGiven: amount != nil,
            unit: unit,
            food: food,
            range: amount?.range,
            preparation: preparation
        )
        item.alternatives = others
        return item
    }

    /// How many words at the end only remark on the food: its energy or points ("2 points", "de
    /// menos de 60 kcal", "unter 100 kcal"), or the company it was eaten in ("with family", "mit
    /// der Familie", "con amigos").
    static func remark(_ words: [String]) -> Int {
        guard let last = words.last?.lowercased(), FoodWords.energyUnits.contains(last) || FoodWords.company.contains(last) else { return 0 }
        let folded = words.suffix(6).map(SearchText.fold)
        var start: Int
        if FoodWords.energyUnits.contains(last), folded.count > 1, NumberWords.number(folded[folded.count - 2]) != nil {
            start = folded.count - 2
        } else if FoodWords.company.contains(last) {
            start = folded.count - 1
        } else {
            return 0
        }
        while start > 0, FoodWords.remarkLeads.contains(folded[start - 1]) { start -= 1 }
        return folded.count - start
    }

    /// "que acompañaremos con pan": a relative clause names no food.
    static func relativeClause(_ words: [String]) -> Bool {
        words.first.map { isWord($0, "que") } == true
    }

    /// "1 große oder 2 kleine Auberginen": two amounts of different sizes offered for one food;
    /// the first counts, the second goes ("1 oder 2 Auberginen" is a range).
    /// `words` follow the first amount.
    private static func dropAlternativeAmount(_ words: inout [String]) {
        guard words.prefix(4).contains(where: { alternativeWords.contains($0.lowercased()) }) else { return }
        var index = 0
        while index < words.count, FoodWords.isPreparation(SearchText.fold(words[index])) { index += 1 }
        guard index > 0, index + 2 < words.count, isAlternativeWord(words[index]),
            let second = leadingAmount(Array(words[(index + 1)...]))
        else { return }
        words.removeSubrange(index...(index + second.used))
    }

    /// A store brand written in capitals before the food ("BACK FAMILY gemahlene Mandeln"):
    /// removed, so that the food is searched. A word of capitals counts as a brand when it has
    /// four letters or more, or two such words stand together; a name in capitals alone stays.
    static func storeBrand(_ words: inout [String]) -> [String] {
        let capitals = words.prefix { word in word.count >= 2 && word.allSatisfy { $0.isLetter && $0.isUppercase } }
        guard !capitals.isEmpty, capitals.count < words.count, words[capitals.count].contains(where: \.isLowercase),
            capitals.count >= 2 || capitals[0].count >= 4
        else { return [] }
        words.removeFirst(capitals.count)
        return Array(capitals)
    }

    /// "2 Knoblauchzehen, gehackt" reads as "2 Zehen Knoblauch, gehackt", a lone
    /// "Knoblauchzehe" as "1 Zehe Knoblauch": a unit word that names its food is the unit and
    /// the food.
    /// So is a German compound ending in a unit: "Basilikumblätter" are leaves of Basilikum,
    /// "Käsescheiben" slices of Käse; "Dreierpackung" is a pack, whatever it holds (but
    /// "Lorbeerblätter" are the food, as "bay leaves" are).
    static func splitUnitNamingFood(_ words: inout [String]) {
        // every such word has eight letters or more: shorter ones are not folded
        for (index, word) in words.enumerated() where word.utf8.count >= 8 {
            let folded = SearchText.fold(word)
            var split = FoodWords.unitsNamingFood[folded]
            if split == nil, word.first?.isUppercase == true, let tail = FoodWords.unitTails.first(where: folded.hasSuffix),
                folded.count >= tail.count + 3, !FoodWords.leafFoods.contains(String(folded.dropLast(tail.count)))
            {
                let stem = String(word.dropLast(tail.count))
                let unit = String(word.suffix(tail.count)).capitalized
                split = (unit, FoodWords.packCounts.contains(SearchText.fold(stem)) ? "" : stem)
            }
            guard let (unit, food) = split else { continue }
            words.replaceSubrange(index...index, with: (index == 0 ? ["1"] : []) + [unit] + (food.isEmpty ? [] : [food]))
            return
        }
    }

    /// Drops what opens a phrase without naming anything ("I had", a leading comma, "the" before
    /// "juice of"); returns the item when the phrase names a part of a food before its amount
    /// ("juice of 1/2 orange", "finely grated zest of 1 lemon").
    private static func opening(_ words: inout [String], text: String) -> ParsedItem? {
        while words.count > 1, FoodWords.fillers.contains(SearchText.fold(words[0])) { words.removeFirst() }
        // "am Spätnachmittag mache ich mir Buttermilch"
        if dropMealTime(&words) {
            while words.count > 1, FoodWords.fillers.contains(SearchText.fold(words[0])) { words.removeFirst() }
        }
        while let first = words.first,
            first == ","
                || FoodWords.articles.contains(SearchText.fold(first)) && words.count > 2
                    && FoodWords.parts[SearchText.fold(words[1])] != nil
        {
            words.removeFirst()
        }
        let described = words.prefix { FoodWords.isPreparation(SearchText.fold($0)) }
        if !described.isEmpty, words.count > described.count, FoodWords.parts[SearchText.fold(words[described.count])] != nil,
            let part = partItem(Array(words.dropFirst(described.count)), text: text)
        {
            return part
        }
        return partItem(words, text: text)
    }

    /// When the food was eaten, before it: "zum Frühstück zwei Knäckebrot", "Nachmittags
    /// Karotten", "a media mañana un yogur", "for lunch a sandwich".
    /// Whether one was dropped.
    private static func dropMealTime(_ words: inout [String]) -> Bool {
        let folded = words.prefix(3).map(SearchText.fold)
        let leads = folded.prefix { FoodWords.mealTimeLeads.contains($0) }.prefix(2)
        guard leads.count < folded.count, words.count > leads.count + 1,
            FoodWords.mealTimes.contains(folded[leads.count])
        else { return false }
        words.removeFirst(leads.count + 1)
        return true
    }

    /// Words before an amount that only hedge or frame it: "about 200 g", "ca. 2 EL", "unos
    /// 100 g", "alrededor de 4 cucharadas", "de 2 a 3 cucharadas", "from 2 to 3".
    private static func dropLeadIn(_ words: inout [String]) {
        let folded = words.prefix(3).map(SearchText.fold)
        guard folded.count > 1 else { return }
        if NumberWords.hedges.contains(folded[0]) {
            let skip = folded.count > 2 && connectors.contains(folded[1]) ? 2 : 1
            // "unas patatas fritas", "some beans": without an amount the hedge only says "some"
            if leadingAmount(Array(words.dropFirst(skip))) != nil || !connectors.contains(folded[1]) { words.removeFirst(skip) }
        } else if folded.count > 2, ["de", "from", "von", "zwischen", "entre"].contains(folded[0]),
            let range = leadingAmount(Array(words.dropFirst())),
            range.range != nil
        {
            words.removeFirst()
        } else if FoodWords.betweens.contains(folded[0]) {
            betweenRange(&words)
        } else if folded.count > 2, folded[1] == "de", isFoodWord(words[0]), let amount = leadingAmount(Array(words.dropFirst(2))),
            words.count > amount.used + 4, QuantityUnit.words[SearchText.fold(words[2 + amount.used])]?.fixedAmount != nil,
            connectors.contains(SearchText.fold(words[3 + amount.used]))
        {
            // "Ensalada de 50 g de lechuga": a dish named by the weights of what it holds
            words.removeFirst(2)
        }
    }

    /// Notes before the amount: "optional: 1 EL Honig", "n. B. 2 EL Zucker".
    private static func leadingNotes(_ words: inout [String]) -> [String] {
        let notes = words.prefix(while: isDescription)
        guard !notes.isEmpty, leadingAmount(Array(words.dropFirst(notes.count))) != nil else { return [] }
        words.removeFirst(notes.count)
        return Array(notes)
    }

    /// "entre 300 g y 400 g de sepia" → "300 - 400 g de sepia"; "zwischen 2 und 3 EL" → "2 - 3 EL".
    private static func betweenRange(_ words: inout [String]) {
        let folded = words.map(SearchText.fold)
        var joiner = 2
        if folded.count > 3, QuantityUnit.words[folded[2]] != nil { joiner = 3 }
        guard folded.count > joiner + 2, NumberWords.number(words[1]) != nil, FoodWords.halfJoiners.contains(folded[joiner]),
            NumberWords.number(words[joiner + 1]) != nil
        else { return }
        words = [words[1], "-"] + words[(joiner + 1)...]
    }

    /// A spoon said to be small is a teaspoon: "una cucharada pequeña de avena"; "una cucharilla
    /// de café de salsa de soja" is a coffee spoon of soy sauce.
    private static func spoonSize(_ unit: QuantityUnit, _ words: inout [String]) -> QuantityUnit {
        guard unit == .tablespoon || unit == .teaspoon, words.count > 2 else { return unit }
        let folded = words.prefix(3).map(SearchText.fold)
        if FoodWords.small.contains(folded[0]) {
            words.removeFirst()
            return .teaspoon
        }
        if folded[0] == "de", ["cafe", "postre"].contains(folded[1]), connectors.contains(folded[2]) {
            words.removeFirst(2)
            return .teaspoon
        }
        return unit
    }

    /// One of a unit typed without a number: "Liter Milch", "taza de café", "kilo y medio de
    /// patatas" (a fixed unit, or a unit followed by "of" or by a half), "Stück Kuchen", "große
    /// Portion Pommes" (a measure written alone, perhaps after its size).
    private static func impliedAmount(_ words: [String]) -> Amount? {
        let folded = words.prefix(3).map(SearchText.fold)
        let start = folded.count > 2 && FoodWords.isPreparation(folded[0]) && QuantityUnit.words[folded[1]] != nil ? 1 : 0
        guard folded.count > start + 1, let unit = QuantityUnit.words[folded[start]] else { return nil }
        let next = folded[start + 1]
        let framed = connectors.contains(next) || FoodWords.halfJoiners.contains(next) && joinedPart(Array(words.dropFirst(start + 2))) != nil
        if start == 0, unit.fixedAmount != nil || framed { return Amount(value: 1, range: nil, used: 0) }
        return countedAlone.contains(unit) || germanCountedAlone.contains(folded[start]) ? Amount(value: 1, range: nil, used: 0) : nil
    }

    /// Measures a person writes without "1" before the food: "Handvoll Nüsse", "Prise Salz",
    /// "Schale Erdbeeren", "Teller Suppe", "Bund Petersilie".
    static let countedAlone: Set<QuantityUnit> = [.handful, .pinch, .knifeTip, .bowl, .portion, .bunch]

    /// German measures a diary names without "ein" ("Stück Kuchen", "Scheibe Brot", "Glas Milch",
    /// "Tasse Kaffee"), as German has no food named so; in English "cup noodles", "pot roast" are foods.
    static let germanCountedAlone: Set<String> = [
        "stuck", "stueck", "stk", "scheibe", "glas", "tasse", "flasche", "becher", "dose", "tute", "packung", "packchen", "tafel",
        "riegel", "reihe", "pott", "kannchen",
    ]

    /// Units that may follow the food they count: "3 garlic cloves", "2 celery stalks" (not a
    /// leaf: "bay leaf" is the food).
    static let unitsAfterFood: Set<QuantityUnit> = [.clove, .sprig, .stalk, .rib]

    /// "garlic cloves" → (.clove, "garlic").
    private static func trailingUnit(_ food: String) -> (QuantityUnit, String)? {
        var words = food.split(separator: " ").map(String.init)
        guard words.count > 1, let unit = QuantityUnit.words[SearchText.fold(words[words.count - 1])], unitsAfterFood.contains(unit)
        else { return nil }
        words.removeLast()
        return (unit, words.joined(separator: " "))
    }

    /// "filetes de merluza" → "merluza"; nil for a steak of meat ("filete de ternera").
    private static func fishFillet(_ food: String) -> String? {
        let words = food.split(separator: " ").map(String.init)
        guard words.count > 2, ["filete", "filetes", "filet"].contains(SearchText.fold(words[0])), connectors.contains(SearchText.fold(words[1])),
            !FoodWords.meats.contains(SearchText.fold(words[2]))
        else { return nil }
        return words.dropFirst(2).joined(separator: " ")
    }

    /// "beef bouillon cube" → "beef bouillon"; nil unless the cube follows a stock.
    private static func stockCube(_ food: String) -> String? {
        let words = food.split(separator: " ").map(String.init)
        guard words.count > 1, QuantityUnit.words[SearchText.fold(words[words.count - 1])] == .tablet,
            FoodWords.stocks.contains(SearchText.fold(words[words.count - 2]))
        else { return nil }
        return words.dropLast().joined(separator: " ")
    }

    /// A unit whose meaning depends on the food after it: "1 Glas Kichererbsen" is a jar, "ein
    /// Glas Milch" a drinking glass; "1 Packung Backpulver", "1 packet yeast" are sachets.
    static func unit(_ unit: QuantityUnit, typed word: String, before food: [String]) -> QuantityUnit {
        let folded = food.map(SearchText.fold)
        if ["glas", "glaser"].contains(word), !folded.contains(where: FoodWords.isDrink) { return .jar }
        if unit == .package, folded.contains(where: { word in FoodWords.sachetFoods.contains(where: word.hasSuffix) }) { return .envelope }
        // "ein Riegel Schokolade" is a row of a bar, "ein Riegel Müsli" a bar
        if word == "riegel", folded.first?.hasSuffix("schokolade") == true { return .piece }
        // "una onza de chocolate" is a square of the bar, not an ounce
        if unit == .ounce, word.hasPrefix("onza"), folded.first(where: { !connectors.contains($0) })?.hasPrefix("chocolate") == true {
            return .piece
        }
        return unit
    }

    /// The unit after an amount ("2 EL", "tres cuartos de taza", "1 large can"), a half after
    /// it ("2 tazas y media") and a second amount added to it ("1/2 cup plus 1 tablespoon").
    /// A unit with no food after it is not taken ("200 g" alone names no food).
    private static func leadingUnit(_ words: inout [String], amount: inout Amount?) -> (QuantityUnit?, [String]) {
        var preparation: [String] = []
        let folded = words.map(SearchText.fold)
        var skip = 0
        if folded.count > 2, connectors.contains(folded[0]), QuantityUnit.words[folded[1]] != nil { skip = 1 }
        // "three quarters of a cup of milk"
        if folded.count > 3, connectors.contains(folded[0]), NumberWords.words[folded[1]] == 1, QuantityUnit.words[folded[2]] != nil { skip = 2 }
        // "46 fl oz": a fluid ounce
        if folded.count > 2, folded[0] == "fl", QuantityUnit.words[folded[1]] == .ounce { skip = 1 }
        if folded.count > 2, FoodWords.isPreparation(folded[0]), QuantityUnit.words[folded[1]] != nil {
            preparation.append(words[0])
            skip = 1
        }
        guard folded.count > skip + 1, var unit = QuantityUnit.words[folded[skip]] else { return (nil, []) }
        // "cc" is a teaspoon (cucharadita de café) in "1 cc de sal", cubic centimetres in "375cc de caldo"
        if folded[skip] == "cc", let value = amount?.value, value >= 20 { unit = .milliliter }
        words.removeFirst(skip + 1)
        unit = Self.unit(unit, typed: folded[skip], before: words)
        // "un plato hondo de sopa": a deep plate is a bowl
        if unit == .portion, words.count > 1, ["hondo", "sopero"].contains(SearchText.fold(words[0])) {
            unit = .bowl
            words.removeFirst()
        }
        if words.count > 2, FoodWords.halfJoiners.contains(SearchText.fold(words[0])), let part = joinedPart(Array(words.dropFirst())) {
            amount?.value += part.value
            amount?.range = nil
            words.removeFirst(1 + part.used)
        }
        unit = spoonSize(unit, &words)
        if let (extra, used) = addedAmount(words, to: unit) {
            amount?.value += extra
            amount?.range = nil
            words.removeFirst(used)
        }
        if unit.fixedAmount == nil, let (contents, used) = containerContents(words) {
            amount?.value *= contents.amount.value
            amount?.range = nil
            unit = contents.unit
            words.removeFirst(used)
        }
        return (unit, preparation)
    }

    /// "plus 1 tablespoon" after "1/2 cup": the second amount in the first unit (1/16 cup), for
    /// two weights, two volumes or two kitchen measures; nil for anything else.
    /// A food must follow it unless `alone` ("(200 g + 25 g)").
    static func addedAmount(_ words: [String], to unit: QuantityUnit, alone: Bool = false) -> (Double, Int)? {
        let folded = words.map(SearchText.fold)
        let start = words.first.map { FoodWords.plus.contains(SearchText.fold($0)) || FoodWords.plus.contains($0) } == true ? 1 : 0
        let food = alone ? 0 : 1
        guard folded.count > start + 1 + food, let second = leadingAmount(Array(words[start...])), second.range == nil,
            folded.count > start + second.used + food, let other = QuantityUnit.words[folded[start + second.used]],
            let ratio = ratio(of: other, to: unit)
        else { return nil }
        return (second.value * ratio, start + second.used + 1)
    }

    /// How many of `unit` one `other` is: 1 tablespoon = 1/16 cup, 1 ounce = 1/16 pound.
    static func ratio(of other: QuantityUnit, to unit: QuantityUnit) -> Double? {
        if let a = other.fixedAmount, let b = unit.fixedAmount, other.isVolume == unit.isVolume { return a / b }
        if let a = other.standardMilliliters, let b = unit.standardMilliliters { return a / b }
        return nil
    }

    /// "Juice of 1/2 orange", "Saft einer halben Zitrone", "zumo de medio limón": the part of
    /// the food, counted by the amount of the whole food.
    private static func partItem(_ words: [String], text: String) -> ParsedItem? {
        guard words.count >= 2, let part = FoodWords.parts[SearchText.fold(words[0])] else { return nil }
        var rest = Array(words.dropFirst())
        let hadConnector = connectors.contains(SearchText.fold(rest[0]))
        if hadConnector { rest.removeFirst() }
        let amount = leadingAmount(rest)
        guard amount != nil || hadConnector, amount.map({ $0.value > 0 && $0.value.isFinite }) ?? true else { return nil }
        rest.removeFirst(amount?.used ?? 0)
        let (fruits, preparation) = foodAndPreparation(rest)
        // "juice of 1 lime or lemon": the first
        let fruit = alternatives(fruits).0
        guard fruit.contains(where: \.isLetter) else { return nil }
        var item = ParsedItem(
            text: text,
            quantity: amount?.value ?? 1,
            quantityGiven: amount != nil,
            unit: nil,
            food: part.food(fruit, head: words[0]),
            range: amount?.range,
            preparation: preparation
        )
        item.countsWholeFoods = true
        return item
    }

    /// The food's name and the words describing it. Of the comma-separated parts, the first
    /// that names something besides preparation is the food ("firm, crisp green beans"); in
    /// it, preparation words before the food and everything from the first one after it
    /// ("potatoes peeled and diced", "salt to taste") describe it.
    static func foodAndPreparation(_ words: [String]) -> (String, [String]) {
        let segments = words.split(separator: ",").map(Array.init)
        // a part of nothing but descriptions ("cooked, crumbled bacon") describes the food after it
        let namesFood = { (segment: [String]) in segment.contains { !isDescription($0) && !isEnglishParticiple(SearchText.fold($0)) } }
        guard let index = segments.firstIndex(where: namesFood) ?? segments.firstIndex(where: { $0.contains { !isDescription($0) } }) else {
            return ("", words.filter { $0 != "," })
        }
        var preparation = segments.enumerated().filter { $0.offset != index }.flatMap(\.element)
        let segment = segments[index]
        var position = 0
        while position < segment.count,
            isDescription(segment[position]) || freshlyGround(segment, at: position) || describesAhead(segment, at: position)
        {
            preparation.append(segment[position])
            position += 1
        }
        var food: [String] = []
        while position < segment.count {
            let word = SearchText.fold(segment[position])
            let next = position + 1 < segment.count ? SearchText.fold(segment[position + 1]) : ""
            // "cereales tostados de trigo": a participle and its grain name a product
            let product =
                food.last.map { FoodWords.productPhrases.contains(SearchText.fold($0) + " " + word) } ?? false
                || !food.isEmpty && next == "de" && FoodWords.isSpanishParticiple(word) && position + 2 < segment.count
                    && QuantityUnit.words[SearchText.fold(segment[position + 2])] == nil
            // "dried or fresh hot peppers": a description after "or" opens the next alternative
            let endsFood =
                FoodWords.isPreparation(word) && !product && !(food.last.map(isAlternativeWord) ?? false)
                || FoodWords.isSpanishParticiple(word) && !product && food.last.map { isFoodWord($0) && !isAlternativeWord($0) } == true
                || !food.isEmpty && FoodWords.clauseStarters.contains(word) && !FoodWords.namePhrases.contains(word + " " + next)
                    && !(FoodWords.withouts.contains(word) && FoodWords.freeFrom.contains(next))
                || !food.isEmpty && FoodWords.cutStarters.contains(word) && (FoodWords.cuts.contains(next) || FoodWords.isPreparation(next))
                || freshlyGround(segment, at: position)
            if endsFood {
                // "Tim's med coffee": what is said of the food after whose it is
                let owner = food.last.map { $0.hasSuffix("'s") || $0.hasSuffix("’s") } ?? false
                if food.isEmpty || owner && FoodWords.isPreparation(word) && position + 1 < segment.count {
                    preparation.append(segment[position])
                    position += 1
                    continue
                }
                preparation += segment[position...]
                break
            }
            food.append(segment[position])
            position += 1
        }
        while let first = food.first, looseEnds.contains(SearchText.fold(first)) || connectors.contains(SearchText.fold(first)) {
            food.removeFirst()
        }
        while let last = food.last, looseEnds.contains(SearchText.fold(last)) { food.removeLast() }
        return (food.joined(separator: " "), preparation.filter { !looseEnds.contains(SearchText.fold($0)) })
    }

    /// Words before the food that say how it is made: "salteado de espinacas", "air fried tofu".
    static func describesAhead(_ words: [String], at position: Int) -> Bool {
        guard position + 1 < words.count else { return false }
        let next = words[position + 1]
        if isWord(next, "fried") || position > 0 && isWord(words[position], "fried") {
            return FoodWords.fryings.contains(SearchText.fold(words[isWord(next, "fried") ? position : position - 1]))
        }
        if isWord(next, "de") {
            let word = SearchText.fold(words[position])
            return position + 2 < words.count && FoodWords.isSpanishParticiple(word) && !FoodWords.participleNouns.contains(word)
        }
        guard position > 0 else { return false }
        let before = words[position - 1]
        // "in Würfel geschnittene Kartoffeln"
        if before.utf8.count <= 4, FoodWords.cutStarters.contains(before.lowercased()) {
            return FoodWords.cuts.contains(SearchText.fold(words[position])) && FoodWords.isPreparation(SearchText.fold(next))
        }
        // "fein gehacktes Koriandergrün" (but "Gehacktes" alone is minced meat)
        guard words[position].hasSuffix("e") || words[position].hasSuffix("es") else { return false }
        let word = words[position].lowercased()
        return FoodWords.participleNouns.contains(word)
            && ["es", "e"].contains { word.hasSuffix($0) && FoodWords.preparation.contains(String(word.dropLast($0.count))) }
            && FoodWords.isPreparation(SearchText.fold(before))
    }

    /// Whether `token` is `word` (in lower case) in any case, without lowering every token.
    static func isWord(_ token: String, _ word: String) -> Bool {
        token.utf8.count == word.utf8.count && token.lowercased() == word
    }

    /// "freshly ground pepper", "frisch gemahlener Pfeffer": ground just now is how it is made;
    /// "ground beef", "gemahlene Mandeln" are products of their own.
    static func freshlyGround(_ words: [String], at position: Int) -> Bool {
        guard position > 0 else { return false }
        let word = SearchText.fold(words[position])
        return (word == "ground" || word.hasPrefix("gemahlen")) && ["frisch", "fresh", "freshly"].contains(SearchText.fold(words[position - 1]))
    }

    /// A word that only describes: a preparation word, a loose connector, or punctuation.
    static func isDescription(_ word: String) -> Bool {
        let folded = SearchText.fold(word)
        return folded.isEmpty || FoodWords.isPreparation(folded) || looseEnds.contains(folded)
    }

    /// A number written with a decimal comma or point: "0,5", "0.33".
    static func isDecimal(_ token: String) -> Bool {
        (token.contains(",") || token.contains(".")) && NumberWords.number(token) != nil
    }
}
