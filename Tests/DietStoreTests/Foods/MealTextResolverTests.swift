import DietCore
import FoodKit
import Foundation
import TestSupport
import Testing

@testable import DietStore

@Suite("Typed meals resolved to foods")
struct MealTextResolverTests {
    let store: AppDatabase

    init() throws {
        store = try AppDatabase.inMemory(clock: FixedClock.at(.ymd(2026, 3, 2), 8, in: Zones.berlin))
    }

    @Test("3 Eier Rührei is scrambled egg of three eggs, not three eggs and a scrambled egg on top (issue 29, finding 2)")
    func madeOf() throws {
        let meal = try store.resolveMealText("3 Eier Rührei", language: .de, timeZone: Zones.berlin)
        #expect(meal.items.map(\.food.id) == ["1132"], "\(meal.items.map(\.food.name))")
        // three eggs of the EU grade M without the shell: 3 × 51 g
        #expect(meal.items.first?.choice.grams == 153)
        // two foods side by side still are two ("Schnitzel Pommes"), where no food is named by both words
        #expect(try store.resolveMealText("Schnitzel Pommes", language: .de, timeZone: Zones.berlin).items.count == 2)
        // "Currywurst Pommes" is BLS's Currywurst mit Pommes frites, one portion of 400 g
        let currywurst = try store.resolveMealText("Currywurst Pommes", language: .de, timeZone: Zones.berlin).items
        #expect(currywurst.count == 1 && currywurst.first?.choice.grams == 400, "\(currywurst.map(\.food.name))")
    }

    @Test(
        "a number before a food counts its pieces where a piece is lighter than a serving: 3 Butterkekse are 3 biscuits, Butterkekse alone a serving"
    )
    func countedPieces() throws {
        let three = try #require(try store.resolveMealText("3 Butterkekse", language: .de, timeZone: Zones.berlin).items.first)
        let biscuit = try #require(three.food.portions.first { $0.reference == "cookie" })
        #expect(three.choice.grams == 3 * biscuit.gramsPerUnit, "\(three.choice)")
        let plain = try #require(try store.resolveMealText("Butterkekse", language: .de, timeZone: Zones.berlin).items.first)
        #expect(plain.choice.grams == plain.food.serving?.gramsPerUnit && plain.choice.grams > biscuit.gramsPerUnit)
        // a food whose serving is one piece is counted by servings: two Döner are two
        let doner = try #require(try store.resolveMealText("2 Döner", language: .de, timeZone: Zones.berlin).items.first)
        #expect(doner.choice.grams == 2 * (doner.food.serving?.gramsPerUnit ?? 0) && doner.choice.grams >= 600)
    }

