import DietCore
import FoodKit
import Testing

@Suite("How a food name answers the typed words")
struct NameMatchTests {
    func match(_ name: String, _ typed: String, _ language: Language?) -> NameMatch {
        let words = SearchText.withoutConnectors(SearchText.words(SearchText.fold(typed))).map { [$0] }
        return NameMatch.of(name: SearchText.fold(name), words: words, language: language)
    }

    @Test(
        "the name typed, connectors optional, is exact",
        arguments: [
            ("Milch", "milch", Language.de), ("aceite de oliva", "aceite oliva", .es), ("Pan con tomate", "pan con tomate", .es),
        ]
    )
    func exact(name: String, typed: String, language: Language) {
        #expect(match(name, typed, language) == .exact)
    }

    @Test(
        "a kind of the food has the typed word as its head; a dish with it does not",
        arguments: [
            ("leche entera", "leche", Language.es, NameMatch.wholeWordsHead), ("arroz con leche", "leche", .es, .wholeWords),
            ("café con leche", "leche", .es, .wholeWords), ("fettarme Milch", "milch", .de, .wholeWordsHead),
            ("Milch 1,5 %", "milch", .de, .wholeWordsHead), ("Kartoffeln roh", "kartoffeln", .de, .wholeWordsHead),
            ("Brot mit Tomate", "brot", .de, .wholeWords), ("Döner im Brot", "brot", .de, .wholeWords),
            ("skim milk", "milk", .en, .wholeWordsHead), ("milk chocolate", "milk", .en, .wholeWords),
            ("potatoes boiled", "potatoes", .en, .wholeWordsHead),
        ]
    )
    func head(name: String, typed: String, language: Language, expected: NameMatch) {
        #expect(match(name, typed, language) == expected)
    }

    @Test("a German compound ending in the typed word is a kind of it, in German only")
    func compound() {
        #expect(match("Vollkornbrot", "brot", .de) == .compoundHead)
        #expect(match("Frischkäse", "käse", .de) == .compoundHead)
        #expect(match("Rührei", "ei", .de) == .infix)
        #expect(match("pineapple", "apple", .en) == .infix)
    }

    @Test("a letter alone is the start of a word, never a whole word: 's' only starts M&M's, a used Steak comes first")
    func letters() {
        #expect(match("M&M's", "s", .en) == .wordPrefix)
        #expect(match("M&M's", "m", .de) == .namePrefix)
        #expect(match("Vitamin C", "vitamin c", .de) == .exact)
    }

    @Test("a name that only starts with the typed word ranks below its kinds")
    func prefix() {
        #expect(match("Brötchen", "brot", .de) == .namePrefix)
        #expect(match("pancakes", "pan", .en) == .namePrefix)
        #expect(match("white bread", "bre", .en) == .wordPrefix)
        #expect(NameMatch.compoundHead < NameMatch.namePrefix && NameMatch.wholeWordsHead < NameMatch.wholeWords)
        #expect(NameMatch.compoundHead.level == NameMatch.wholeWordsHead.level)
    }

    @Test(
        "plurals are found by their singular in the user's language; short words may be half typed",
        arguments: [
            ("kartoffeln", Language.de, ["kartoffeln", "kartoffel"]), ("kekse", .de, ["kekse", "keks"]),
            ("tomatoes", .en, ["tomatoes", "tomato", "tomatoe"]), ("patatas", .es, ["patatas", "patata"]),
            ("chiken", .en, ["chiken"]), ("pean", .en, ["pean"]),
        ]
    )
    func singular(word: String, language: Language, forms: [String]) {
        #expect(SearchText.singularForms(word, language: language) == forms)
    }

    @Test("a finished German adjective is also read without its ending: rote, rotes, rotem Paprika are rot")
    func adjective() {
        #expect(SearchText.singularForms("rote", language: .de, finished: true) == ["rote", "rot"])
        #expect(SearchText.singularForms("rotes", language: .de) == ["rotes", "rot", "rote"])
        #expect(SearchText.singularForms("rotem", language: .de) == ["rotem", "rot"])
        // still being typed, a short word may be the start of a longer one ("rote" → Rotebete)
        #expect(SearchText.singularForms("rote", language: .de) == ["rote"])
    }
}

@Suite("Search ranking order")
struct SearchRankOrderTests {
    func rank(_ match: NameMatch, popularity: Int, length: Int, primary: Bool = true) -> SearchRank {
        SearchRank(
            usage: 0,
            isCommon: true,
            name: NameRank(match: match, source: .userLanguage, isPrimary: primary, length: length),
            popularity: popularity,
            nameLength: length,
            relevance: 0
        )
    }

    @Test("among kinds of the typed food the everyday one (more curated names) comes first")
    func everyday() {
        let matzo = rank(.wholeWordsHead, popularity: 5, length: 9)
        let white = rank(.wholeWordsHead, popularity: 9, length: 10)
        #expect(white < matzo)
    }

    @Test("while a word is typed, the shortest completion comes first")
    func completion() {
        let chocolate = rank(.namePrefix, popularity: 2, length: 10, primary: false)
        let cookies = rank(.namePrefix, popularity: 8, length: 11)
        #expect(chocolate < cookies)
    }

    @Test("a curated name in another language ranks below the user's, a USDA description below both")
    func sources() {
        let own = NameRank(match: .namePrefix, source: .userLanguage, isPrimary: true, length: 20)
        let other = NameRank(match: .namePrefix, source: .otherLanguage, isPrimary: true, length: 5)
        let usda = NameRank(match: .exact, source: .usda, isPrimary: false, length: 4)
        #expect(own < other && other < usda)
    }
}
