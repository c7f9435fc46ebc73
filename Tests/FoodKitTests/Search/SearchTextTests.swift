import FoodKit
import TestSupport
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
        #expect(Typo.Vocabulary(vocabulary).corrections(for: "chiken") == ["chicken"])
        #expect(Typo.Vocabulary(vocabulary).corrections(for: "hafefl") == ["haferflocken"])
        #expect(Typo.Vocabulary(vocabulary).corrections(for: "rics").isEmpty)
        // a whole word before the words it starts: "schokolde" is Schokolade, not Schokoladensoße
        #expect(Typo.Vocabulary(["schokoladensosse", "schokolade"]).corrections(for: "schokolde") == ["schokolade"])
        // two slips in a long word, the first letter kept
        #expect(Typo.Vocabulary(["champignons", "chips"]).corrections(for: "champions") == ["champignons"])
        #expect(Typo.Vocabulary(["croissant", "kroissant"]).corrections(for: "crossaint") == ["croissant"])
        #expect(Typo.Vocabulary(["champignons", "chili"]).corrections(for: "chips").isEmpty)
    }

    /// The indexed corrections against the textbook: the optimal-string-alignment distance
    /// table (Damerau–Levenshtein with adjacent swaps) over every word, on 1,000 random slips of
    /// words of a food vocabulary (seeded, so a failure repeats).
    @Test("indexed corrections agree with the alignment-distance table on 1,000 random slips")
    func correctionsAgreeWithTable() {
        let vocabulary = [
            "apfel", "apfelsaft", "apfelmus", "banane", "bananen", "birne", "brokkoli", "butter", "buttermilch", "champignons",
            "chicken", "chickpeas", "croissant", "erdbeere", "erdbeeren", "frischkase", "haferflocken", "hahnchen", "hahnchenbrust",
            "joghurt", "kartoffel", "kartoffeln", "kartoffelsalat", "kase", "milch", "mozzarella", "nudeln", "paprika", "quark",
            "schnitzel", "schokolade", "spinat", "tomate", "tomaten", "vollkornbrot", "zucchini", "zwiebel", "gurke", "karotte",
        ]
        let index = Typo.Vocabulary(vocabulary)
        var random = SeededGenerator(seed: 29)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        for _ in 0..<1000 {
            var word = Array(vocabulary[Int(random.next() % UInt64(vocabulary.count))])
            // a half-typed word now and then, then one or two slips
            if random.next() % 3 == 0 { word = Array(word.prefix(max(3, word.count - Int(random.next() % 5)))) }
            for _ in 0...(random.next() % 2) {
                let at = Int(random.next() % UInt64(word.count))
                switch random.next() % 4 {
                case 0: word[at] = letters[Int(random.next() % 26)]
                case 1: word.insert(letters[Int(random.next() % 26)], at: at)
                case 2 where word.count > 1: word.remove(at: at)
                default: if at + 1 < word.count { word.swapAt(at, at + 1) }
                }
            }
            let typed = String(word)
            // whole words one slip away; else words whose start is; else, from 8 letters on,
            // whole words two slips away that begin with the same letter
            let others = typed.count < Typo.minimumLength ? [] : vocabulary.filter { $0 != typed }
            let whole = others.filter { alignmentDistance(typed, $0) <= 1 }
            let started = others.filter { candidate in
                guard candidate.count > typed.count + 1, candidate.first == typed.first else { return false }
                return (typed.count - 1...typed.count + 1).contains { alignmentDistance(typed, String(candidate.prefix($0))) <= 1 }
            }
            let twoSlips =
                typed.count < Typo.twoSlipsLength
                ? [] : others.filter { $0.first == typed.first && alignmentDistance(typed, $0) <= 2 }
            let expected = !whole.isEmpty ? whole : !started.isEmpty ? started : twoSlips
            #expect(index.corrections(for: typed) == expected, "\(typed)")
        }
    }

    /// The textbook table: the optimal string alignment distance of `a` and `b`.
    func alignmentDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a)
        let y = Array(b)
        var d = Array(repeating: Array(repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        for i in stride(from: 1, through: x.count, by: 1) {
            for j in stride(from: 1, through: y.count, by: 1) {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[x.count][y.count]
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
