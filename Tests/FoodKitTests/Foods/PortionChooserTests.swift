import FoodKit
import Testing

@Suite("Portions")
struct PortionChooserTests {
    let egg = [Portion(amount: 1, name: "cup (4.86 large eggs)", grams: 243), Portion(amount: 1, name: "large", grams: 50),
               Portion(amount: 1, name: "medium", grams: 44)]
    let toast = [Portion(amount: 1, name: "oz", grams: 28.35), Portion(amount: 1, name: "slice, large", grams: 27),
                 Portion(amount: 1, name: "slice", grams: 22)]
    let oats = [Portion(amount: 1, name: "cup", grams: 81), Portion(amount: 0.333, name: "cup", grams: 27)]
    let avocado = [Portion(amount: 1, name: "cup, cubes", grams: 150), Portion(amount: 1, name: "avocado, NS as to Florida or California", grams: 201)]

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

    @Test("a household unit uses the food's portion of that name, the plainest one first")
    func household() {
        #expect(PortionChooser.grams(quantity: 1, unit: .slice, portions: toast).grams == 22)
        #expect(PortionChooser.grams(quantity: 0.5, unit: .cup, portions: oats).grams == 40.5)
    }

    @Test("a kitchen measure without a matching portion uses its standard volume")
    func standardVolume() {
        #expect(PortionChooser.grams(quantity: 2, unit: .tablespoon, portions: egg).grams == 30)
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
}
