/// How many grams a typed quantity of a food is (docs/rules.md §6): fixed units convert directly,
/// household units use the food's own portion of that name, kitchen measures fall back to
/// their standard volume, and a bare count ("2 eggs") uses the food's natural portion (a
/// medium or large one, one named after the food, else its first household portion), and
/// 100 g only for a food without portions.
public enum PortionChooser {
    /// What the quantity was resolved to.
    public struct Choice: Hashable, Sendable {
        public let grams: Double
        /// The portion used ("1 large"), nil for grams, millilitres and the 100 g default.
        public let portion: Portion?
        /// No portion fitted: 100 g per unit was assumed (the caller says so).
        public let assumedDefault: Bool
        /// A unit was typed that the food has no portion or measure of ("1 Dose Tomaten"): the
        /// food's natural portion was counted instead, which the person must see and check.
        public var unitIgnored = false

        public init(grams: Double, portion: Portion? = nil, assumedDefault: Bool = false) {
            self.grams = grams
            self.portion = portion
            self.assumedDefault = assumedDefault
        }
    }

    /// Words of the food's portion names that count as "one of it".
    static let wholeItemWords = [
        "medium", "large", "piece", "fruit", "each", "whole", "roll", "slice", "serving", "small",
        "egg", "pretzel", "bagel", "croissant", "muffin", "patty", "link", "sandwich", "item", "stalk",
    ]

    /// Words of a portion that is one piece a person counts: a biscuit, a cracker, a rice cake.
    static let pieceWords = [
        "cookie", "cracker", "wafer", "cake", "biscuit", "piece", "each", "bar", "candy", "pastry", "nugget", "wing",
        "medium", "roll", "bun", "muffin", "pretzel", "croissant", "bagel", "egg", "fruit", "patty", "link", "dumpling",
    ]

    static let unitWords: [QuantityUnit: [String]] = [
        .cup: ["cup"], .glass: ["glass", "flute", "cup", "fl oz"], .tablespoon: ["tbsp", "tablespoon"], .teaspoon: ["tsp", "teaspoon"],
        .slice: ["slice", "cracker", "wafer"], .piece: ["medium", "large", "piece", "each", "whole", "fruit"], .portion: ["serving", "portion"],
        .handful: ["handful", "oz"], .bowl: ["bowl", "cup"], .can: ["can"], .bottle: ["bottle"],
        .pinch: ["pinch", "dash"], .knifeTip: ["pinch", "dash"], .drop: ["drop"], .dash: ["dash", "tbsp"],
        .clove: ["clove"], .sprig: ["sprig"], .stick: ["stick"], .package: ["package", "packet", "pkg", "container", "bag"],
        .head: ["head"], .stalk: ["stalk", "spear"], .bunch: ["bunch"], .rib: ["stalk", "rib"], .bulb: ["bulb"],
        .strip: ["strip", "slice"], .envelope: ["envelope", "packet"], .leaf: ["leaf", "leaves"], .pot: ["container", "cup"],
        .jar: ["jar"], .tablet: ["cube", "tablet"], .scoop: ["scoop"],
    ]

    /// - Parameter foodName: the food's reference name, whose first word also names a whole
    ///   item ("avocado" for "Avocados, raw").
    /// - Parameter serving: what the food means without an amount (`Food.serving`), used for a
    ///   bare count and for "1 Portion".
    /// - Parameter counted: a number was typed before the food ("3 Butterkekse"): it counts
    ///   pieces where the food has a piece lighter than its serving (a biscuit of 5 g, not
    ///   servings of 30 g).
    /// - Parameter described: words typed about the food ("große"): a size among them chooses
    ///   the food's portion of that size when no unit was typed ("2 große Eier" are two of L).
    public static func grams(
        quantity: Double,
        unit typedUnit: QuantityUnit?,
        portions: [Portion],
        foodName: String = "",
        serving: Portion? = nil,
        counted: Bool = false,
        described: [String] = []
    ) -> Choice {
        // "1 Glas Kichererbsen" is a jar; "1 Glas Milch" a drinking glass
        let unit = typedUnit == .glass && !isDrink(foodName) ? .jar : typedUnit
        if unit == nil, let sized = sized(portions, words: described) {
            return Choice(grams: quantity * sized.gramsPerUnit, portion: sized, assumedDefault: false)
        }
        if let serving, unit == nil || unit == .portion {
            if counted, unit == nil, let piece = best(portions, words: pieceWords), piece.gramsPerUnit < serving.gramsPerUnit {
                return Choice(grams: quantity * piece.gramsPerUnit, portion: piece, assumedDefault: false)
            }
            return Choice(grams: quantity * serving.gramsPerUnit, portion: serving, assumedDefault: false)
        }
        if let unit, let fixed = unit.fixedAmount {
            return Choice(grams: quantity * fixed, portion: nil, assumedDefault: false)
        }
        if let unit {
            if let portion = best(portions, words: unitWords[unit] ?? []) {
                return Choice(grams: quantity * portion.gramsPerUnit, portion: portion, assumedDefault: false)
            }
            // a spoon the food has no portion of, by the other: a tablespoon is three teaspoons
            // (a TL of honey is 7 g, a third of its 21 g EL, not 5 ml of water)
            if let (other, factor) = spoons[unit], let portion = best(portions, words: unitWords[other] ?? []) {
                return Choice(grams: quantity * portion.gramsPerUnit * factor, portion: nil, assumedDefault: false)
            }
            if let milliliters = unit.standardMilliliters {
                return Choice(grams: quantity * milliliters, portion: nil, assumedDefault: false)
            }
            if let grams = unit.smallMeasureGrams {
                return Choice(grams: quantity * grams, portion: nil, assumedDefault: false)
            }
        }
        let whole = best(portions, words: wholeItemWords)
        // named without a number, berries, cherries and nuts are a helping of them, not one of 12 g
        // ("Erdbeeren und Sprühsahne"); "eine Erdbeere" counts one
        if unit == nil, !counted, let piece = whole, piece.gramsPerUnit < 30,
            let helping = best(portions, words: ["serving"]), helping.gramsPerUnit > piece.gramsPerUnit
        {
            return Choice(grams: quantity * helping.gramsPerUnit, portion: helping, assumedDefault: false)
        }
        var choice =
            (whole ?? named(portions, like: foodName) ?? portions.first).map {
                Choice(grams: quantity * $0.gramsPerUnit, portion: $0, assumedDefault: false)
            } ?? Choice(grams: quantity * 100, portion: nil, assumedDefault: true)
        choice.unitIgnored = unit != nil
        return choice
    }