    @Test("German drink and ice cream measures: a Dose Cola is the 0.33 l can, a Maß Bier a litre, a Kugel Eis one scoop")
    func germanMeasures() throws {
        let cola = try #require(try store.resolveMealText("eine Dose Cola", language: .de, timeZone: Zones.berlin).items.first)
        #expect(cola.choice.grams == 330 && cola.choice.portion?.name == "Dose (0,33 l)", "\(cola.choice)")
        let beer = try #require(try store.resolveMealText("eine Maß Bier", language: .de, timeZone: Zones.berlin).items.first)
        #expect(beer.choice.grams == 1000, "\(beer.choice)")
        let ice = try store.resolveMealText("eine Kugel Schokoeis", language: .de, timeZone: Zones.berlin)
        #expect(
            ice.items.count == 1 && ice.unmatched.isEmpty && (40...100).contains(ice.items.first?.choice.grams ?? 0),
            "\(ice.items.map(\.choice))"
        )
    }

    @Test("a dish made from a counted food is that much of the dish: Rührei aus 2 Eiern, Omelett aus 3 Eiern; Döner mit allem is a Döner")
    func madeFromCounted() throws {
        let egg = try #require(try store.food(id: "1123", language: .de))
        let eggGrams = PortionChooser.grams(quantity: 1, unit: nil, portions: egg.portions, foodName: egg.usdaName, serving: egg.serving).grams
        for (text, count) in [("Rührei aus 2 Eiern", 2.0), ("Omelett aus 3 Eiern", 3.0)] {
            let meal = try store.resolveMealText(text, language: .de, timeZone: Zones.berlin)
            #expect(meal.items.count == 1 && meal.unmatched.isEmpty, "\(text): \(meal.items.map(\.food.name))")
            #expect(meal.items.first?.choice.grams == count * eggGrams, "\(text)")
            #expect(meal.items.first.map { SearchText.fold($0.food.name).hasPrefix(SearchText.fold(String(text.prefix(4)))) } == true, "\(text)")
        }
        let english = try store.resolveMealText("omelette from 3 eggs", language: .en, timeZone: Zones.berlin)
        #expect(english.items.count == 1 && english.items.first?.choice.grams == 3 * eggGrams, "\(english.items.map(\.food.name))")
        // a number after "de" that is no count of a food stays what it was: "200 g de arroz"
        #expect(try store.resolveMealText("200 g de arroz", language: .es, timeZone: Zones.berlin).items.first?.choice.grams == 200)
        let doner = try store.resolveMealText("Döner mit allem", language: .de, timeZone: Zones.berlin)
        #expect(doner.items.count == 1 && doner.unmatched.isEmpty, "\(doner.unmatched)")
    }

    @Test("German measures in a meal: a Tafel of chocolate is 100 g, eine Halbe half a litre of beer, a Stück without a number one piece")
    func germanSaleAndBeerMeasures() throws {
        let chocolate = try store.resolveMealText("eine Tafel Schokolade", language: .de, timeZone: Zones.berlin)
        #expect(chocolate.items.map(\.choice.grams) == [100], "\(chocolate.items.map(\.food.name))")
        let beer = try store.resolveMealText("eine Halbe Helles", language: .de, timeZone: Zones.berlin)
        #expect(beer.items.map(\.choice.grams) == [500], "\(beer.items.map(\.food.name))")
        // a Tüte is the food's bag as sold, not a serving
        let gummies = try #require(try store.resolveMealText("eine Tüte Gummibärchen", language: .de, timeZone: Zones.berlin).items.first)
        let bag = try #require(gummies.food.portions.first { $0.reference == "bag" })
        #expect(gummies.choice.grams == bag.gramsPerUnit && bag.gramsPerUnit >= 150, "\(gummies.choice)")
        let cake = try store.resolveMealText("Stück Schwarzwälder Kirschtorte", language: .de, timeZone: Zones.berlin)
        #expect(cake.items.count == 1 && cake.unmatched.isEmpty && cake.unparsed.isEmpty, "\(cake.unmatched) \(cake.unparsed)")
    }

    @Test("a size typed before a counted food is its portion of that size: 2 große Eier are two of grade L, not M")
    func sizes() throws {
        let egg = try #require(try store.food(id: "1123", language: .de))
        let grams = { (size: String) in egg.portions.first { $0.reference == size }?.gramsPerUnit ?? 0 }
        for (text, language, expected) in [
            ("2 große Eier", Language.de, 2 * grams("large")), ("3 kleine Eier", .de, 3 * grams("small")),
            ("2 sehr große Eier", .de, 2 * grams("extra large")), ("a large egg", .en, grams("large")),
            ("2 huevos pequeños", .es, 2 * grams("small")), ("2 Eier", .de, 2 * grams("medium")),
        ] {
            let meal = try store.resolveMealText(text, language: language, timeZone: Zones.berlin)
            #expect(meal.items.map(\.choice.grams) == [expected] && expected > 0, "\(text): \(meal.items.map(\.choice))")
        }
    }

    @Test("Apfel finds apples, not potatoes by their Austrian alias Erdäpfel (issue 29, finding 2)")
    func appleIsNoPotato() throws {
        let hits = try store.searchFoods("Apfel", language: .de, timeZone: Zones.berlin, limit: 8).map(\.food.id)
        #expect(hits.first == "9003")
        #expect(!hits.prefix(5).contains("11367"), "\(hits)")
        #expect(try store.searchFoods("Erdäpfel", language: .de, timeZone: Zones.berlin).first?.food.id == "11367")
    }

    @Test("2 eggs and a slice of toast")
    func eggsAndToast() throws {
        let meal = try store.resolveMealText("2 eggs and a slice of toast", language: .en, timeZone: Zones.berlin)
        #expect(meal.items.map(\.food.id) == ["1123", "18070"])
        // 2 eggs of the EU grade M (51 g without the shell) and a slice of toast of 22 g, at the
        // foods' values per 100 g
        #expect(meal.items.map(\.choice.grams) == [102, 22])
        let egg = try #require(try store.food(id: "1123", language: .en)).per100g.kcal
        let toast = try #require(try store.food(id: "18070", language: .en)).per100g.kcal
        #expect(abs(meal.totals.kcal - (1.02 * egg + 0.22 * toast)) < 1e-9)
        #expect(meal.unparsed.isEmpty && meal.unmatched.isEmpty)
    }

    /// A meal in words names food as it comes on the plate: raw chicken breast and raw broccoli
    /// were logged for "Hähnchenbrust mit Reis und Brokkoli" (the rice was already cooked).
    @Test("a raw food people eat cooked is its cooked form in a meal; typed grams stay, a counted piece keeps its protein")
    func servedCooked() throws {
        let plate = try store.resolveMealText("Hähnchenbrust mit Reis und Brokkoli", language: .de, timeZone: Zones.berlin)
        // 5064 Hähnchenbrust gebraten, 20045 rice (cooked), 11091 Brokkoli gekocht
        #expect(plate.items.map(\.food.id) == ["5064", "20045", "11091"], "\(plate.items.map(\.food.name))")
        let sure = plate.items.allSatisfy { $0.isSure }
        #expect(sure)
        let raw = try #require(try store.food(id: "5062", language: .de))
        let fried = try #require(try store.food(id: "5064", language: .de))
        // the serving of 150 g raw is 150 × yield fried, the protein the same
        let serving = try #require(plate.items.first)
        #expect(abs(serving.nutrients.proteinG - raw.per100g.proteinG * 1.5) < 0.5)
        #expect(abs(serving.choice.grams - 150 * raw.per100g.proteinG / fried.per100g.proteinG) < 0.01)
        // weighed: the grams typed are the grams on the plate
        let weighed = try store.resolveMealText("150 g Hähnchenbrust", language: .de, timeZone: Zones.berlin)
        #expect(weighed.items.first?.food.id == "5064" && weighed.items.first?.choice.grams == 150)
        // said to be raw, or a food eaten raw: as typed
        let said = try store.resolveMealText("200 g Hähnchenbrust roh", language: .de, timeZone: Zones.berlin)
        #expect(said.items.first?.food.id == "5062")
        let tatar = try store.resolveMealText("Tatar", language: .de, timeZone: Zones.berlin)
        #expect(tatar.items.first?.food.id == "23557")
    }

    /// "großer Latte macchiato" was the usual 0.3 l glass: the drink had no large size.
    @Test("a large coffee-bar drink is its large size: 0.45 l of latte macchiato, 0.3 l of cappuccino")
    func largeCoffee() throws {
        let large = try store.resolveMealText("ein großer Latte macchiato", language: .de, timeZone: Zones.berlin)
        #expect(large.items.first?.choice.grams == 463.5 && large.items.first?.choice.portion?.name == "großes Glas")
        let usual = try store.resolveMealText("ein Latte macchiato", language: .de, timeZone: Zones.berlin)
        #expect(usual.items.first?.choice.grams == 309)
        let cappuccino = try store.resolveMealText("ein großer Cappuccino", language: .de, timeZone: Zones.berlin)
        #expect(cappuccino.items.first?.choice.grams == 309)
    }

    /// "ein halbes Hähnchen" was half of one chicken breast (76 kcal).
    @Test("a food named with its amount is that food once: ein halbes Hähnchen is half a Grillhähnchen; eine halbe Banane half a banana")
    func namedWithAmount() throws {
        let chicken = try store.resolveMealText("ein halbes Hähnchen", language: .de, timeZone: Zones.berlin)
        #expect(
            chicken.items.first?.food.id == "5009" && chicken.items.first?.choice.grams == 350,
            "\(chicken.items.map { ($0.food.name, $0.choice.grams) })"
        )
        let banana = try store.resolveMealText("eine halbe Banane", language: .de, timeZone: Zones.berlin)
        #expect(banana.items.first?.food.id == "9040" && banana.items.first?.parsed.quantity == 0.5)
    }

    /// "eine Reihe Schokolade" was the 40 g portion: the Reihe, a measure only chocolate has, was
    /// taken for a word of its name.
    @Test("a measure of the food named before it counts it: eine Reihe Schokolade is one row, 17 g; zwei Reihen two")
    func measureByName() throws {
        let row = try store.resolveMealText("eine Reihe Schokolade", language: .de, timeZone: Zones.berlin)
        #expect(row.items.first?.food.id == "19120" && row.items.first?.choice.grams == 17 && row.items.first?.isSure == true)
        let rows = try store.resolveMealText("2 Reihen Zartbitterschokolade", language: .de, timeZone: Zones.berlin)
        #expect(rows.items.first?.food.id == "19904" && rows.items.first?.choice.grams == 34, "\(rows.items.map { ($0.food.name, $0.choice.grams) })")
    }

    @Test("Haferflocken 60g mit Milch, zwei Brezeln, un plátano")
    func threeLanguages() throws {
        let german = try store.resolveMealText("Haferflocken 60g mit Milch", language: .de, timeZone: Zones.berlin)
        #expect(german.items.map(\.food.id) == ["8120", "1077"])
        // milk named without an amount is its serving, a glass of 200 ml (206 g at 1.03 g/ml)
        #expect(german.items.map(\.choice.grams) == [60, 206])
        let pretzels = try store.resolveMealText("zwei Brezeln", language: .de, timeZone: Zones.berlin)
        // a German Brezel of 85 g (data/portions-de.tsv), not USDA's 115 g soft pretzel
        #expect(pretzels.items.first?.food.id == "43109" && pretzels.items.first?.choice.grams == 170)
        let banana = try store.resolveMealText("un plátano", language: .es, timeZone: Zones.berlin)
        #expect(banana.items.first?.food.id == "9040" && banana.items.first?.choice.grams == 118)
    }

    /// BLS names "Laugenbrötchen mit Butter" and "Bratwurst mit Senf" as foods of their own, and
    /// their names kept the words together: one item each, where "2 Scheiben Brot mit Butter" was
    /// two, and no way to say how much butter.
    @Test("two foods a source names together are two items, each with its own amount: Bratwurst mit Senf, Laugenbrötchen mit Butter")
    func sourceNamedPairs() throws {
        let bratwurst = try store.resolveMealText("Bratwurst mit Senf", language: .de, timeZone: Zones.berlin)
        // a German Bratwurst of 120 g and a tablespoon of mustard
        #expect(bratwurst.items.map(\.food.id) == ["7013", "2046"], "\(bratwurst.items.map(\.food.name))")
        #expect(bratwurst.items.map(\.choice.grams) == [120, 15])
        let roll = try store.resolveMealText("ein Laugenbrötchen mit Butter", language: .de, timeZone: Zones.berlin)
        #expect(roll.items.count == 2 && roll.items.last?.food.id == "1001", "\(roll.items.map(\.food.name))")
        // a curated dish keeps its words together: "Gyrosteller mit Pommes" is one plate
        #expect(try store.resolveMealText("Gyrosteller mit Pommes", language: .de, timeZone: Zones.berlin).items.count == 1)
    }

    /// USDA's firm, extra firm and plain tofu all take BLS's Tofu, and each carried its name: "Tofu"
    /// asked which of three foods no one can tell apart. "Pommes" named oven and fried fries.
    /// (Tofu in a meal is fried tofu, as it comes on the plate.)
    @Test("a word that names one thing names one food, surely: Tofu, Pommes, Schwarzbrot")
    func oneFoodPerName() throws {
        for (text, id) in [("Tofu", "401305082"), ("Pommes", "21138"), ("Schwarzbrot", "314329000")] {
            let meal = try store.resolveMealText(text, language: .de, timeZone: Zones.berlin)
            #expect(meal.items.map(\.food.id) == [id], "\(text): \(meal.items.map(\.food.name))")
            #expect(meal.items.first?.isSure == true, "\(text): \(meal.items.first?.rivals.map(\.name) ?? [])")
        }
    }

    @Test("German sizes of what a plate holds: a plate of soup, 5 Fischstäbchen, a can of tuna, Maultaschen, Leberkäse")
    func germanPlates() throws {
        let grams = { (text: String) in
            try self.store.resolveMealText(text, language: .de, timeZone: Zones.berlin).items.map(\.choice.grams)
        }
        #expect(try grams("Hühnersuppe") == [300])
        #expect(try grams("5 Fischstäbchen") == [150])
        #expect(try grams("eine Dose Thunfisch") == [150])
        #expect(try grams("2 Maultaschen") == [160])
        #expect(try grams("Leberkäse") == [150])
        // a dish without its side: the rice of "Hühnerfrikassee mit Reis" is an item of its own
        let fricassee = try store.resolveMealText("Hühnerfrikassee mit Reis", language: .de, timeZone: Zones.berlin)
        #expect(fricassee.items.count == 2 && fricassee.items.first?.choice.grams == 300)
    }

    @Test("an unknown food is reported, not guessed")
    func unknown() throws {
        let meal = try store.resolveMealText("2 eggs and 3 zorblaxes", language: .en, timeZone: Zones.berlin)
        #expect(meal.items.map(\.food.id) == ["1123"])
        #expect(meal.unmatched.map(\.food) == ["zorblaxes"])
    }
}
