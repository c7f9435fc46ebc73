extension ExpansionRun {
    /// The longest look past the window a series needs on either side: how far a
    /// THISANDFUTURE override moves its occurrences plus how long they last, and the longest
    /// RDATE period. At most 400 days, like `maxLength(of:)`.
    func reach(of master: Event, overrides: SeriesOverrides, periods: [Int64: Int64]) -> Int64 {
        let zone = document.rules(for: master.start, floating)
        var reach = periods.values.max() ?? 0
        for (key, override) in overrides.ranges {
            let shift = abs(override.start.civil.secondsAsUTC - replacedStart(key, of: master, zone: zone).secondsAsUTC)
            reach = max(reach, min(shift, 400 * 86400) + Int64(Self.maxLength(of: override)))
        }
        return min(reach, 400 * 86400)
    }

    /// Where a THISANDFUTURE override puts the occurrence that would start at `originalStart`:
    /// its own start, moved on by as much as this occurrence comes after the one it replaced,
    /// in wall time (so a move from Monday 10:00 to Tuesday 14:00 stays 14:00 across DST).
    func shifted(_ originalStart: CivilDateTime, by override: Event, from key: Int64, of master: Event, zone: any ZoneRules) -> CivilDateTime {
        let replaced = replacedStart(key, of: master, zone: zone)
        return CivilDateTime(secondsAsUTC: override.start.civil.secondsAsUTC + (originalStart.secondsAsUTC - replaced.secondsAsUTC))
    }

    /// The wall-clock start, in the series' zone, of the occurrence at series position `key`.
    private func replacedStart(_ key: Int64, of master: Event, zone: any ZoneRules) -> CivilDateTime {
        master.isAllDay ? CivilDateTime(secondsAsUTC: key) : zone.local(for: key)
    }

    /// The length in seconds of every RDATE period, by its series position (an all-day
    /// series keeps its days).
    func periodLengths(of event: Event) -> [Int64: Int64] {
        guard !event.isAllDay, !event.periodEnds.isEmpty else { return [:] }
        var lengths: [Int64: Int64] = [:]
        for (start, end) in event.periodEnds {
            let begin = document.rules(for: start, floating).utc(for: start.civil)
            let length: Int64 =
                switch end {
                case let .duration(seconds): Int64(seconds)
                case let .end(time): document.rules(for: time, floating).utc(for: time.civil) - begin
                }
            lengths[begin] = max(0, length)
        }
        return lengths
    }
}
