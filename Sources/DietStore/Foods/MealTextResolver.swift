import DietCore
import FoodKit
import Foundation
import GRDB

/// A typed meal resolved against the food database, for the user to confirm.
public struct TextMeal: Hashable, Sendable {
    public struct Item: Hashable, Sendable {
        public let parsed: ParsedItem
        public let food: Food
        public let choice: PortionChooser.Choice
        public let nutrients: Nutrients
        /// Other foods the words name about as well as `food` (best first): then the match is
        /// unsure, and the person chooses ("which one?"); nothing is taken in silence.
        public var rivals: [Food] = []
        /// The words named only part of the food's name ("Kaffee schwarz" → Kaffee): unsure too.
        public var partly = false

        /// Whether the food is what the words mean: named by them, and no other food as well,
        /// in the unit typed (a unit the food has no measure of was not taken).
        public var isSure: Bool { rivals.isEmpty && !partly && !choice.unitIgnored }
    }

    public var items: [Item]
    /// Fragments that named no food: reported, never guessed.
    public let unparsed: [String]
    /// Items whose food was not found.
    public let unmatched: [ParsedItem]

    public var totals: Nutrients {
        items.map(\.nutrients).reduce(
            Nutrients(
                kcal: 0,
                proteinG: 0,
                carbsG: 0,
                totalCarbsG: 0,
                fiberG: 0,
                sugarsG: 0,
                fatG: 0,
                sodiumMg: 0
            )
        ) { sum, n in
            Nutrients(
                kcal: sum.kcal + n.kcal,
                proteinG: sum.proteinG + n.proteinG,
                carbsG: sum.carbsG + n.carbsG,
                totalCarbsG: sum.totalCarbsG + n.totalCarbsG,
                fiberG: sum.fiberG + n.fiberG,
                sugarsG: sum.sugarsG + n.sugarsG,
                fatG: sum.fatG + n.fatG,
                sodiumMg: sum.sodiumMg + n.sodiumMg
            )
        }
    }
}

extension AppDatabase {
    /// The folded curated names that hold a separator word ("arroz con leche", "mac and
    /// cheese"), which the meal parser keeps whole.
    public func mealTextDishes() throws -> Set<String> {
        if let known = FoodCatalog.dishCache.withLock({ $0 }) { return known }
        let dishes = try reader.read { db in try FoodCatalog.dishes(db) }
        FoodCatalog.dishCache.withLock { $0 = dishes }
        return dishes
    }

    /// Parses "2 eggs and a slice of toast", finds each food (the best search hit) and its
    /// grams, and totals them. Nothing is logged: the caller confirms first.
    public func resolveMealText(_ text: String, language: Language, timeZone: TimeZone) throws -> TextMeal {
        let parse = MealTextParser.parse(text, dishes: try mealTextDishes())
        let today = LocalDate(clock.now(), in: timeZone)
        return try reader.read { db in
            let finder = FoodFinder(db: db, language: language, today: today)
            var items: [TextMeal.Item] = []
            var unmatched: [ParsedItem] = []
            for parsed in parse.items {
                // a dish made of a counted food: "Rührei aus 2 Eiern" is two eggs' worth of scrambled
                // egg; where either is unknown, nothing is guessed (the count is the eggs', not the dish's)
                if parsed.madeOf != nil {
                    if let made = try finder.madeFrom(parsed) { items.append(made) } else { unmatched.append(parsed) }
                    continue
                }
                // "ein halbes Hähnchen" names a food with its amount: half a roast chicken, not half of one chicken breast
                if let named = try finder.namedWithAmount(parsed) {
                    items.append(TextMeal.Item(parsed: named.parsed, food: named.hit.food, after: items.last))
                    continue
                }
                let hit = try finder.withPreparation(parsed) ?? finder.best(parsed.food)
                let quality = hit.map { FoodFinder.quality($0, query: parsed.food) } ?? .other
                // a dish named after what it is made of: "3 Eier Rührei" is scrambled egg of three eggs
                if quality == .partial || quality == .other, let made = try finder.madeOf(parsed) {
                    items.append(made)
                } else if quality == .partial || quality == .other, let pair = try finder.pair(parsed) {
                    // two foods typed side by side ("Currywurst Pommes"), when the words name no food together
                    items += pair.map { TextMeal.Item(parsed: $0.0, food: $0.1.food, after: items.last) }
                } else if let hit, quality != .other, let measured = FoodFinder.measuredByName(parsed, food: hit.food, language: language) {
                    // "eine Reihe Schokolade": a measure of the food only it has, named before it
                    items.append(measured)
                } else if let hit, quality != .other {
                    var item = TextMeal.Item(parsed: parsed, food: hit.food, after: items.last)
                    if let served = try finder.served(hit.food, as: parsed) { item = item.served(served.food, yield: served.yield) }
                    item.rivals = try finder.rivals(of: hit, query: parsed.food)
                    item.partly = quality == .partial
                    items.append(item)
                } else {
                    unmatched.append(parsed)
                }
            }
            return TextMeal(items: items, unparsed: parse.unparsed, unmatched: unmatched)
        }
    }
}

