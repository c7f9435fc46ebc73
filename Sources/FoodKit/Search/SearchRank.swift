import Foundation

/// Where the name that matched comes from: a curated name in the user's language, a curated
/// name in another language, or the USDA's English description.
public enum NameSource: Int, Comparable, Hashable, Sendable {
    case userLanguage, otherLanguage, usda

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How well one name of a food answers the query; a food ranks by its best name.
public struct NameRank: Comparable, Hashable, Sendable {
    public let match: NameMatch
    public let source: NameSource
    /// The first (shown) name of its language, not an alias.
    public let isPrimary: Bool
    /// Letters of the folded name: the shorter, the more of it was typed.
    public let length: Int

    public init(match: NameMatch, source: NameSource, isPrimary: Bool, length: Int) {
        self.match = match
        self.source = source
        self.isPrimary = isPrimary
        self.length = length
    }

    /// Curated names before USDA descriptions; then how well the name matches; at the same
    /// match the user's language first; then, for a name built around the typed word, the
    /// shown name before an alias, and for a word still being typed the shorter name ("hähn" →
    /// the alias "Hähnchen" is the food's best name, before its shown "Hähnchenbrust"), as
    /// `SearchRank` orders foods.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.key < rhs.key }

    private var key: (Int, Int, Int, Int, Int, Int) {
        let primary = isPrimary ? 0 : 1
        let typing = match.level > NameMatch.wholeWords.level
        return (source == .usda ? 1 : 0, match.level, source.rawValue, typing ? length : primary, typing ? primary : length, match.rawValue)
    }
}

/// How search results are ordered (docs/rules.md §6): the user's own foods first — by how often and
/// how recently they were logged — then by the best matching name (see `NameRank` and
/// `order`): at the same match, foods with more curated names first (the everyday ones: white
/// bread has nine names in three languages, matzo five), then curated foods, text relevance
/// and shorter shown names.
public struct SearchRank: Comparable, Hashable, Sendable {
    /// 0: logged by this user; 1: a common food (it has a curated short name); 2: the rest.
    public let tier: Int
    /// Higher first: uses, decayed by age (see `usageScore`).
    public let usage: Double
    /// The food's best matching name.
    public let name: NameRank
    /// Shorter shown names first at the same match: "Banana" before "Bananas, dehydrated".
    public let nameLength: Int
    /// FTS5 bm25: lower is more relevant.
    public let relevance: Double
    /// How many curated names the food has in all languages: how everyday it is.
    public let popularity: Int
    /// One of the user's own foods: made by them, so before the database's foods whenever
    /// both match by the start of a word ("dinkelm" → "Omas Dinkelmüsli" before "Dinkelmehl").
    public let isOwn: Bool

    public init(
        usage: Double,
        isCommon: Bool,
        name: NameRank,
        popularity: Int = 0,
        nameLength: Int,
        relevance: Double,
        isOwn: Bool = false
    ) {
        tier = usage > 0 ? 0 : isCommon ? 1 : 2
        self.isOwn = isOwn
        self.usage = usage
        self.name = name
        self.popularity = popularity
        self.nameLength = nameLength
        self.relevance = relevance
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        // the user's history ranks among foods whose names answer the words equally well; it
        // never puts a food named around the word ("Caesar Salad mit Hähnchen") before the food
        // named by it ("Hähnchen")
        if lhs.matchClass != rhs.matchClass { return lhs.matchClass < rhs.matchClass }
        if (lhs.tier == 0) != (rhs.tier == 0) { return lhs.tier == 0 }
        if lhs.usage != rhs.usage { return lhs.usage > rhs.usage }
        if lhs.isOwn != rhs.isOwn, max(lhs.name.match.level, rhs.name.match.level) <= NameMatch.wordPrefix.level { return lhs.isOwn }
        let left = lhs.order
        let right = rhs.order
        if left != right { return left < right }
        if lhs.name.match != rhs.name.match { return lhs.name.match < rhs.name.match }
        if lhs.tier != rhs.tier { return lhs.tier < rhs.tier }
        if abs(lhs.relevance - rhs.relevance) > 0.5 { return lhs.relevance < rhs.relevance }
        return lhs.nameLength < rhs.nameLength
    }

    /// How well the food's name answers what was typed, in the classes the history cannot
    /// jump: a curated name before a USDA description; then the name as typed, a name with
    /// the typed word as its head, and any other match (a word of it, a start, a part).
    private var matchClass: (Int, Int) {
        (name.source == .usda ? 1 : 0, min(name.match.level, 2))
    }

    /// Curated names before USDA descriptions, the match, the user's language; then for a name
    /// built around the typed word the shown name before an alias and the more everyday food
    /// before the shorter name ("pan" → "pan blanco" before "pan ácimo"), and for a word still
    /// being typed the shortest completion first ("schok" → "Schokolade").
    private var order: (Int, Int, Int, Int, Int, Int) {
        let head = (name.source == .usda ? 1 : 0, name.match.level, name.source.rawValue)
        let primary = name.isPrimary ? 0 : 1
        return name.match.level <= NameMatch.wholeWords.level
            ? (head.0, head.1, head.2, primary, -popularity, name.length)
            : (head.0, head.1, head.2, name.length, primary, -popularity)
    }

    /// Frequency and recency in one number: each use counts 1, halved for every 30 days since
    /// the food was last logged. A food logged 10 times a month ago ranks like 5 uses today.
    public static func usageScore(count: Int, daysSinceLastUse: Int) -> Double {
        guard count > 0 else { return 0 }
        return Double(count) * pow(0.5, Double(max(0, daysSinceLastUse)) / 30)
    }
}
