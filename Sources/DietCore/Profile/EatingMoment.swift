import Foundation

/// One of the 2–5 eating moments chosen at onboarding (docs/rules.md §2 and §4), the meal slots
/// that group a day's meals, named as people say them: "Frühstück · 07:30".
public struct EatingMoment: Hashable, Sendable, Codable {
    /// 1-based, in the order of the day: the moment's identity (its name may change).
    public let number: Int
    public let time: TimeOfDay
    /// What its time makes it (breakfast before 10:30, …): its default name, and the meals
    /// whose time fits that name go to it.
    public let kind: Kind
    /// The name the user gave it, nil for the default.
    public let customName: String?

    public init(number: Int, time: TimeOfDay, kind: Kind, customName: String? = nil) {
        self.number = number
        self.time = time
        self.kind = kind
        self.customName = customName
    }

    /// What a meal at a time of day is called (docs/rules.md §4): before 10:30 breakfast,
    /// 10:30–11:30 second breakfast where there are 4–5 moments, 11:30–14:30 lunch, 14:30–17:00
    /// afternoon, 17:00–21:30 dinner, else snack.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case breakfast, secondBreakfast, lunch, afternoon, dinner, snack

        public init(time: TimeOfDay, momentCount: Int) {
            switch time.minutesSinceMidnight {
            case ..<(10 * 60 + 30): self = .breakfast
            case ..<(11 * 60 + 30): self = momentCount >= 4 ? .secondBreakfast : .snack
            case ..<(14 * 60 + 30): self = .lunch
            case ..<(17 * 60): self = .afternoon
            case ..<(21 * 60 + 30): self = .dinner
            default: self = .snack
            }
        }

        /// "Frühstück" in the user's language.
        public var nameMessage: Message { Message("moment.\(rawValue)") }
    }

    /// The moment's name: the user's, else its kind's.
    public var name: Message {
        customName.map { Message("moment.custom", ["name": .text($0)]) } ?? kind.nameMessage
    }

    /// "Frühstück · 07:30" in the user's language.
    public var label: Message {
        Message("meal.moment", ["name": .message(name), "time": .time(time)])
    }
}

extension EatingWindow {
    /// The eating moments of the day, numbered from 1, each with its kind and name.
    public var eatingMoments: [EatingMoment] {
        moments.enumerated().map { index, time in
            EatingMoment(
                number: index + 1,
                time: time,
                kind: EatingMoment.Kind(time: time, momentCount: moments.count),
                customName: names.indices.contains(index) ? names[index] : nil
            )
        }
    }

    /// The moment a meal at `time` belongs to (docs/rules.md §4): the moment whose name fits the
    /// time (a 10:00 meal is breakfast, whatever moment is nearer), the nearest of them where
    /// several do; where none does, the moment nearest on the clock (around midnight too);
    /// exactly halfway between two, the later one.
    public func moment(at time: TimeOfDay) -> Int {
        let all = eatingMoments
        let kind = EatingMoment.Kind(time: time, momentCount: all.count)
        let fitting = all.filter { $0.kind == kind }
        return Self.nearest(to: time, among: fitting.isEmpty ? all : fitting)?.number ?? 1
    }

    private static func nearest(to time: TimeOfDay, among moments: [EatingMoment]) -> EatingMoment? {
        func distance(_ moment: TimeOfDay) -> (minutes: Int, after: Bool) {
            let forward = ((moment.minutesSinceMidnight - time.minutesSinceMidnight) % 1440 + 1440) % 1440
            return forward <= 1440 - forward ? (forward, false) : (1440 - forward, true)
        }
        return moments.min { a, b in
            let (da, db) = (distance(a.time), distance(b.time))
            return da.minutes != db.minutes ? da.minutes < db.minutes : (!da.after && db.after)
        }
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