/// Finds the food a typed name means.
struct FoodFinder {
    let db: Database
    let language: Language
    let today: LocalDate

    enum Quality: Int, Comparable {
        case exact, good, partial, other

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// How well the hit's matched name answers the query: exactly; with every typed word (or a
    /// form of it: one slip, or up to two letters of ending more or less, "Kartoffel" for "Kartoffeln"); as a
    /// part of what was typed ("Kaffee" for "Kaffee schwarz"); or otherwise: a name that merely
    /// starts like a typed word is no match for a whole word ("caña" is no Canadian bacon).
    static func quality(_ hit: FoodHit, query: String) -> Quality {
        let typed = SearchText.fold(query)
        if hit.matched == typed { return .exact }
        let typedWords = SearchText.words(typed)
        let words = SearchText.words(hit.matched)
        // an ending more or less only within one language: "Kartoffel" finds "Kartoffeln", but
        // the German "Beeren" is no English "beer"
        let sameLanguage = hit.rank.name.source == .userLanguage
        let formOf = { (name: String, word: String) in
            name == word || Typo.withinOneEdit(name, word)
                || sameLanguage && (name.hasPrefix(word) || word.hasPrefix(name)) && abs(name.count - word.count) <= 2
        }
        if typedWords.allSatisfy({ word in words.contains { formOf($0, word) } }) { return .good }
        // a part of what was typed, unless the rest holds a number the parser could not read
        // ("1e309 g Reis", "2 to 1 EL Zucker"): that is an amount gone astray, not a description
        let rest = typedWords.filter { !words.contains($0) }
        return !words.isEmpty && words.allSatisfy(typedWords.contains) && !rest.contains(where: hasDigit) ? .partial : .other
    }

    static func hasDigit(_ word: String) -> Bool { word.contains(where: \.isNumber) }

    /// The best hit for `name`: the name itself, else its singular ("Brezeln"), else the longest
    /// run of its words that names a food ("extra virgin olive oil" → olive oil, "aceite de
    /// oliva virgen extra" → aceite de oliva).
    func best(_ name: String) throws -> FoodHit? {
        if let hit = try good(name) { return hit }
        let direct = try FoodCatalog.search(db, text: name, language: language, today: today, limit: 1).first
        if let direct, Self.quality(direct, query: name) == .partial { return direct }
        let words = name.split(separator: " ").map(String.init)
        guard words.count > 1 else { return direct }
        for length in stride(from: words.count - 1, through: 1, by: -1) {
            for start in [words.count - length, 0] {
                let run = words[start..<start + length].joined(separator: " ")
                let dropped = words[..<start] + words[(start + length)...]
                guard SearchText.fold(run).count >= 3, !dropped.contains(where: Self.hasDigit), let hit = try good(run) else { continue }
                return hit
            }
        }
        return direct
    }

    /// A hit that names `name` exactly or well, directly or by its singular.
    private func good(_ name: String) throws -> FoodHit? {
        for query in [name] + [Self.singular(name)].compactMap({ $0 }) {
            if let hit = try FoodCatalog.search(db, text: query, language: language, today: today, limit: 1).first,
                [.exact, .good].contains(Self.quality(hit, query: query))
            {
                return hit
            }
        }
        return nil
    }

