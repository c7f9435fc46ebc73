/// Words around a food in a typed meal or a recipe line that are not the food itself, folded
/// (lower case, no accents), in English, German and Spanish.
enum FoodWords {
    /// How a food is cut, cooked a moment before or described in a recipe: kept apart from
    /// the food's name so that search matches the food ("diced, peeled potatoes" → potatoes).
    /// Words that change the food itself ("cooked rice", "ground beef", "smoked salmon") are
    /// not here: they choose a different food.
    static let preparation: Set<String> = [
        // English
        "chopped", "finely", "diced", "minced", "grated", "sliced", "thinly", "thickly", "peeled", "fresh", "freshly", "crushed",
        "shredded", "cubed", "halved", "quartered", "trimmed", "rinsed", "drained", "softened", "melted", "beaten", "sifted",
        "packed", "firmly", "lightly", "loosely", "roughly", "coarsely", "cut", "into", "firm", "crisp", "ripe", "optional",
        "divided", "washed", "pitted", "seeded", "deseeded", "cored", "julienned", "torn", "snipped", "crumbled", "zested",
        "squeezed", "juiced", "room", "temperature", "chilled", "heaping", "heaped", "level", "scant", "generous", "small",
        "medium", "large", "big", "garnish", "needed", "desired", "taste", "bite", "sized", "size", "inch", "warmed", "little",
        "some", "deveined", "separated", "frying", "dusting", "serving", "more", "additional", "raw", "fine", "stale", "grilled",
        "mashed", "cold", "topping", "choice", "cm", "centimeter", "centimeters", "thin", "thick", "any", "variety", "very", "med",
        // German (stems; the endings -e, -er, -es, -en are removed before looking up)
        "gehackt", "feingehackt", "fein", "gewurfelt", "gerieben", "geschalt", "geschnitten", "frisch", "klein", "grob",
        "zerdruckt", "gepresst", "halbiert", "geviertelt", "gewaschen", "abgetropft", "weich", "geschmolzen", "zerlassen",
        "zerkleinert", "gestiftelt", "geraspelt", "entkernt", "geputzt", "gross", "mittelgross", "nach", "belieben", "geschmack", "bedarf", "etwas",
        "evtl", "eventuell", "gehauft", "gestrichen",
        "zimmerwarm", "zimmertemperatur", "reif", "garnieren", "bestreuen", "gestr", "geh", "bisschen",
        "gedampft", "gedunstet", "gekocht", "cremig", "warm", "zerquetscht", "lecker", "tk", "vermischt", "verruhrt",
        "verquirlt", "aufgebacken", "getrennt", "unbehandelt", "gegessen", "getrunken", "n b", "zentimeter", "viel", "noch",
        "nochmal", "dazu", "klacks", "jung", "sehr", "trocken", "mager",
        // verbs of a recipe or a diary, in the infinitive: "mit Milch verrühren", "viel trinken"
        "essen", "trinken", "kochen", "verruhren", "purieren", "mischen", "vermischen", "servieren", "anrichten", "abschmecken",
        "geniessen",
        // Spanish (with their -o/-a/-os/-as forms folded to the -o form before looking up)
        "picado", "finamente", "rallado", "cortado", "pelado", "fresco", "troceado", "dados", "machacado",
        "laminado", "fileteado", "rebanado", "escurrido", "lavado", "derretido", "batido", "tamizado", "maduro",
        "pequeno", "mediano", "grande", "gusto", "opcional", "tibio", "templado", "trozos", "tiras", "rodajas", "finas",
        "gruesos", "grueso", "decorar", "recien", "limpio", "sopero", "raso", "colmado", "poco", "exprimido",
        "tostado", "crudo", "duro", "deshuesado", "plancha", "horno", "vapor", "frito",
        "temperatura", "ambiente", "eleccion", "elegir", "centimetro", "bien", "voluntad", "ademas", "tambien", "muy", "mucho",
        "original",
    ]

    /// Words that say what a dish is made from before a counted food: "Rührei aus 2 Eiern",
    /// "omelette from 3 eggs", "tortilla de 3 huevos".
    static let madeFrom: Set<String> = ["aus", "from", "de"]

    /// Unit words that name their food: "1 Knoblauchzehe" is a clove of garlic.
    static let unitsNamingFood: [String: (unit: String, food: String)] = [
        "knoblauchzehe": ("Zehe", "Knoblauch"), "knoblauchzehen": ("Zehen", "Knoblauch"),
        "bruhwurfel": ("Würfel", "Brühe"), "gemusebruhwurfel": ("Würfel", "Gemüsebrühe"), "huhnerbruhwurfel": ("Würfel", "Hühnerbrühe"),
        "fleischbruhwurfel": ("Würfel", "Fleischbrühe"), "suppenwurfel": ("Würfel", "Suppe"),
    ]

