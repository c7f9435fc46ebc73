import FoodKit
import Testing

@Suite("Search folding, typos and ranking")
struct SearchTextTests {
    @Test(
        "accents, case, ß and punctuation are folded",
        arguments: [
            ("Käse", "kase"), ("KÄSE", "kase"), ("Hähnchenbrust, gegrillt", "hahnchenbrust gegrillt"),
            ("Weißbrot", "weissbrot"), ("plátano", "platano"), ("Jalapeño-Chili", "jalapeno chili"),
            ("  crème   fraîche ", "creme fraiche"),
        ]
    )
    func fold(text: String, folded: String) {
        #expect(SearchText.fold(text) == folded)
    }

    @Test("German umlauts are also indexed transliterated")
    func transliteration() {
        #expect(SearchText.indexForms("Käse") == ["kase", "kaese"])
        #expect(SearchText.indexForms("Brezel") == ["brezel"])
    }

    @Test("every typed word becomes a quoted prefix term")
    func prefixQuery() {
        #expect(SearchText.prefixQuery("Hähn brust") == "\"hahn\"* \"brust\"*")
        #expect(SearchText.prefixQuery("\"oat\" OR") == "\"oat\"* \"or\"*")
        #expect(SearchText.prefixQuery(" ,; ") == nil)
    }

    @Test(
        "one edit apart, including a swap of neighbours",
        arguments: [
            ("chicken", "chiken", true), ("chicken", "chickn", true), ("chicken", "chikcen", true),
            ("banana", "bananas", true), ("banana", "banana", true), ("banana", "bnaana", true),
            ("banana", "bnanaa", false), ("spinach", "spinich", true), ("spinach", "spnch", false),
        ]
    )
    func oneEdit(a: String, b: String, expected: Bool) {
        #expect(Typo.withinOneEdit(a, b) == expected)
    }

    @Test("corrections only for words of five letters or more, also against longer words")
    func corrections() {
        let vocabulary = ["chicken", "chickpeas", "banana", "rice", "haferflocken"]
        #expect(Typo.corrections(for: "chiken", in: vocabulary) == ["chicken"])
        #expect(Typo.corrections(for: "hafefl", in: vocabulary) == ["haferflocken"])
        #expect(Typo.corrections(for: "rics", in: vocabulary).isEmpty)
    }

    @Test("the user's foods rank first among names that match as well; a name as typed before a used food that only starts like it")
    func ranking() {
        let exact = NameRank(match: .exact, source: .userLanguage, isPrimary: true, length: 5)
        let prefix = NameRank(match: .namePrefix, source: .userLanguage, isPrimary: true, length: 8)
        let mine = SearchRank(
            usage: SearchRank.usageScore(count: 2, daysSinceLastUse: 3),
            isCommon: false,
            name: prefix,
            nameLength: 40,
            relevance: -1
        )
        let common = SearchRank(usage: 0, isCommon: true, name: exact, nameLength: 6, relevance: -2)
        let commonPrefix = SearchRank(usage: 0, isCommon: true, name: prefix, nameLength: 6, relevance: -2)
        let rest = SearchRank(usage: 0, isCommon: false, name: prefix, nameLength: 5, relevance: -9)
        #expect([rest, commonPrefix, common, mine].sorted() == [common, mine, commonPrefix, rest])
    }

    @Test("usage halves every 30 days")
    func usage() {
        #expect(SearchRank.usageScore(count: 10, daysSinceLastUse: 30) == 5)
        #expect(SearchRank.usageScore(count: 4, daysSinceLastUse: 0) == 4)
        #expect(SearchRank.usageScore(count: 0, daysSinceLastUse: 0) == 0)
    }
}