    /// A food named by the words of its amount and itself ("halbes Hähnchen", "media ración"):
    /// where a fraction word without a unit and the food's words are, together, exactly a food's
    /// name, that food once.
    func namedWithAmount(_ parsed: ParsedItem) throws -> (parsed: ParsedItem, hit: FoodHit)? {
        guard parsed.unit == nil, parsed.quantityGiven, parsed.quantity < 1, parsed.preparation.isEmpty else { return nil }
        let words = SearchText.words(SearchText.fold(parsed.text)).drop { Self.articles.contains($0) }
        guard words.count >= 2, let first = words.first, !first.contains(where: \.isNumber) else { return nil }
        let name = words.joined(separator: " ")
        guard let hit = try FoodCatalog.search(db, text: name, language: language, today: today, limit: 1).first,
            Self.quality(hit, query: name) == .exact
        else { return nil }
        let whole = ParsedItem(text: parsed.text, quantity: 1, quantityGiven: false, unit: nil, food: name, range: parsed.range)
        return (whole, hit)
    }

    /// The item where a typed word names one of the food's own measures ("eine Reihe
    /// Schokolade", which reads as a piece; "2 Filets Matjes"); nil where a unit of its own was
    /// typed (grams, a glass) or no word is a measure of the food.
    static func measuredByName(_ parsed: ParsedItem, food: Food, language: Language) -> TextMeal.Item? {
        guard parsed.unit == nil || parsed.unit == .piece else { return nil }
        let nameWords = Set(SearchText.words(SearchText.fold(food.name)))
        let named = SearchText.words(SearchText.fold(parsed.text)).lazy.filter { !nameWords.contains($0) && !$0.contains(where: \.isNumber) }
            .compactMap { word in SearchText.singularForms(word, language: language, finished: true).lazy.compactMap(food.unit(named:)).first }
            .first
        guard let unit = named, let portion = food.householdPortion(unit) else { return nil }
        let grams = parsed.quantity * portion.gramsPerUnit
        return TextMeal.Item(
            parsed: parsed,
            food: food,
            choice: PortionChooser.Choice(
                grams: grams,
                portion: Portion(
                    amount: 1,
                    name: portion.name,
                    grams: portion.gramsPerUnit,
                    reference: portion.reference,
                    pluralName: portion.pluralName
                )
            ),
            nutrients: food.per100g.scaled(toGrams: grams)
        )
    }

    static let articles: Set<String> = ["ein", "eine", "einen", "einem", "einer", "a", "an", "un", "una", "uno"]

    /// A food whose name holds its preparation ("carne picada" is minced meat, "queso rallado"
    /// grated cheese), when the words typed together name one exactly.
    func withPreparation(_ parsed: ParsedItem) throws -> FoodHit? {
        guard !parsed.preparation.isEmpty else { return nil }
        let described = parsed.preparation.joined(separator: " ")
        for name in [parsed.food + " " + described, described + " " + parsed.food] {
            if let hit = try FoodCatalog.search(db, text: name, language: language, today: today, limit: 1).first,
                Self.quality(hit, query: name) == .exact
            {
                return hit
            }
        }
        return nil
    }

    /// "Currywurst Pommes" → Currywurst and Pommes, when both parts are names of foods exactly;
    /// the typed amount goes to the first.
    func pair(_ parsed: ParsedItem) throws -> [(ParsedItem, FoodHit)]? {
        let words = parsed.food.split(separator: " ").map(String.init)
        guard (2...4).contains(words.count) else { return nil }
        for cut in 1..<words.count {
            let first = words[..<cut].joined(separator: " ")
            let second = words[cut...].joined(separator: " ")
            guard let a = try best(first), Self.quality(a, query: first) == .exact, let b = try best(second),
                Self.quality(b, query: second) == .exact
            else { continue }
            let head = ParsedItem(
                text: parsed.text,
                quantity: parsed.quantity,
                quantityGiven: parsed.quantityGiven,
                unit: parsed.unit,
                food: first,
                range: parsed.range,
                preparation: parsed.preparation
            )
            let tail = ParsedItem(text: parsed.text, quantity: 1, quantityGiven: false, unit: nil, food: second)
            return [(head, a), (tail, b)]
        }
        return nil
    }