    /// A spoon measured by the other spoon's portion, and how many of that one it holds.
    static let spoons: [QuantityUnit: (QuantityUnit, Double)] = [.teaspoon: (.tablespoon, 1.0 / 3), .tablespoon: (.teaspoon, 3)]

    /// Words of a food's reference name that make it something one drinks.
    static let drinkWords: Set<String> = [
        "beverage", "beverages", "milk", "juice", "water", "wine", "beer", "coffee", "tea", "drink", "soda", "smoothie", "lemonade",
        "cola", "spirits", "liquor", "alcoholic", "buttermilk", "kefir", "nectar", "shake", "cocoa", "espresso", "cappuccino",
        "latte", "spritzer", "punch", "cider",
    ]

    /// Whether the food named so (its English reference name) is a drink.
    static func isDrink(_ foodName: String) -> Bool {
        SearchText.words(SearchText.fold(foodName)).contains(where: drinkWords.contains)
    }

    /// The portion whose English reference name holds the earliest of `words` (in their order of
    /// preference); among several, the one with the shortest name ("slice" before "slice, large").
    static func best(_ portions: [Portion], words: [String]) -> Portion? {
        for word in words {
            let candidates = portions.filter { SearchText.words(SearchText.fold($0.reference)).contains(word) }
            if let portion = candidates.min(by: {
                SearchText.words(SearchText.fold($0.reference)).count
                    < SearchText.words(SearchText.fold($1.reference)).count
            }) {
                return portion
            }
        }
        return nil
    }

    /// Size words a person types before a counted food ("2 große Eier", "a small apple", "una
    /// manzana pequeña"), folded, to the English size of the food's portions.
    static let sizeWords: [String: String] = {
        var table: [String: String] = [:]
        for (size, words) in [
            ("small", ["klein", "kleine", "kleiner", "kleines", "kleinen", "small", "pequeno", "pequena", "pequenos", "pequenas"]),
            (
                "medium",
                [
                    "mittel", "mittelgross", "mittelgrosse", "mittelgrosser", "mittelgrosses", "mittelgrossen", "medium", "mediano", "mediana",
                    "medianos", "medianas",
                ]
            ),
            ("large", ["gross", "grosse", "grosser", "grosses", "grossen", "large", "big", "grande", "grandes"]),
        ] {
            for word in words { table[word] = size }
        }
        return table
    }()

    /// The food's portion of the size typed among `words` (a preparation the parser set apart:
    /// "große", "very large" → extra large), nil when none was typed or the food has none.
    static func sized(_ portions: [Portion], words: [String]) -> Portion? {
        let folded = words.map(SearchText.fold)
        guard let index = folded.firstIndex(where: { sizeWords[$0] != nil }), var size = sizeWords[folded[index]] else { return nil }
        if size == "large", index > 0, ["sehr", "extra", "very", "muy"].contains(folded[index - 1]) { size = "extra large" }
        let sized = portions.filter { SearchText.fold($0.reference) == size || SearchText.fold($0.reference).hasPrefix(size + " ") }
        // "large" names the large portion, not "large, …" when both are there
        return sized.first { SearchText.fold($0.reference) == size } ?? sized.first
    }

    /// A portion named after the food itself: "avocado, …" for "Avocados, raw".
    static func named(_ portions: [Portion], like foodName: String) -> Portion? {
        guard let first = SearchText.words(SearchText.fold(foodName)).first, first.count >= 3 else { return nil }
        return portions.first { portion in
            SearchText.words(SearchText.fold(portion.reference)).first.map { first.hasPrefix($0) && $0.count >= 3 } ?? false
        }
    }
}
