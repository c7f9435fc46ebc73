import FoodKit
import Foundation
import Testing

@Suite("Portions")
struct PortionChooserTests {
    let egg = [
        Portion(amount: 1, name: "cup (4.86 large eggs)", grams: 243), Portion(amount: 1, name: "large", grams: 50),
        Portion(amount: 1, name: "medium", grams: 44),
    ]
    let toast = [
        Portion(amount: 1, name: "oz", grams: 28.35), Portion(amount: 1, name: "slice, large", grams: 27),
        Portion(amount: 1, name: "slice", grams: 22),
    ]
    let oats = [Portion(amount: 1, name: "cup", grams: 81), Portion(amount: 0.333, name: "cup", grams: 27)]
    let avocado = [
        Portion(amount: 1, name: "cup, cubes", grams: 150), Portion(amount: 1, name: "avocado, NS as to Florida or California", grams: 201),
    ]

    @Test("grams, kilograms, millilitres and ounces convert directly")
    func fixed() {
        #expect(PortionChooser.grams(quantity: 200, unit: .gram, portions: egg).grams == 200)
        #expect(PortionChooser.grams(quantity: 1.5, unit: .kilogram, portions: []).grams == 1500)
        #expect(PortionChooser.grams(quantity: 250, unit: .milliliter, portions: []).grams == 250)
    }

    @Test("a count uses the food's medium, then large portion")
    func count() {
        let choice = PortionChooser.grams(quantity: 2, unit: nil, portions: egg)
        #expect(choice.grams == 88 && choice.portion?.name == "medium" && !choice.assumedDefault)
    }

    /// "Erdbeeren und Sprühsahne" logged one strawberry of 12 g: a food named without a number
    /// took its whole item, however small.
    @Test("named without a number, berries are a helping; counted, they are pieces")
    func berries() {
        let strawberries = [
            Portion(amount: 1, name: "cup, whole", grams: 144), Portion(amount: 1, name: "medium", grams: 12),
            Portion(amount: 1, name: "serving", grams: 147),
        ]
        #expect(PortionChooser.grams(quantity: 1, unit: nil, portions: strawberries).grams == 147)
        #expect(PortionChooser.grams(quantity: 5, unit: nil, portions: strawberries, counted: true).grams == 60)
        // an egg or an apple named alone is still one of them
        #expect(PortionChooser.grams(quantity: 1, unit: nil, portions: egg).grams == 44)
    }

    @Test("a household unit uses the food's portion of that name, the plainest one first")
    func household() {
        #expect(PortionChooser.grams(quantity: 1, unit: .slice, portions: toast).grams == 22)
        #expect(PortionChooser.grams(quantity: 0.5, unit: .cup, portions: oats).grams == 40.5)
    }

    @Test("a kitchen measure without a matching portion uses its standard volume")
    func standardVolume() {
        #expect(PortionChooser.grams(quantity: 2, unit: .tablespoon, portions: egg).grams == 30)
    }

    /// Found in German meals: "Tee mit einem TL Honig" was 5 ml of water's weight of honey (the
    /// food has only an EL of 21 g), "ein Glas Sekt" a 200 ml glass beside the food's 100 ml
    /// Sektglas, "zwei Kartoffelknödel" two 180 g servings beside the 90 g Knödel.
    @Test("a spoon by the other spoon, a glass by the food's glass or flute, a dumpling counted as a piece")
    func germanMeasures() {
        let honey = [Portion(amount: 1, name: "tbsp", grams: 21), Portion(amount: 1, name: "serving", grams: 20)]
        #expect(PortionChooser.grams(quantity: 1, unit: .teaspoon, portions: honey).grams == 7)
        let oil = [Portion(amount: 1, name: "tsp", grams: 4.5)]
        #expect(abs(PortionChooser.grams(quantity: 2, unit: .tablespoon, portions: oil).grams - 27) < 1e-9)
        let sekt = [Portion(amount: 1, name: "Sektglas", grams: 100, reference: "flute")]
        #expect(PortionChooser.grams(quantity: 1, unit: .glass, portions: sekt, foodName: "Sparkling wine").grams == 100)
        let milk = [Portion(amount: 1, name: "glass", grams: 206), Portion(amount: 1, name: "cup", grams: 244)]
        #expect(PortionChooser.grams(quantity: 1, unit: .glass, portions: milk, foodName: "Milk, whole").grams == 206)
        let dumpling = [Portion(amount: 1, name: "dumpling", grams: 90), Portion(amount: 1, name: "serving", grams: 180)]
        #expect(PortionChooser.grams(quantity: 2, unit: nil, portions: dumpling, serving: dumpling[1], counted: true).grams == 180)
    }

    @Test("a portion named after the food counts as one of it")
    func namedAfterFood() {
        #expect(PortionChooser.grams(quantity: 0.5, unit: nil, portions: avocado, foodName: "Avocados, raw").grams == 100.5)
    }

    @Test("without any fitting portion, 100 g per unit is assumed and said")
    func fallback() {
        let choice = PortionChooser.grams(quantity: 2, unit: nil, portions: [])
        #expect(choice.grams == 200 && choice.assumedDefault)
    }