    /// The other foods among the best hits of `query` that its words name as well as `hit`'s:
    /// by the same name ("Milch" names one food; "Hähnchen" might name breast and thigh alike).
    func rivals(of hit: FoodHit, query: String) throws -> [Food] {
        let chosen = Self.quality(hit, query: query)
        // named as closely: "Canned tomatoes" is a kind of "Tomato", no rival of it
        let level = { (other: FoodHit) in (other.rank.name.source == .usda ? 1 : 0, other.rank.name.match.level) }
        return try FoodCatalog.search(db, text: query, language: language, today: today, limit: 4)
            .filter { other in
                other.food.id != hit.food.id && Self.quality(other, query: query) <= chosen && level(other) <= level(hit)
            }
            .prefix(3).map(\.food)
    }

    /// "3 Eier Rührei": a count of one food, then a dish whose name ends with that food's name
    /// (a compound made of it): one item, the dish, as much of it as the counted food weighs
    /// (three eggs' worth of scrambled egg), never both.
    func madeOf(_ parsed: ParsedItem) throws -> TextMeal.Item? {
        let words = parsed.food.split(separator: " ").map(String.init)
        guard words.count == 2, let ingredient = try best(words[0]), Self.quality(ingredient, query: words[0]) == .exact,
            let dish = try best(words[1]), Self.quality(dish, query: words[1]) == .exact, dish.food.id != ingredient.food.id
        else { return nil }
        let dishName = SearchText.fold(words[1])
        let names =
            [SearchText.fold(ingredient.food.name), SearchText.fold(words[0])] + [Self.singular(words[0]).map(SearchText.fold)].compactMap { $0 }
        guard names.contains(where: { $0.count >= 2 && dishName.count > $0.count && dishName.hasSuffix($0) }) else { return nil }
        let choice = PortionChooser.grams(
            quantity: parsed.quantity,
            unit: parsed.unit,
            portions: ingredient.food.portions,
            foodName: ingredient.food.usdaName,
            serving: ingredient.food.serving
        )
        let item = ParsedItem(
            text: parsed.text,
            quantity: parsed.quantity,
            quantityGiven: parsed.quantityGiven,
            unit: parsed.unit,
            food: words[1],
            range: parsed.range,
            preparation: parsed.preparation
        )
        return TextMeal.Item(
            parsed: item,
            food: dish.food,
            choice: PortionChooser.Choice(grams: choice.grams, portion: nil),
            nutrients: dish.food.per100g.scaled(toGrams: choice.grams)
        )
    }

    /// "Omelett aus 3 Eiern" (the parser's `madeOf`): one item, the dish, as much of it as the
    /// counted food weighs; nil unless both name foods well.
    func madeFrom(_ parsed: ParsedItem) throws -> TextMeal.Item? {
        guard let counted = parsed.madeOf, let ingredient = try best(counted), Self.quality(ingredient, query: counted) <= .good,
            let dish = try best(parsed.food), Self.quality(dish, query: parsed.food) <= .good, dish.food.id != ingredient.food.id
        else { return nil }
        let grams = PortionChooser.grams(
            quantity: parsed.quantity,
            unit: parsed.unit,
            portions: ingredient.food.portions,
            foodName: ingredient.food.usdaName,
            serving: ingredient.food.serving,
            counted: true
        ).grams
        return TextMeal.Item(
            parsed: parsed,
            food: dish.food,
            choice: PortionChooser.Choice(grams: grams, portion: nil),
            nutrients: dish.food.per100g.scaled(toGrams: grams)
        )
    }

    /// The food as it comes on a plate where the words name a raw food people eat cooked
    /// ("Hähnchenbrust mit Reis und Brokkoli": fried chicken breast, boiled broccoli), with the
    /// cooked grams per raw gram; nil for a food eaten as it is, or where the words say raw.
    func served(_ food: Food, as parsed: ParsedItem) throws -> (food: Food, yield: Double)? {
        let words = SearchText.words(SearchText.fold(([parsed.food] + parsed.preparation).joined(separator: " ")))
        // "roh", "rohe", "rohen" … are one word: the endings SearchText takes off
        let raw = words.contains { word in SearchText.singularForms(word, language: language, finished: true).contains(where: Self.rawWords.contains)
        }
        guard let id = Int(food.id), !raw,
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT served_id, yield FROM foods.served_forms WHERE food_id = ?"),
                arguments: [id]
            ),
            let served = try FoodCatalog.foods(db, ids: [row[0]], language: language)[row[0]]
        else { return nil }
        return (served, row[1])
    }