    /// Units that end a German compound, folded: "Salatblatt", "Basilikumblätter", "Käsescheiben",
    /// "Dreierpackung".
    static let unitTails: [String] = ["blatter", "blatt", "scheiben", "scheibe", "packungen", "packung"]

    /// Leaves that are the food itself, folded stems: "Lorbeerblätter", "Weinblätter", "Curryblätter".
    static let leafFoods: Set<String> = ["lorbeer", "wein", "curry", "kaffirlimetten", "limetten"]

    /// How many a pack holds, before "packung": "Dreierpackung", "Familienpackung".
    static let packCounts: Set<String> = ["zweier", "dreier", "vierer", "sechser", "achter", "zehner", "familien", "gross", "vorrats"]

    /// Unit words that name a food when nothing follows them: "ein Riegel" is a bar to eat.
    static let unitsNamingFoodAlone: Set<String> = ["riegel"]

    /// Words naming a stock that comes as cubes: "1 beef bouillon cube" is a tablet of beef bouillon.
    static let stocks: Set<String> = ["stock", "bouillon", "broth", "seasoning", "caldo", "maggi", "knorr"]

    /// Drinks, folded, also as the end of a German compound ("Orangensaft", "Weißwein"): "ein
    /// Glas Milch" is a drinking glass, "1 Glas Kichererbsen" a jar.
    static let drinks: [String] = [
        "milch", "wasser", "saft", "wein", "bier", "sekt", "tee", "kaffee", "kakao", "schorle", "limo", "limonade", "cola", "smoothie",
        "shake", "kefir", "ayran", "sprudel", "prosecco", "radler", "nektar", "punsch", "likor", "schnaps", "whisky", "wodka",
        "drink", "latte", "cappuccino", "espresso", "lassi", "molke", "champagner", "cidre", "most",
    ]

    static func isDrink(_ folded: String) -> Bool {
        drinks.contains { folded.hasSuffix($0) } || drinkNames.contains(folded)
    }

    /// Beers and wines by their kind, folded: "eine Halbe Helles", "ein Glas Kölsch".
    static let drinkNames: Set<String> = [
        "helles", "helle", "dunkles", "pils", "pilsner", "pilsener", "weizen", "hefeweizen", "weissbier", "weisse", "kolsch", "alt",
        "export", "marzen", "bock", "lager", "zwickel", "russ", "gespritzter", "riesling", "grauburgunder", "ebbelwoi", "apfelwein",
    ]

    /// Glasses of beer and wine named by their size, folded: litres and the drink they hold when
    /// none is named ("eine Halbe" is beer, "ein Viertel" wine). Where the word also counts a
    /// part of a food ("eine halbe Banane", "ein Viertel Apfel") or is a unit ("eine Stange
    /// Lauch"), it is a glass only before a drink or, with a drink of its own, alone.
    static let glasses: [String: (liters: Double, drink: String?, alsoPart: Bool)] = [
        "halbe": (0.5, "Bier", true), "seidla": (0.5, "Bier", false), "seidel": (0.5, "Bier", false), "seidl": (0.5, "Bier", false),
        "krugerl": (0.5, "Bier", false), "seiterl": (0.33, "Bier", false), "pfiff": (0.2, "Bier", false), "stange": (0.2, nil, true),
        "schoppen": (0.25, "Wein", false), "viertel": (0.25, "Wein", true), "viertele": (0.25, "Wein", false),
        "achtel": (0.125, "Wein", true), "achtele": (0.125, "Wein", false), "mass": (1, "Bier", true),
    ]

    /// Baking powder and yeast, folded, also as the end of a compound: their packets are sachets
    /// ("1 Packung Backpulver", "1 packet yeast", "un sobre de levadura" are envelopes).
    static let sachetFoods: [String] = ["backpulver", "hefe", "natron", "yeast", "baking", "levadura", "gasificante"]

    /// Words that open a weight in parentheses: "(Abtropfgewicht 240 g)", "(drained weight 240 g)",
    /// "(máximo 300 ml)".
    static let weightLeads: Set<String> = [
        "abtropfgewicht", "drained", "weight", "fullgewicht", "peso", "escurrido", "neto", "maximo", "max", "maximal", "hochstens",
    ]

