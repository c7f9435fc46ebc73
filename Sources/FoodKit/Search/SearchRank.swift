/// How search results are ordered (SPEC §6): the user's own foods first — by how often and
/// how recently they were logged — then foods with a short common name, then the rest; within
/// a group, a name typed exactly, then one that starts with the query, then text relevance
/// and shorter names.
public struct SearchRank: Comparable, Hashable, Sendable {
    /// 0: logged by this user; 1: a common food (it has a curated short name); 2: the rest.
    public let tier: Int
    /// Higher first: uses, decayed by age (see `usageScore`).
    public let usage: Double
    /// Shorter names first within a tier: "Banana" before "Bananas, dehydrated".
    public let nameLength: Int
    /// FTS5 bm25: lower is more relevant.
    public let relevance: Double
    /// 0: a name is exactly what was typed ("milk" → "milk"), 1: a name starts with it, 2: other.
    public let exactness: Int

    public init(usage: Double, isCommon: Bool, nameLength: Int, relevance: Double, exactness: Int = 2) {
        tier = usage > 0 ? 0 : isCommon ? 1 : 2
        self.usage = usage
        self.nameLength = nameLength
        self.relevance = relevance
        self.exactness = exactness
    }

    /// How closely `name` (folded) matches the folded query.
    public static func exactness(name: String, query: String) -> Int {
        name == query ? 0 : name.hasPrefix(query) ? 1 : 2
    }

    public static func < (lhs: SearchRank, rhs: SearchRank) -> Bool {
        if lhs.tier != rhs.tier { return lhs.tier < rhs.tier }
        if lhs.usage != rhs.usage { return lhs.usage > rhs.usage }
        if lhs.exactness != rhs.exactness { return lhs.exactness < rhs.exactness }
        if lhs.relevance != rhs.relevance && abs(lhs.relevance - rhs.relevance) > 0.5 { return lhs.relevance < rhs.relevance }
        return lhs.nameLength < rhs.nameLength
    }

    /// Frequency and recency in one number: each use counts 1, halved for every 30 days since
    /// the food was last logged. A food logged 10 times a month ago ranks like 5 uses today.
    public static func usageScore(count: Int, daysSinceLastUse: Int) -> Double {
        guard count > 0 else { return 0 }
        return Double(count) * pow(0.5, Double(max(0, daysSinceLastUse)) / 30)
    }
}

import Foundation
