/// Expands a recurrence rule into wall-clock occurrences, in order (RFC 5545 §3.3.10).
///
/// Each period of the rule's frequency (a year, a month, a week, a day, an hour …) is turned
/// into its candidate days and times, the BYxxx parts filter them, BYSETPOS picks from the
/// period's set, and candidates from DTSTART on are emitted until COUNT or UNTIL. A rule that
/// can never produce an instance (BYMONTHDAY=30;BYMONTH=2) ends after a bounded search, never
/// an endless loop. `stepLimit` bounds the work of a hostile rule: the iterator stops there and
/// says so in `isCutShort`.
public struct RecurrenceIterator: IteratorProtocol, Sequence {
    let rule: RecurrenceRule
    let start: CivilDateTime
    let until: CivilDateTime?
    var emitted = 0
    var finished = false

    // The current period.
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int
    var info: YearInfo
    var timeset: [(Int, Int, Int)]
    /// The current period's candidates: every time of `pendingTimes` on every day of
    /// `pendingDays` (produced one by one: a yearly rule with every hour, minute and second has
    /// 31 million), or the few picked by BYSETPOS.
    var pendingDays: [Int] = []
    var pendingTimes: [(Int, Int, Int)] = []
    var pendingPicked: [CivilDateTime]?
    var pendingCount = 0
    var pendingIndex = 0
    /// Work done so far: periods, days and candidates looked at.
    public private(set) var steps = 0
    /// The work after which the iterator stops (and sets `isCutShort`).
    public var stepLimit = Int.max
    /// Whether the iterator stopped at `stepLimit` rather than at the rule's end.
    public private(set) var isCutShort = false
    /// Periods in a row that produced nothing; a rule that never matches stops.
    var barren = 0
    /// Yearly rules with BYWEEKNO run over week-numbering years (the year of DTSTART's week).
    var weekYear: Int

    // The BYxxx parts, normalised as dateutil-style sets.
    let byMonth: Set<Int>
    let byMonthDay: Set<Int>
    let byNegativeMonthDay: Set<Int>
    let byYearDay: Set<Int>
    let byWeekday: Set<Int>
    let byNthWeekday: [RecurrenceRule.WeekdayNum]
    let byHour: [Int]
    let byMinute: [Int]
    let bySecond: [Int]

    /// - Parameters:
    ///   - until: UNTIL as a wall-clock time in the event's zone (the caller converts a UTC UNTIL).
    public init(rule: RecurrenceRule, start: CivilDateTime, until: CivilDateTime?) {
        self.rule = rule
        self.start = start
        self.until = until
        year = start.year
        month = start.month
        day = start.day
        hour = start.hour
        minute = start.minute
        second = start.second

        var byMonth = Set(rule.byMonth)
        var byMonthDay = Set(rule.byMonthDay.filter { $0 > 0 })
        let byNegativeMonthDay = Set(rule.byMonthDay.filter { $0 < 0 })
        var byWeekday = Set<Int>()
        var byNth: [RecurrenceRule.WeekdayNum] = []
        for item in rule.byDay {
            if let ordinal = item.ordinal, rule.frequency <= .monthly {
                byNth.append(.init(weekday: item.weekday, ordinal: ordinal))
            } else {
                byWeekday.insert(item.weekday)
            }
        }
        // Week numbers without a weekday mean DTSTART's weekday in those weeks, and a yearly
        // day of the month without a month means DTSTART's month (as libical reads them).
        if !rule.byWeekNo.isEmpty, rule.byDay.isEmpty, rule.byMonthDay.isEmpty, rule.byYearDay.isEmpty {
            byWeekday = [Civil.weekday(dayNumber: start.dayNumber)]
        }
        if rule.frequency == .yearly, !rule.byMonthDay.isEmpty, rule.byMonth.isEmpty, rule.byWeekNo.isEmpty, rule.byYearDay.isEmpty {
            byMonth = [start.month]
        }
        // Without any day part, the rule repeats DTSTART's day of the month / of the week.
        if rule.byWeekNo.isEmpty, rule.byYearDay.isEmpty, rule.byMonthDay.isEmpty, rule.byDay.isEmpty {
            switch rule.frequency {
            case .yearly:
                if byMonth.isEmpty { byMonth = [start.month] }
                byMonthDay = [start.day]
            case .monthly:
                byMonthDay = [start.day]
            case .weekly:
                byWeekday = [Civil.weekday(dayNumber: start.dayNumber)]
            default:
                break
            }
        }
        self.byMonth = byMonth
        self.byMonthDay = byMonthDay
        self.byNegativeMonthDay = byNegativeMonthDay
        byYearDay = Set(rule.byYearDay)
        self.byWeekday = byWeekday
        byNthWeekday = byNth
        byHour = rule.byHour.isEmpty ? (rule.frequency < .hourly ? [start.hour] : []) : Set(rule.byHour).sorted()
        byMinute = rule.byMinute.isEmpty ? (rule.frequency < .minutely ? [start.minute] : []) : Set(rule.byMinute).sorted()
        bySecond = rule.bySecond.isEmpty ? (rule.frequency < .secondly ? [start.second] : []) : Set(rule.bySecond).sorted()

        info = YearInfo(year: start.year, rule: rule)
        weekYear = WeekYear.containing(dayNumber: start.dayNumber, weekStart: rule.weekStart)
        timeset = []
        timeset = rule.frequency < .hourly ? Self.product(byHour, byMinute, bySecond) : makeTimeset()
        info.rebuildMonthMasks(month: month, byNthWeekday: byNthWeekday, frequency: rule.frequency, hasByMonth: !byMonth.isEmpty)
    }

