/// A unit a person writes before a food, in German, English or Spanish.
public enum QuantityUnit: String, CaseIterable, Hashable, Sendable, Codable {
    case gram, kilogram, ounce, pound
    case milliliter, centiliter, deciliter, liter
    case cup, glass, tablespoon, teaspoon
    case slice, piece, handful, portion, bowl, can, bottle
    case quart, pint, pinch, knifeTip, drop, dash
    case clove, sprig, stick, package, head, stalk, bunch, rib, bulb, strip, envelope, leaf, pot
    /// A jar of a preserve ("un bote de garbanzos", "1 Glas Kichererbsen"): its drained contents.
    case jar
    /// A tablet or cube ("una pastilla de caldo", "1 Brühwürfel").
    case tablet
    /// A small bottle of a baking aroma ("1 Fläschchen Rumaroma"): 2 ml.
    case vial
    /// A scoop of ice cream ("eine Kugel Eis", "una bola de helado"): 60 g unless the food has its own.
    case scoop
    /// A bar of chocolate as sold in Germany ("eine Tafel Schokolade"): 100 g.
    case bar

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
        case .quart: 946.353
        case .pint: 473.176
        case .vial: 2
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
        case .dash: 10
        default: fixedAmount.flatMap { isVolume ? $0 : nil }
        }
    }

    public var isVolume: Bool {
        [.milliliter, .centiliter, .deciliter, .liter, .quart, .pint, .cup, .glass, .tablespoon, .teaspoon, .dash, .drop].contains(self)
    }

    /// Grams of a measure used when the food has no portion of that name: one too small to have
    /// a portion of its own (a pinch of salt ≈ 0.4 g, a knife tip ≈ 0.5 g, a drop ≈ 0.05 g), or
    /// one of a usual size (a jar, a stock cube, a scoop, a Tafel of chocolate).
    public var smallMeasureGrams: Double? {
        switch self {
        case .pinch: 0.4
        case .knifeTip: 0.5
        case .drop: 0.05
        // what a standard jar (370 ml) holds drained, and a stock cube
        case .jar: 240
        case .tablet: 10
        case .scoop: 60
        // no food portion stands for it: a US candy bar's "bar" (44 g) is no German Tafel
        case .bar: 100
        default: nil
        }
    }

    /// Words for the unit, folded (lower case, no accents), in the three languages.
    static let words: [String: QuantityUnit] = {
        var table: [String: QuantityUnit] = [:]
        let lists: [(QuantityUnit, [String])] = [
            (.gram, ["g", "gr", "grs", "grm", "grms", "gram", "grams", "gramm", "gramo", "gramos", "grammes", "gramme"]),
            (.kilogram, ["kg", "kilo", "kilos", "kilogram", "kilogramm", "kilogramos"]),
            (.ounce, ["oz", "ounce", "ounces", "onza", "onzas"]),
            (.pound, ["lb", "lbs", "pound", "pounds"]),
            (.milliliter, ["ml", "milliliter", "milliliters", "millilitre", "mililitro", "mililitros"]),
            (.centiliter, ["cl"]),
            (.deciliter, ["dl"]),
            // "eine Maß Bier": a litre
            (.liter, ["l", "lt", "lts", "ltr", "liter", "liters", "litre", "litres", "litro", "litros", "mass"]),
            // "ein Pott Kaffee": a mug
            (.cup, ["cup", "cups", "tasse", "tassen", "taza", "tazas", "pott", "potte"]),
            // "3 medidas de harina": the measure of a recipe, mostly the yogurt's glass
            (.glass, ["glass", "glasses", "glas", "glaser", "vaso", "vasos", "copa", "copas", "medida", "medidas"]),
            (
                .tablespoon,
                [
                    "tbsp", "tbs", "tbl", "tblsp", "tbsps", "tablespoon", "tablespoons", "el", "essl", "essloffel",
                    "ess-loffel", "cucharada", "cucharadas", "cda", "cdas", "cdra", "cdras", "cs", "c/s",
                ]
            ),
            (
                .teaspoon,
                [
                    "tsp", "tsps", "teaspoon", "teaspoons", "tl", "teel", "teeloffel", "tee-loffel", "cucharadita", "cucharaditas",
                    "cdta", "cdtas", "cdita", "cditas", "cc", "c/c", "cucharilla", "cucharillas",
                ]
            ),
            (
                .slice,
                [
                    "slice", "slices", "scheibe", "scheiben", "rebanada", "rebanadas", "loncha", "lonchas", "rodaja", "rodajas",
                    "lonchita", "lonchitas", "rodajita", "rodajitas",
                ]
            ),
            (
                .piece,
                [
                    "piece", "pieces", "pc", "pcs", "stuck", "stueck", "stk", "pieza", "piezas", "unidad", "unidades", "trozo", "trozos",
                    "trocito", "trocitos", "reihe", "reihen", "presa", "presas",
                    "loaf", "loaves", "laib", "laibe",
                ]
            ),
            (.handful, ["handful", "handfuls", "handvoll", "punado", "punados"]),
            (
                .portion,
                [
                    "portion", "portions", "serving", "servings", "portionen", "porcion", "porciones", "racion", "raciones", "plate",
                    "plates", "teller", "plato", "platos",
                ]
            ),
            (.bowl, ["bowl", "bowls", "schussel", "schale", "schalen", "schalchen", "tazon", "tazones", "bol", "cuenco"]),
            (.can, ["can", "cans", "tin", "tins", "dose", "dosen", "lata", "latas"]),
            (.bottle, ["bottle", "bottles", "flasche", "flaschen", "botella", "botellas"]),
            (.quart, ["quart", "quarts", "qt"]),
            (.pint, ["pint", "pints", "pt"]),
            (.pinch, ["pinch", "pinches", "prise", "prisen", "pizca", "pizcas", "pellizco"]),
            (.knifeTip, ["messerspitze", "messerspitzen", "msp"]),
            (.drop, ["drop", "drops", "tropfen", "gota", "gotas"]),
            (.dash, ["dash", "dashes", "splash", "splashes", "schuss", "spritzer", "chorrito", "chorritos", "chorro"]),
            (.clove, ["clove", "cloves", "zehe", "zehen", "diente", "dientes"]),
            (.sprig, ["sprig", "sprigs", "zweig", "zweige", "zweiglein", "ramita", "ramitas"]),
            // a bar: "eine Tafel Schokolade", "ein Riegel" (a Müsliriegel)
            (.stick, ["stick", "sticks", "barra", "barras", "riegel"]),
            (.bar, ["tafel", "tafeln"]),
            (
                .package,
                [
                    "package", "packages", "pkg", "pack", "packs", "packet", "packets", "packung", "packungen", "pckg", "pck",
                    "paquete", "paquetes", "sobre", "sobres", "tute", "tuten",
                    "packchen", "pckchen", "bag", "bags", "bolsa", "bolsas", "sleeve", "sleeves",
                ]
            ),
            (.head, ["head", "heads", "kopf", "kopfe", "cabeza", "cabezas"]),
            (.stalk, ["stalk", "stalks", "stange", "stangen", "tallo", "tallos", "rama", "ramas"]),
            (.bunch, ["bunch", "bunches", "bund", "bunde", "bundel", "manojo", "manojos", "atado"]),
            (.rib, ["rib", "ribs", "rippe", "rippen", "penca", "pencas"]),
            (.bulb, ["bulb", "bulbs", "knolle", "knollen", "bulbo", "bulbos"]),
            (.strip, ["strip", "strips", "streifen", "tira", "tiras"]),
            (.envelope, ["envelope", "envelopes", "sachet", "sachets", "tutchen", "beutel", "beutelchen"]),
            (.leaf, ["leaf", "leaves", "blatt", "blatter", "hoja", "hojas", "hojita", "hojitas"]),
            (.pot, ["pot", "pots", "tub", "tubs", "carton", "cartons", "becher", "kannchen", "tarrina", "tarrinas", "vasito", "vasitos"]),
            (.jar, ["jar", "jars", "bote", "botes", "frasco", "frascos", "tarro", "tarros", "einmachglas"]),
            (.tablet, ["pastilla", "pastillas", "cubito", "cubitos", "tablet", "tablets", "cube", "cubes", "wurfel"]),
            (.scoop, ["scoop", "scoops", "kugel", "kugeln", "bola", "bolas"]),
            (.vial, ["flaschchen", "flaeschchen", "ampulle", "ampullen", "vial", "vials"]),
        ]
        for (unit, words) in lists {
            for word in words { table[word] = unit }
        }
        return table
    }()
}
