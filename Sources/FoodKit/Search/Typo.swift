/// Small typo tolerance: one insertion, deletion, substitution or swap of neighbours, for
/// words long enough that one slip does not change their meaning.
public enum Typo {
    /// Words shorter than this must be typed exactly (as a prefix).
    public static let minimumLength = 5
    /// Words this long may hold two slips (then the first letter must be right).
    public static let twoSlipsLength = 8

    /// Whether `a` and `b` are at most one edit apart (Damerau–Levenshtein, adjacent swaps).
    public static func withinOneEdit(_ a: String, _ b: String) -> Bool {
        let x = a.unicodeScalars.map(\.value)
        let y = b.unicodeScalars.map(\.value)
        return withinOneEdit(x, x.count, y, y.count)
    }

    /// Whether the first `m` scalars of `x` and the first `n` of `y` are at most one edit apart.
    static func withinOneEdit(_ x: [UInt32], _ m: Int, _ y: [UInt32], _ n: Int) -> Bool {
        guard abs(m - n) <= 1 else { return false }
        var first = 0
        while first < m && first < n && x[first] == y[first] { first += 1 }
        if first == m || first == n { return true }  // equal, or one is the other plus a last letter
        func same(from i: Int, in x: [UInt32], to xEnd: Int, from j: Int, in y: [UInt32]) -> Bool {
            var (i, j) = (i, j)
            while i < xEnd {
                if x[i] != y[j] { return false }
                i += 1
                j += 1
            }
            return true
        }
        if m == n {
            // a letter replaced, or two neighbours swapped
            if same(from: first + 1, in: x, to: m, from: first + 1, in: y) { return true }
            return first + 1 < m && x[first] == y[first + 1] && x[first + 1] == y[first]
                && same(from: first + 2, in: x, to: m, from: first + 2, in: y)
        }
        // a letter left out of the shorter one
        return m > n
            ? same(from: first + 1, in: x, to: m, from: first, in: y)
            : same(from: first + 1, in: y, to: n, from: first, in: x)
    }

    /// A vocabulary indexed for corrections: by length, and by first letter for the longer
    /// words a half-typed word may begin. Made once (a food database's thousands of words);
    /// a correction then compares only the words of a near length or the same first letter,
    /// without allocating.
    public struct Vocabulary: Sendable {
        let words: [String]
        let scalars: [[UInt32]]
        let byLength: [Int: [Int]]
        let byFirst: [UInt32: [Int]]

        public init(_ vocabulary: some Sequence<String>) {
            words = Array(vocabulary)
            scalars = words.map { $0.unicodeScalars.map(\.value) }
            var byLength: [Int: [Int]] = [:]
            var byFirst: [UInt32: [Int]] = [:]
            for (index, word) in scalars.enumerated() {
                byLength[word.count, default: []].append(index)
                if let first = word.first { byFirst[first, default: []].append(index) }
            }
            self.byLength = byLength
            self.byFirst = byFirst
        }

        /// What `word` was meant to be, in the vocabulary's order: the whole words one edit
        /// away; else the words whose start is one edit away (a half-typed word: "hafefl" →
        /// haferflocken); else, for words of 8 letters or more, whole words two edits away
        /// with the same first letter ("champions" → champignons, "crossaint" → croissant). A
        /// whole word comes first so that "schokolde" is Schokolade, not Schokoladensoße.
        public func corrections(for word: String) -> [String] {
            let typed = word.unicodeScalars.map(\.value)
            let length = typed.count
            guard length >= Typo.minimumLength else { return [] }
            var found: [Int] = []
            for count in length - 1...length + 1 {
                for index in byLength[count, default: []] where scalars[index] != typed {
                    if Typo.withinOneEdit(typed, length, scalars[index], count) { found.append(index) }
                }
            }
            if found.isEmpty {
                // a half-typed word: a longer word with the same first letter whose start is one edit away
                for index in byFirst[typed[0], default: []] where scalars[index].count > length + 1 {
                    let candidate = scalars[index]
                    if (length - 1...length + 1).contains(where: { Typo.withinOneEdit(typed, length, candidate, $0) }) {
                        found.append(index)
                    }
                }
            }
            if found.isEmpty && length >= Typo.twoSlipsLength {
                var rows = AlignmentRows(capacity: length + 3)
                for index in byFirst[typed[0], default: []] where abs(scalars[index].count - length) <= 2 && scalars[index] != typed {
                    if rows.distance(typed, scalars[index], atMost: 2) { found.append(index) }
                }
            }
            return found.sorted().map { words[$0] }
        }
    }
}

/// The optimal string alignment distance (Damerau–Levenshtein with adjacent swaps) by the
/// textbook table, three rows kept between calls, stopping once a row exceeds the bound.
struct AlignmentRows {
    private var before: [Int]
    private var previous: [Int]
    private var current: [Int]

    init(capacity: Int) {
        before = Array(repeating: 0, count: capacity)
        previous = before
        current = before
    }

    /// Whether `x` and `y` are at most `bound` edits apart.
    mutating func distance(_ x: [UInt32], _ y: [UInt32], atMost bound: Int) -> Bool {
        let n = y.count
        if n + 1 > current.count {
            before = Array(repeating: 0, count: n + 1)
            previous = before
            current = before
        }
        for j in 0...n { previous[j] = j }
        for i in 1...max(1, x.count) where !x.isEmpty {
            current[0] = i
            var smallest = i
            for j in stride(from: 1, through: n, by: 1) {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { value = min(value, before[j - 2] + 1) }
                current[j] = value
                smallest = min(smallest, value)
            }
            if smallest > bound { return false }
            (before, previous, current) = (previous, current, before)
        }
        return previous[n] <= bound
    }
}