    /// Two words, a food and how it is made, that name a product of their own: minced meat,
    /// breadcrumbs. The second word stays in the food's name.
    static let productPhrases: Set<String> = [
        "carne picada", "carne picado", "pan rallado", "carne molida", "cafe molido", "jamon cocido", "tomate frito", "patatas fritas",
        "papas fritas", "pan tostado", "queso fresco",
    ]

    /// Spanish participles that name a product after its noun (in the -o form): "leche
    /// desnatada", "salmón ahumado", "comino molido", "tomate triturado".
    static let productParticiples: Set<String> = [
        "desnatado", "semidesnatado", "descremado", "semidescremado", "triturado", "molido", "ahumado", "curado", "condensado",
        "evaporado", "concentrado", "inflado", "germinado", "helado", "madurado", "confitado", "desgrasado", "azucarado", "salado",
        "descafeinado", "variado",
        // cooked pulses and rice are foods of their own ("garbanzos cocidos"), as "cooked rice" is
        "cocido",
    ]

    /// A Spanish past participle after a noun says how the food is made ("merluza cocida",
    /// "almendras tostadas", "verduras salteadas"), unless it names a product.
    static func isSpanishParticiple(_ folded: String) -> Bool {
        var base = folded
        for (ending, replacement) in [("as", "o"), ("os", "o"), ("a", "o")] where base.hasSuffix(ending) {
            base = String(base.dropLast(ending.count)) + replacement
            break
        }
        // "tostadas" is toast, but "almendras tostadas" are roasted
        let noun = participleNouns.contains(folded) && !preparation.contains(base)
        return base.count >= 6 && (base.hasSuffix("ado") || base.hasSuffix("ido")) && !productParticiples.contains(base) && !noun
    }

    /// Whether `folded` is a preparation or description word in one of its forms.
    static func isPreparation(_ folded: String) -> Bool {
        if preparation.contains(folded) || folded.count > 6 && folded.hasSuffix("less") { return true }
        // "minikleine Portion"
        if folded.utf8.starts(with: "mini".utf8), folded.count > 6, isPreparation(String(folded.dropFirst(4))) { return true }
        // "tostada" is toast, though "tostadas" almonds are roasted
        if participleNouns.contains(folded) { return false }
        // "thinly-sliced", "finely-chopped"
        let parts = folded.split(whereSeparator: { $0 == "-" || $0 == " " }).map(String.init)
        if parts.count > 1, parts.allSatisfy(isPreparation) { return true }
        for ending in ["es", "er", "en", "e", "s"] where folded.count > ending.count + 3 && folded.hasSuffix(ending) {
            if preparation.contains(String(folded.dropLast(ending.count))) { return true }
        }
        // Spanish gender and number: picada, picados, picadas → picado
        for ending in ["as", "os", "a"] where folded.count > ending.count + 3 && folded.hasSuffix(ending) {
            if preparation.contains(String(folded.dropLast(ending.count)) + "o") { return true }
        }
        return false
    }

    /// Words of a spoken meal before the food: "I had a sandwich", "ich hatte ein Brot", "comí
    /// una ensalada", "just a coffee".
    static let fillers: Set<String> = [
        "i", "had", "ate", "have", "eaten", "drank", "drink", "just", "only", "ich", "hatte", "habe", "hab", "esse", "trinke", "ass",
        "nur", "comi", "he", "comido", "tome", "bebi", "desayune", "cene", "ceno", "solo", "dann", "danach", "anschliessend",
        "wie", "gesagt", "mache", "mir", "darunter",
        // "más 200 g de tomate": one more food; "puede llevar tomate": what a dish may hold
        "mas", "puede", "llevar",
    ]

    /// Times of the day and meals, folded: said before the food, they are not the food.
    static let mealTimes: Set<String> = [
        "morgens", "mittags", "nachmittags", "vormittags", "abends", "nachmittag", "spatnachmittag", "mittag", "abend", "fruhstuck",
        "mittagessen", "abendessen", "abendbrot", "nachtisch", "breakfast", "lunch", "dinner", "manana", "tarde", "noche",
        "mediodia", "postre", "cena", "desayuno", "merienda",
    ]

    /// Notes of use that never name the food, even after an amount: "a voluntad", "to taste".
    static let notesOfUse: Set<String> = ["gusto", "voluntad", "taste", "belieben", "bedarf", "desired", "needed", "optional", "opcional"]

    /// Words that lead to a time or a meal: "zum Frühstück", "als Nachtisch", "a media mañana".
    static let mealTimeLeads: Set<String> = ["zum", "zur", "als", "am", "for", "at", "para", "de", "a", "media", "por", "la", "en"]