    /// Jumps whole intervals ahead so the current period is the last one starting at or before
    /// `target`, without producing the occurrences in between. Only for rules without COUNT
    /// (which must count from DTSTART) and before the first `next()`: a calendar's window far
    /// after DTSTART (an event repeating since 1990, or a mistyped year 0226) costs nothing.
    public mutating func skip(toPeriodContaining target: CivilDateTime) {
        guard rule.count == nil, emitted == 0, pendingCount == 0, target > start else { return }
        let current = CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        switch rule.frequency {
        case .yearly:
            let steps = (target.year - year) / rule.interval
            guard steps > 0 else { return }
            year += steps * rule.interval
            weekYear += steps * rule.interval
            rebuildYear()
        case .monthly:
            let months = (target.year * 12 + target.month) - (year * 12 + month)
            let steps = months / rule.interval
            guard steps > 0 else { return }
            let total = year * 12 + (month - 1) + steps * rule.interval
            year = total / 12
            month = total % 12 + 1
            rebuildYear()
        case .weekly, .daily:
            let unit = rule.frequency == .weekly ? 7 * rule.interval : rule.interval
            let steps = (target.dayNumber - current.dayNumber) / unit
            guard steps > 0 else { return }
            let moved = CivilDateTime(dayNumber: current.dayNumber + steps * unit)
            (year, month, day) = (moved.year, moved.month, moved.day)
            rebuildYear()
        case .hourly, .minutely, .secondly:
            let unit: Int64 =
                switch rule.frequency {
                case .hourly: 3600
                case .minutely: 60
                default: 1
                }
            let span = unit * Int64(rule.interval)
            let steps = (target.secondsAsUTC - current.secondsAsUTC) / span
            guard steps > 0 else { return }
            let moved = CivilDateTime(secondsAsUTC: current.secondsAsUTC + steps * span)
            (year, month, day, hour, minute, second) = (moved.year, moved.month, moved.day, moved.hour, moved.minute, moved.second)
            rebuildYear()
            timeset = makeTimeset()
        }
    }

    public mutating func next() -> CivilDateTime? {
        while !finished {
            guard steps < stepLimit else {
                finished = true
                isCutShort = true
                return nil
            }
            if pendingIndex < pendingCount {
                let candidate = pendingCandidate(pendingIndex)
                pendingIndex += 1
                steps += 1
                if let until, candidate > until {
                    finished = true
                    return nil
                }
                if candidate >= start {
                    if let count = rule.count, emitted >= count {
                        finished = true
                        return nil
                    }
                    emitted += 1
                    return candidate
                }
                continue
            }
            pendingIndex = 0
            fillPeriod()
            steps += 1
            if pendingCount == 0 {
                barren += 1
                // A rule that matched nothing for a long stretch never will (or only so
                // rarely that it is not a real calendar): stop.
                if barren > Self.barrenLimit(rule.frequency) { finished = true }
            } else {
                barren = 0
            }
            advance()
        }
        return nil
    }