    static let rawWords: Set<String> = ["roh", "raw", "crudo", "cruda"]

    /// "Brezeln" → "Brezel", "eggs" → "egg", "huevos" → "huevo": a second try for plurals.
    static func singular(_ food: String) -> String? {
        for suffix in ["es", "en", "n", "s"] where food.count > suffix.count + 2 && food.lowercased().hasSuffix(suffix) {
            return String(food.dropLast(suffix.count))
        }
        return nil
    }
}

extension TextMeal.Item {
    /// The item of `food` for what was typed (the food found, or another the person chose):
    /// its grams from the typed amount. Milk or sugar typed without an amount "with" a coffee
    /// or tea is a dash or a teaspoon, not a glass or a cup.
    public init(parsed: ParsedItem, food: Food, after previous: TextMeal.Item?) {
        var unit = parsed.unit
        if parsed.withPrevious, !parsed.quantityGiven, let drink = previous?.food.usdaName.lowercased(),
            ["coffee", "tea", "espresso"].contains(where: { drink.hasPrefix($0) || drink.hasPrefix("beverages, \($0)") })
        {
            let name = food.usdaName.lowercased()
            if ["milk", "cream", "soymilk", "beverages, almond", "beverages, oat", "beverages, rice"].contains(where: name.hasPrefix) {
                unit = .dash
            } else if ["sugar", "honey", "sweetener", "syrup"].contains(where: name.hasPrefix) {
                unit = .teaspoon
            }
        }
        // "juice of 2 lemons" counts lemons: the measure of what one fruit gives, never a serving
        let portions = parsed.countsWholeFoods ? food.portions.filter { $0.reference != "serving" } : food.portions
        let choice = PortionChooser.grams(
            quantity: parsed.quantity,
            unit: unit,
            portions: portions,
            foodName: food.usdaName,
            serving: parsed.countsWholeFoods ? nil : food.serving,
            counted: parsed.quantityGiven,
            described: parsed.preparation
        )
        self.init(parsed: parsed, food: food, choice: choice, nutrients: food.per100g.scaled(toGrams: choice.grams))
    }
}

extension TextMeal.Item {
    /// This item as `food`, the cooked form of its raw food: a typed weight is what is on the
    /// plate; a counted piece or serving weighs `yield` times its raw weight ("eine Hähnchenbrust"
    /// of 170 g raw is 126 g fried, with the same protein).
    func served(_ food: Food, yield: Double) -> TextMeal.Item {
        let grams = parsed.unit?.fixedAmount != nil ? choice.grams : choice.grams * yield
        var item = TextMeal.Item(
            parsed: parsed,
            food: food,
            choice: PortionChooser.Choice(grams: grams, portion: nil),
            nutrients: food.per100g.scaled(toGrams: grams)
        )
        item.rivals = rivals
        item.partly = partly
        return item
    }
}

extension FoodCatalog {
    /// The bundled catalog never changes while the app runs: its dish names are read once.
    static let dishCache = Locked<Set<String>?>(nil)

    /// Names of curated foods (every language) holding a word the meal parser splits on, folded.
    /// A food only a source names ("Laugenbrötchen mit Butter", "Bratwurst mit Senf" of BLS) keeps
    /// no two foods together: they are two items, each with its own amount, as "Brot mit Butter" is.
    static func dishes(_ db: Database) throws -> Set<String> {
        let names = try String.fetchAll(
            db,
            sql: """
                SELECT n.name FROM foods.names n JOIN foods.foods f ON f.id = n.food_id
                WHERE n.language != 'usda' AND f.common = 1
                """
        )
        return Set(
            names.map(SearchText.fold).filter { name in
                SearchText.words(name).count > 2 && SearchText.words(name).contains { MealTextParser.separators.contains($0) }
            }
        )
    }
}
