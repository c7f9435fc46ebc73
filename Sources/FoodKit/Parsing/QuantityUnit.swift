/// A unit a person writes before a food, in German, English or Spanish.
public enum QuantityUnit: String, CaseIterable, Hashable, Sendable, Codable {
    case gram, kilogram, ounce, pound
    case milliliter, centiliter, deciliter, liter
    case cup, glass, tablespoon, teaspoon
    case slice, piece, handful, portion, bowl, can, bottle

    /// Grams or millilitres per unit for units with a fixed size; nil for household units
    /// whose weight depends on the food (a slice of bread, a cup of rice).
    public var fixedAmount: Double? {
        switch self {
        case .gram, .milliliter: 1
        case .kilogram, .liter: 1000
        case .centiliter: 10
        case .deciliter: 100
        case .ounce: 28.3495
        case .pound: 453.592
        default: nil
        }
    }

    /// The volume in millilitres of a kitchen measure, when a food has no portion of that name.
    public var standardMilliliters: Double? {
        switch self {
        case .cup: 240
        case .glass: 200
        case .tablespoon: 15
        case .teaspoon: 5
        default: fixedAmount.flatMap { isVolume ? $0 : nil }
        }
    }

    public var isVolume: Bool {
        [.milliliter, .centiliter, .deciliter, .liter, .cup, .glass, .tablespoon, .teaspoon].contains(self)
    }

    /// Words for the unit, folded (lower case, no accents), in the three languages.
    static let words: [String: QuantityUnit] = {
        var table: [String: QuantityUnit] = [:]
        let lists: [(QuantityUnit, [String])] = [
            (.gram, ["g", "gr", "gram", "grams", "gramm", "gramo", "gramos", "grammes", "gramme"]),
            (.kilogram, ["kg", "kilo", "kilos", "kilogram", "kilogramm", "kilogramos"]),
            (.ounce, ["oz", "ounce", "ounces"]),
            (.pound, ["lb", "lbs", "pound", "pounds"]),
            (.milliliter, ["ml", "milliliter", "milliliters", "millilitre", "mililitro", "mililitros"]),
            (.centiliter, ["cl"]),
            (.deciliter, ["dl"]),
            (.liter, ["l", "liter", "liters", "litre", "litres", "litro", "litros"]),
            (.cup, ["cup", "cups", "tasse", "tassen", "taza", "tazas", "becher"]),
            (.glass, ["glass", "glasses", "glas", "glaser", "vaso", "vasos"]),
            (.tablespoon, ["tbsp", "tablespoon", "tablespoons", "el", "essloffel", "cucharada", "cucharadas", "cda", "cdas"]),
            (.teaspoon, ["tsp", "teaspoon", "teaspoons", "tl", "teeloffel", "cucharadita", "cucharaditas", "cdta"]),
            (.slice, ["slice", "slices", "scheibe", "scheiben", "rebanada", "rebanadas", "loncha", "lonchas"]),
            (.piece, ["piece", "pieces", "pc", "pcs", "stuck", "stueck", "stk", "pieza", "piezas", "unidad", "unidades"]),
            (.handful, ["handful", "handfuls", "handvoll", "punado", "punados"]),
            (.portion, ["portion", "portions", "serving", "servings", "portionen", "porcion", "porciones", "racion", "raciones"]),
            (.bowl, ["bowl", "bowls", "schussel", "schale", "schalen", "tazon", "tazones", "bol", "cuenco"]),
            (.can, ["can", "cans", "dose", "dosen", "lata", "latas"]),
            (.bottle, ["bottle", "bottles", "flasche", "flaschen", "botella", "botellas"]),
        ]
        for (unit, words) in lists {
            for word in words { table[word] = unit }
        }
        return table
    }()
}