    /// Words that open a clause about how the food is used or cut, once the food is named:
    /// "olive oil for frying", "Öl zum Braten", "Pfeffer aus der Mühle", "harina para
    /// enharinar", "water as needed", "eggs, at room temperature", "manzana sin corazón".
    /// A relative clause ("que acompañaremos con pan") and a negation ("original no desnatado")
    /// say something of the food too.
    static let clauseStarters: Set<String> = [
        "for", "as", "at", "zum", "zur", "fur", "aus", "para", "sin", "ohne", "je", "alternativ", "que", "no",
    ]

    /// "Thunfisch ohne Öl", "manteca sin sal", "yogurt without sugar": a food free of something
    /// is a product of its own, unlike "manzana sin corazón".
    static let withouts: Set<String> = ["sin", "ohne", "without"]
    static let freeFrom: Set<String> = [
        "sal", "azucar", "azucares", "lactosa", "gluten", "grasa", "alcohol", "cafeina", "ol", "zucker", "salz", "laktose", "fett",
        "alkohol", "koffein", "sugar", "salt", "lactose", "fat", "caffeine",
    ]

    /// Words that open a range: "entre 300 g y 400 g", "zwischen 2 und 3 EL", "between 2 and 3".
    static let betweens: Set<String> = ["entre", "zwischen", "between"]

    /// Words that make a spoon a small one: "una cucharada pequeña".
    static let small: Set<String> = ["pequena", "pequeno", "small", "kleiner", "kleine"]

    /// Words that say a food is served with the next: "acompañado de pan", "served with rice".
    static let accompanying: Set<String> = ["acompanado", "acompanada", "acompanados", "acompanadas", "served", "serviert"]

    /// Clauses that are part of a food's name: "nata para montar" (whipping cream).
    static let namePhrases: Set<String> = ["para montar", "para cocinar", "zum kochen"]

    /// Words that open such a clause only before a cut or a preparation: "in Scheiben", "en
    /// gajos", "into cubes" (but "Thunfisch in Öl", "canela en polvo" are foods).
    static let cutStarters: Set<String> = ["in", "en", "into"]

    /// The shapes a food is cut into.
    static let cuts: Set<String> = [
        "wurfel", "wurfeln", "scheiben", "scheibchen", "ringe", "ringen", "rollchen", "spalten", "streifen", "stucke", "stuckchen",
        "halften", "gajos", "juliana", "cuartos", "rodajas", "lonchas", "lonchitas", "trozos", "dados", "tiras", "laminas", "cubes", "pieces",
        "slices",
        "rings", "wedges", "strips", "chunks", "halves", "quarters", "temperatura",
    ]

    /// Whether a word looks like a past participle that describes a food after a comma:
    /// "cooked", "mashed", "hard-boiled", "boneless", "aufgebacken", "verquirlt", "filetiert",
    /// "geschält", "cocidos", "peladas". Nouns with those endings are excepted.
    static func looksPrepared(_ folded: String) -> Bool {
        if isPreparation(folded) { return true }
        guard folded.count >= 5, !participleNouns.contains(folded) else { return false }
        if folded.hasSuffix("ed") || folded.hasSuffix("iert") { return true }
        if folded.count >= 6, ["ge", "ver", "auf", "ab", "an", "zer"].contains(where: folded.hasPrefix),
            folded.hasSuffix("t") || folded.hasSuffix("en")
        {
            return true
        }
        return folded.count >= 6 && ["ado", "ada", "ados", "adas", "ido", "ida", "idos", "idas"].contains(where: folded.hasSuffix)
    }

    /// Food nouns that end like participles.
    static let participleNouns: Set<String> = [
        "avocado", "avocados", "enchilada", "enchiladas", "colada", "cebada", "dorada", "doradas", "adobo", "pomada",
        "pescado", "pescados", "helado", "helados", "asado", "ensalada", "ensaladas", "empanada", "empanadas", "mermelada",
        "limonada", "tostada", "tostadas", "granada", "granadas", "bebida", "bebidas", "comida", "comidas", "cuajada", "fabada", "mariscada",
        "gambada", "morcilla",
        "bread", "seed", "seeds", "gebaeck", "gemuse", "getreide", "getranke", "gelee", "gewurz", "gewurze", "gehacktes",
        "abendbrot", "ansbacher", "apfelstrudel", "zerealien", "aufschnitt", "aufstrich",
    ]

    /// Established dishes of two foods, folded, kept one item even without the food database's
    /// names (`MealTextParser.parse(_:dishes:)`).
    static let dishes: Set<String> = [
        "frijoles con carne", "chili con carne", "cafe con leche", "pan con tomate",
        "fish and chips", "mac and cheese", "macaroni and cheese",
    ]