    /// The candidates of the current period, in order.
    private mutating func fillPeriod() {
        pendingPicked = nil
        pendingCount = 0
        guard year >= 1, year <= 9999, weekYear <= 9999 else {
            finished = true
            return
        }
        let days: [Int]
        if rule.frequency == .yearly, !rule.byWeekNo.isEmpty {
            let weekDays = WeekYear.days(of: weekYear, weekStart: rule.weekStart, weeks: rule.byWeekNo)
            steps += weekDays.count
            days = weekDays.filter { accepts(dayNumber: $0, index: nil) }
        } else {
            let indexes = dayIndexes()
            steps += indexes.count
            days = indexes.map { info.firstDayNumber + $0 }.filter { accepts(dayNumber: $0, index: $0 - info.firstDayNumber) }
        }
        pendingDays = days
        pendingTimes = timeset
        if !rule.bySetPos.isEmpty, !timeset.isEmpty {
            var chosen = Set<CivilDateTime>()
            let total = days.count * timeset.count
            for position in rule.bySetPos {
                let index = position > 0 ? position - 1 : total + position
                guard index >= 0, index < total else { continue }
                chosen.insert(product(index))
            }
            steps += rule.bySetPos.count
            pendingPicked = chosen.sorted()
            pendingCount = chosen.count
        } else {
            pendingCount = days.count * timeset.count
        }
    }

    /// The candidate at `index` of the period's days × times.
    private func product(_ index: Int) -> CivilDateTime {
        let time = pendingTimes[index % pendingTimes.count]
        return CivilDateTime(dayNumber: pendingDays[index / pendingTimes.count], hour: time.0, minute: time.1, second: time.2)
    }

    private func pendingCandidate(_ index: Int) -> CivilDateTime {
        pendingPicked.map { $0[index] } ?? product(index)
    }

    /// The days of this period that BYMONTH allows, as indexes into the current year: a yearly
    /// rule with BYMONTH (every birthday) looks at its months only, not at all 365 days.
    private func dayIndexes() -> [Int] {
        guard rule.frequency == .yearly, !byMonth.isEmpty else { return Array(dayRange()) }
        return byMonth.sorted().flatMap { info.monthStart[$0 - 1]..<info.monthStart[$0] }
    }

    /// The days of this period as indexes into the current year (a week may reach into the
    /// years before and after).
    private func dayRange() -> Range<Int> {
        let dayOfYear = Civil.dayNumber(year: year, month: month, day: day) - info.firstDayNumber
        switch rule.frequency {
        case .yearly:
            return 0..<info.yearLength
        case .monthly:
            return info.monthStart[month - 1]..<info.monthStart[month]
        case .weekly:
            // The whole week around this day, so BYSETPOS counts from the week's start.
            let first = dayOfYear - (info.weekday(dayOfYear) - rule.weekStart + 7) % 7
            return first..<first + 7
        default:
            return dayOfYear..<dayOfYear + 1
        }
    }

    /// Whether a day passes the BYxxx day parts. `index` (into the current year) is given when
    /// the ordinal-weekday mask of the current year applies.
    private func accepts(dayNumber: Int, index: Int?) -> Bool {
        let (dayYear, dayMonth, monthDay) = Civil.date(dayNumber: dayNumber)
        if !byMonth.isEmpty, !byMonth.contains(dayMonth) { return false }
        if !byWeekday.isEmpty, !byWeekday.contains(Civil.weekday(dayNumber: dayNumber)) { return false }
        if !byNthWeekday.isEmpty {
            guard let index, info.nthWeekdayMask.contains(index) else { return false }
        }
        if !byMonthDay.isEmpty || !byNegativeMonthDay.isEmpty,
            !byMonthDay.contains(monthDay), !byNegativeMonthDay.contains(monthDay - Civil.daysInMonth(dayYear, dayMonth) - 1)
        {
            return false
        }
        if !byYearDay.isEmpty {
            let yearDay = dayNumber - Civil.dayNumber(year: dayYear, month: 1, day: 1) + 1
            if !byYearDay.contains(yearDay), !byYearDay.contains(yearDay - Civil.daysInYear(dayYear) - 1) { return false }
        }
        return true
    }

