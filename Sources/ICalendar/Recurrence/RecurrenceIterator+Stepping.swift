/// The arithmetic of stepping a recurrence from one period to the next.
extension RecurrenceIterator {
    static func barrenLimit(_ frequency: RecurrenceRule.Frequency) -> Int {
        switch frequency {
        case .yearly: 400
        case .monthly: 4800
        case .weekly: 21_000
        case .daily: 146_100
        case .hourly: 24 * 3700
        case .minutely, .secondly: 1_440 * 800
        }
    }

    static func product(_ hours: [Int], _ minutes: [Int], _ seconds: [Int]) -> [(Int, Int, Int)] {
        hours.flatMap { h in minutes.flatMap { m in seconds.map { s in (h, m, s) } } }
    }

    /// Steps `value` by `interval` (mod `modulo`), skipping to the next allowed value when an
    /// allowed list is given, as long as that value is reachable in whole intervals; returns
    /// the carry and the new value.
    static func step(_ value: Int, by interval: Int, modulo: Int, allowed: [Int]) -> (Int, Int) {
        guard !allowed.isEmpty else { return ((value + interval) / modulo, (value + interval) % modulo) }
        var carry = 0
        var current = value
        // The values repeat within `modulo` steps; if no allowed value comes up in that span,
        // none ever will, and one plain step is taken.
        for _ in 0..<modulo {
            let next = current + interval
            carry += next / modulo
            current = next % modulo
            if allowed.contains(current) { return (carry, current) }
        }
        return ((value + interval) / modulo, (value + interval) % modulo)
    }

    static func stepHours(_ hour: Int, hours: Int) -> (Int, Int) {
        ((hour + hours) / 24, (hour + hours) % 24)
    }
}