    /// Grains that are milled together into one bread or flour, folded.
    static let grains: Set<String> = [
        "trigo", "centeno", "espelta", "cebada", "wheat", "rye", "spelt", "barley", "weizen", "roggen", "dinkel", "gerste",
    ]

    /// How a food is fried, before "fried": "air fried tofu", "pan fried fish" ("fried rice" is a food).
    static let fryings: Set<String> = ["air", "pan", "deep", "stir", "oven", "shallow"]

    /// Meats whose "filete" is a steak named as a food of its own ("filete de ternera").
    static let meats: Set<String> = ["ternera", "cerdo", "pollo", "pavo", "res", "vaca", "buey", "lomo", "cordero"]

    /// Units of energy and diet points, in lower case: "2 points", "menos de 60 kcal" remark on a food.
    static let energyUnits: Set<String> = [
        "kcal", "cal", "calories", "calorias", "calorías", "kalorien", "kj", "points", "pts", "punkte", "puntos", "sp", "pp",
    ]

    /// People a meal is eaten with, in lower case: "with family", "mit Freunden", "con amigos".
    static let company: Set<String> = [
        "family", "friends", "friend", "colleagues", "coworkers", "kids", "familie", "freunden", "freunde", "freundin", "kollegen",
        "kindern", "familia", "amigos", "amigas", "companeros", "compañeros",
    ]

    /// Words that lead to such a remark: "de menos de", "weniger als", "less than", "with my", "mit der".
    static let remarkLeads: Set<String> = [
        "de", "menos", "con", "less", "than", "under", "about", "unter", "weniger", "als", "ca", "mit", "with", "w", "my", "the",
        "our", "der", "meiner", "meinen", "unserer", "den", "mi", "mis", "la", "los", "las", "nuestra", "nuestros", "<", "~",
    ]

    /// Words after a count that say the food itself is counted: "1 ea. eggplant", "1 slab ribs".
    static let eaches: Set<String> = ["ea", "each", "slab", "slabs"]

    /// Words that multiply the number before them: "a dozen eggs", "media docena de huevos".
    static let dozens: Set<String> = ["dozen", "dutzend", "docena", "docenas"]

    /// Words naming what is taken from a food before its amount: "juice of 1/2 orange",
    /// "Saft einer halben Zitrone", "zumo de medio limón", "zest of 1 lemon".
    enum Part: Sendable {
        case juice, zest

        /// The food the part names, in the language of the head word: "orange" → "orange juice",
        /// "Zitrone" → "Zitronensaft", "limón" → "zumo de limón".
        func food(_ fruit: String, head: String) -> String {
            let folded = SearchText.fold(head)
            // "Abrieb von 1 Zitronenschale" names its part already
            if ["saft", "schale"].contains(where: SearchText.fold(fruit).hasSuffix) { return fruit }
            if ["saft", "schale", "abrieb"].contains(folded) {
                let stem = fruit.hasSuffix("e") ? fruit + "n" : fruit
                return stem + (self == .juice ? "saft" : "schale")
            }
            if ["jugo", "zumo", "ralladura", "piel", "cascara"].contains(folded) {
                return head.lowercased() + " de " + fruit
            }
            let singular = fruit.count > 3 && fruit.hasSuffix("s") ? String(fruit.dropLast()) : fruit
            return singular + (self == .juice ? " juice" : " zest")
        }
    }

    static let parts: [String: Part] = [
        "juice": .juice, "saft": .juice, "jugo": .juice, "zumo": .juice,
        "zest": .zest, "peel": .zest, "schale": .zest, "abrieb": .zest, "ralladura": .zest, "cascara": .zest,
    ]

    /// Articles that may open a phrase before a part: "the juice of", "el zumo de", "der Saft".
    static let articles: Set<String> = ["the", "der", "die", "das", "den", "el", "la", "los", "las"]

    /// Words that join an amount and a half: "one and a half", "zwei und ein halb", "dos y medio".
    static let halfJoiners: Set<String> = ["and", "und", "y"]

    /// Words that multiply two amounts: "2 x 100 g", "2 × 100 g", "2 mal 100 g".
    static let times: Set<String> = ["x", "×", "mal", "por"]

    /// Words that add a second amount to the first: "1/2 cup plus 1 tablespoon".
    static let plus: Set<String> = ["plus", "+", "and", "und", "y", "mas", "more"]

    /// Words between the bounds of a range: "2 to 3", "2 bis 3", "2 a 3", "2 oder 3".
    static let rangeWords: Set<String> = ["-", "to", "bis", "a", "o", "u", "or", "oder", "til"]
}