    /// Moves to the next period.
    private mutating func advance() {
        var fixDay = false
        switch rule.frequency {
        case .yearly:
            year += rule.interval
            weekYear += rule.interval
            rebuildYear()
        case .monthly:
            month += rule.interval
            if month > 12 {
                year += (month - 1) / 12
                month = (month - 1) % 12 + 1
                rebuildYear()
            } else {
                info.rebuildMonthMasks(month: month, byNthWeekday: byNthWeekday, frequency: rule.frequency, hasByMonth: !byMonth.isEmpty)
            }
        case .weekly:
            let weekday = Civil.weekday(dayNumber: Civil.dayNumber(year: year, month: month, day: day))
            let back = (weekday - rule.weekStart + 7) % 7
            day += rule.interval * 7 - back
            fixDay = true
        case .daily:
            day += rule.interval
            fixDay = true
        case .hourly:
            let (days, next) = Self.step(hour, by: rule.interval, modulo: 24, allowed: rule.byHour)
            hour = next
            if days > 0 {
                day += days
                fixDay = true
            }
            timeset = makeTimeset()
        case .minutely:
            let (hours, next) = Self.step(minute, by: rule.interval, modulo: 60, allowed: rule.byMinute)
            minute = next
            if hours > 0 {
                let (days, nextHour) = Self.stepHours(hour, hours: hours)
                hour = nextHour
                if days > 0 {
                    day += days
                    fixDay = true
                }
            }
            timeset = makeTimeset()
        case .secondly:
            let (minutes, next) = Self.step(second, by: rule.interval, modulo: 60, allowed: rule.bySecond)
            second = next
            if minutes > 0 {
                let total = minute + minutes
                minute = total % 60
                let (days, nextHour) = Self.stepHours(hour, hours: total / 60)
                hour = nextHour
                if days > 0 {
                    day += days
                    fixDay = true
                }
            }
            timeset = makeTimeset()
        }
        if fixDay {
            // Carry days over month and year ends.
            while day > Civil.daysInMonth(year, month) {
                day -= Civil.daysInMonth(year, month)
                month += 1
                if month > 12 {
                    month = 1
                    year += 1
                }
            }
            if year != info.year {
                rebuildYear()
            } else if rule.frequency <= .monthly {
                info.rebuildMonthMasks(month: month, byNthWeekday: byNthWeekday, frequency: rule.frequency, hasByMonth: !byMonth.isEmpty)
            }
        }
    }

    private mutating func rebuildYear() {
        guard year <= 9999 else {
            finished = true
            return
        }
        info = YearInfo(year: year, rule: rule)
        info.rebuildMonthMasks(month: month, byNthWeekday: byNthWeekday, frequency: rule.frequency, hasByMonth: !byMonth.isEmpty)
    }

    /// For sub-daily rules: the times of the current hour/minute/second allowed by BYxxx.
    private func makeTimeset() -> [(Int, Int, Int)] {
        switch rule.frequency {
        case .hourly:
            guard rule.byHour.isEmpty || rule.byHour.contains(hour) else { return [] }
            return Self.product([hour], byMinute, bySecond)
        case .minutely:
            guard rule.byHour.isEmpty || rule.byHour.contains(hour), rule.byMinute.isEmpty || rule.byMinute.contains(minute) else { return [] }
            return Self.product([hour], [minute], bySecond)
        case .secondly:
            guard rule.byHour.isEmpty || rule.byHour.contains(hour), rule.byMinute.isEmpty || rule.byMinute.contains(minute),
                rule.bySecond.isEmpty || rule.bySecond.contains(second)
            else { return [] }
            return [(hour, minute, second)]
        default:
            return Self.product(byHour, byMinute, bySecond)
        }
    }
}