    @Test("portions shown in German are matched by their English reference name, with the same grams")
    func germanPortions() {
        // Given portions as a German speaker reads them, each with its English reference name
        let bread = [
            Portion(amount: 1, name: "Scheibe", grams: 28, reference: "slice"),
            Portion(amount: 1, name: "große Scheibe", grams: 30, reference: "slice, large"),
        ]
        let oats = [Portion(amount: 1, name: "Tasse", grams: 81, reference: "cup")]
        let eggs = [
            Portion(amount: 1, name: "Tasse", grams: 243, reference: "cup"), Portion(amount: 1, name: "große", grams: 50, reference: "large"),
            Portion(amount: 1, name: "mittelgroße", grams: 44, reference: "medium"),
        ]
        let chicken = [
            Portion(amount: 1, name: "Stück", grams: 71, reference: "piece"),
            Portion(amount: 0.5, name: "Brust, ohne Knochen und Haut", grams: 118, reference: "breast, bone and skin removed"),
        ]
        // Then "1 slice bread", "1 cup oats", "2 eggs" and "0.5 breast" weigh what they did with English names
        #expect(PortionChooser.grams(quantity: 1, unit: .slice, portions: bread).grams == 28)
        #expect(PortionChooser.grams(quantity: 1, unit: .cup, portions: oats).grams == 81)
        #expect(PortionChooser.grams(quantity: 2, unit: nil, portions: eggs).grams == 88)
        let food = Food(
            id: "5062",
            name: "Hähnchenbrust",
            usdaName: "Chicken, broilers or fryers, breast, meat only, raw",
            per100g: Nutrients(kcal: 120, proteinG: 22, carbsG: 0, totalCarbsG: 0, fiberG: 0, sugarsG: 0, fatG: 3, sodiumMg: 45),
            portions: chicken,
            isCommon: true
        )
        #expect(
            food.unit(named: "breast").flatMap { food.grams(amount: 0.5, unit: $0) } == 118
                && food.unit(named: "Brust").flatMap { food.grams(amount: 0.5, unit: $0) } == 118
        )
    }

    @Test("a portion stored before the reference name existed decodes with its name as the reference, and encodes as before")
    func oldEncoding() throws {
        // Given a user's portion as it was stored
        let stored = Data(#"{"amount":1,"name":"Riegel","grams":45}"#.utf8)
        // When it is decoded and encoded again
        let portion = try JSONDecoder().decode(Portion.self, from: stored)
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(portion)) as? [String: Any]
        // Then its reference is its name and no new key is written
        #expect(portion == Portion(amount: 1, name: "Riegel", grams: 45) && portion.reference == "Riegel")
        #expect(encoded.map { Set($0.keys) } == ["amount", "name", "grams"])
        let german = Portion(amount: 1, name: "Scheibe", grams: 28, reference: "slice")
        #expect(try JSONDecoder().decode(Portion.self, from: JSONEncoder().encode(german)) == german)
    }

    @Test("a food's serving is what a bare count and '1 Portion' mean; a typed measure still wins")
    func serving() {
        let butter = [
            Portion(amount: 1, name: "cup", grams: 227), Portion(amount: 1, name: "tbsp", grams: 14.2),
            Portion(amount: 1, name: "Portion", grams: 10, reference: "serving"),
        ]
        // without the serving rule, a bare "butter" was the first measure: a cup
        #expect(PortionChooser.grams(quantity: 1, unit: nil, portions: Array(butter.prefix(2))).grams == 227)
        #expect(PortionChooser.grams(quantity: 2, unit: nil, portions: butter, serving: butter[2]).grams == 20)
        #expect(PortionChooser.grams(quantity: 1, unit: .portion, portions: butter, serving: butter[2]).grams == 10)
        #expect(PortionChooser.grams(quantity: 1, unit: .tablespoon, portions: butter, serving: butter[2]).grams == 14.2)
    }
}

@Suite("A typed unit is a unit")
struct TypedUnitTests {
    static let apple = Food(
        id: "9003",
        name: "Apfel",
        usdaName: "Apples, raw, with skin",
        per100g: Nutrients(kcal: 52, proteinG: 0.3, carbsG: 11.4, totalCarbsG: 13.8, fiberG: 2.4, sugarsG: 10.4, fatG: 0.2, sodiumMg: 1),
        portions: [
            Portion(amount: 1, name: "große", grams: 223, reference: "large"),
            Portion(amount: 1, name: "Glas", grams: 200, reference: "glass"),
            Portion(amount: 1, name: "Scheibe, dünn", grams: 10, reference: "slice, thin"),
            Portion(amount: 1, name: "Scheibe, dick", grams: 20, reference: "slice, thick"),
        ],
        isCommon: true
    )

    @Test("g, gr, gramm, ml are grams although measures start with g; a measure by its exact name or its one noun; never by a word's start")
    func gramsFirst() {
        let apple = Self.apple
        for typed in ["g", "G", "gr", "grs", "Gramm", "gramos", "ml"] { #expect(apple.unit(named: typed) == .grams, "\(typed)") }
        #expect(apple.unit(named: "große") == .portion(0) && apple.unit(named: "LARGE") == .portion(0))
        #expect(apple.unit(named: "gro") == nil && apple.unit(named: "Gl") == nil)
        // "Scheibe" is the noun of two measures: which one is not guessed
        #expect(apple.unit(named: "Scheibe") == nil && apple.unit(named: "Scheibe, dick") == .portion(3))
        #expect(apple.grams(amount: 150, unit: .grams) == 150 && apple.grams(amount: 2, unit: .portion(1)) == 400)
        #expect(apple.grams(amount: 1, unit: .portion(4)) == nil)
    }

    @Test("a unit's id reads back as that unit; anything else is no unit")
    func ids() {
        for unit in Self.apple.units { #expect(FoodUnit(id: unit.id) == unit) }
        for text in ["große", "p", "p-1", "p01", "P1", "p 1", "p12345", "gram", " g", "p1.0"] { #expect(FoodUnit(id: text) == nil, "\(text)") }
    }
}
