/// The overrides (RECURRENCE-ID) of one series, keyed by the series position they replace.
/// When a calendar holds several copies of one override (a feed that merged an invitation and
/// its updates), only the copy that supersedes the others is kept (`Event.supersedes`).
struct SeriesOverrides {
    /// Overrides of one occurrence.
    private(set) var single: [Int64: Event] = [:]
    /// RANGE=THISANDFUTURE overrides, by the position they start from.
    private var rangesByKey: [Int64: Event] = [:]
    /// The keys of `rangesByKey`, sorted (set by `seal()`).
    private var rangeKeys: [Int64] = []

    mutating func add(_ event: Event, key: Int64) {
        if event.isThisAndFuture {
            if rangesByKey[key].map({ event.supersedes($0) }) ?? true { rangesByKey[key] = event }
        } else if single[key].map({ event.supersedes($0) }) ?? true {
            single[key] = event
        }
    }

    /// Sorts the ranges once all overrides are added.
    mutating func seal() {
        rangeKeys = rangesByKey.keys.sorted()
    }

    var ranges: [(key: Int64, event: Event)] {
        rangeKeys.compactMap { key in rangesByKey[key].map { (key, $0) } }
    }

    /// What replaces the occurrence at `key`: its own override, or the THISANDFUTURE override
    /// in force there (the latest one starting at or before it), whichever is newer. `range`
    /// is the position the THISANDFUTURE override starts from, when that one applies.
    func replacement(at key: Int64) -> (event: Event, range: Int64?)? {
        let own = single[key]
        guard let rangeKey = latestRange(atOrBefore: key), let range = rangesByKey[rangeKey] else {
            return own.map { ($0, nil) }
        }
        if let own, !range.supersedes(own) { return (own, nil) }
        return (range, rangeKey)
    }

    /// The overrides at positions not in `used` (their series is missing or no longer has
    /// that occurrence): each stands on its own.
    func unused(_ used: Set<Int64>) -> [(key: Int64, event: Event)] {
        var result: [Int64: Event] = [:]
        for (key, event) in single where !used.contains(key) { result[key] = event }
        for (key, event) in rangesByKey where !used.contains(key) {
            if result[key].map({ event.supersedes($0) }) ?? true { result[key] = event }
        }
        return result.map { ($0.key, $0.value) }
    }

    /// Binary search in the sorted range keys.
    private func latestRange(atOrBefore key: Int64) -> Int64? {
        var low = 0
        var high = rangeKeys.count
        while low < high {
            let middle = (low + high) / 2
            if rangeKeys[middle] <= key { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : rangeKeys[low - 1]
    }
}
