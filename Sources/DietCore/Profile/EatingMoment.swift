import Foundation

/// One of the 2–5 eating moments chosen at onboarding (docs/rules.md §2), the meal slots that
/// group a day's meals: "Meal 2 · 15:00".
public struct EatingMoment: Hashable, Sendable, Codable {
    /// 1-based, in the order of the day.
    public let number: Int
    public let time: TimeOfDay

    public init(number: Int, time: TimeOfDay) {
        self.number = number
        self.time = time
    }

    /// "Meal 2 · 15:00" in the user's language.
    public var label: Message {
        Message("meal.moment", ["number": .integer(number), "time": .time(time)])
    }
}

extension EatingWindow {
    /// The eating moments of the day, numbered from 1.
    public var eatingMoments: [EatingMoment] {
        moments.enumerated().map { EatingMoment(number: $0.offset + 1, time: $0.element) }
    }

    /// The moment a meal at `time` belongs to: the current or the next one, i.e. the moment
    /// nearest on the clock (around midnight too); exactly halfway between two, the later one.
    public func moment(at time: TimeOfDay) -> Int {
        func distance(_ moment: TimeOfDay) -> (minutes: Int, after: Bool) {
            let forward = ((moment.minutesSinceMidnight - time.minutesSinceMidnight) % 1440 + 1440) % 1440
            return forward <= 1440 - forward ? (forward, false) : (1440 - forward, true)
        }
        let ranked = eatingMoments.min { a, b in
            let (da, db) = (distance(a.time), distance(b.time))
            return da.minutes != db.minutes ? da.minutes < db.minutes : (!da.after && db.after)
        }
        return ranked?.number ?? 1
    }

    /// A stored moment number kept within today's moments (the user may have chosen fewer
    /// since); nil stays nil, so the meal falls back to its time.
    public func clampedMoment(_ number: Int?) -> Int? {
        number.map { min(max(1, $0), max(1, moments.count)) }
    }

    /// A moment number a person chose (typed or picked), within this day's moments; nil when
    /// none was given.
    public func chosenMoment(_ text: String?) throws(ValidationError) -> Int? {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return try NumberInput.whole(text, field: .eatingMoment, range: 1...max(1, moments.count), unit: nil)
    }

    /// The moment a meal is shown under: its own, kept within today's moments, else by time.
    public func moment(of meal: MealEntry) -> Int {
        clampedMoment(meal.moment) ?? moment(at: meal.localTime)
    }
}
