import DietCore
import Foundation

/// The day's nutrition emphasis, linking recovery to the MATADOR phase (docs/rules.md §7).
public enum NutritionEmphasis: String, Codable, Sendable {
    /// Red recovery on a diet day: protein first, no deficit beyond the plan.
    case proteinFirstNoExtraDeficit
    /// A diet day with the body ready for it: keep the deficit, protein high.
    case steadyDeficit
    /// Red recovery on a maintenance day: eat the full target, carbohydrates around training.
    case refuel
    /// Maintenance as planned.
    case maintain
    /// Recovery mode with low recovery: words only, no amounts, deficits or targets.
    case restAndNourish
    /// Recovery mode otherwise: regular meals, noticing hunger and fullness.
    case eatRegularly

    /// - Parameter recoveryMode: the user counts nothing (docs/rules.md §8): the emphasis speaks of
    ///   rest and regular meals, never of deficits, targets or macros, whatever the phase.
    public static func of(zone: RecoveryZone, phase: Phase?, recoveryMode: Bool = false) -> NutritionEmphasis? {
        if recoveryMode { return zone == .red ? .restAndNourish : .eatRegularly }
        guard let phase else { return nil }
        switch (phase, zone) {
        case (.diet, .red): return .proteinFirstNoExtraDeficit
        case (.diet, _): return .steadyDeficit
        case (_, .red): return .refuel
        default: return .maintain
        }
    }

    public var message: Message {
        switch self {
        case .restAndNourish: Message("web.briefing.calm.rest")
        case .eatRegularly: Message("web.briefing.calm.regular")
        default: Message("readyday.nutrition.\(rawValue)")
        }
    }
}

/// A warning before a demanding event on a day of low recovery (recovery < 50 %).
public struct PreMeetingAlert: Hashable, Codable, Sendable {
    public static let threshold = 50
    public static let lead: TimeInterval = 15 * 60

    public let event: CalendarEvent
    public let alertAt: Date
    public let message: Message
}

/// Everything the morning screen shows.
public struct DayBriefing: Hashable, Codable, Sendable {
    public let date: LocalDate
    public let zone: RecoveryZone
    public let recovery: Recovery?
    public let sleep: Sleep?
    /// nil without a calendar; empty on a free day.
    public let events: [ClassifiedEvent]?
    public let load: Double?
    public let recommendations: [Recommendation]
    public let workoutWindows: [WorkoutWindow]
    public let alerts: [PreMeetingAlert]
    public let nutrition: NutritionEmphasis?
    /// What the briefing is missing, so the screen can say so.
    public let notes: [Message]
}

/// What the briefing is made from; any source may be missing.
public struct BriefingInput: Sendable {
    public var date: LocalDate
    public var timeZone: TimeZone
    public var now: Date
    public var recovery: Recovery?
    public var sleep: Sleep?
    /// nil: no calendar connected (not the same as a day without events).
    public var events: [CalendarEvent]?
    public var phase: Phase?
    public var preferences: WorkoutPreferences
    /// When WHOOP data was last fetched, for the "last updated" note.
    public var whoopUpdatedAt: Date?
    public var whoopConnected: Bool
    /// Recovery mode (docs/rules.md §8): the nutrition emphasis without numbers, deficits or targets.
    public var recoveryMode = false

    public init(
        date: LocalDate,
        timeZone: TimeZone,
        now: Date,
        recovery: Recovery? = nil,
        sleep: Sleep? = nil,
        events: [CalendarEvent]? = nil,
        phase: Phase? = nil,
        preferences: WorkoutPreferences = WorkoutPreferences(),
        whoopUpdatedAt: Date? = nil,
        whoopConnected: Bool = false
    ) {
        self.date = date
        self.timeZone = timeZone
        self.now = now
        self.recovery = recovery
        self.sleep = sleep
        self.events = events
        self.phase = phase
        self.preferences = preferences
        self.whoopUpdatedAt = whoopUpdatedAt
        self.whoopConnected = whoopConnected
    }
}

public enum BriefingGenerator {
    /// Recovery older than this is shown as stale.
    public static let staleAfter: TimeInterval = 36 * 3600

    public static func generate(_ input: BriefingInput, rules: [any RecommendationRule] = RecommendationEngine.defaultRules) -> DayBriefing {
        let zone = input.recovery?.zone ?? .unknown
        let dayStart = input.date.instant(at: TimeOfDay(minutesSinceMidnight: 0), in: input.timeZone)
        let dayEnd = input.date.adding(days: 1).instant(at: TimeOfDay(minutesSinceMidnight: 0), in: input.timeZone)
        let classified = input.events.map { events in
            events.filter { $0.end > dayStart && $0.start < dayEnd }.sorted { $0.start < $1.start }
                .map { DemandClassifier.classify($0, timeZone: input.timeZone) }
        }
        let load = classified.map(CalendarLoad.score)
        let context = BriefingContext(
            zone: zone,
            recovery: input.recovery,
            sleep: input.sleep,
            events: classified ?? [],
            load: load,
            phase: input.phase,
            timeZone: input.timeZone,
            recoveryMode: input.recoveryMode
        )
        var alerts: [PreMeetingAlert] = []
        if let score = input.recovery?.score, score < PreMeetingAlert.threshold {
            for item in classified ?? [] where item.demand == .high && item.event.blocksTime && !item.event.isAllDay {
                alerts.append(
                    PreMeetingAlert(
                        event: item.event,
                        alertAt: item.event.start.addingTimeInterval(-PreMeetingAlert.lead),
                        message: Message("readyday.alert.body", ["event": .text(item.event.title), "score": .integer(score)])
                    )
                )
            }
        }
        var notes: [Message] = []
        if !input.whoopConnected {
            notes.append(Message("readyday.note.noWhoop"))
        } else if input.recovery?.score == nil {
            notes.append(Message("readyday.note.notScored"))
        }
        if let recorded = input.recovery?.recordedAt, input.now.timeIntervalSince(recorded) > staleAfter {
            notes.append(
                Message(
                    "readyday.note.stale",
                    [
                        "date": .date(LocalDate(recorded, in: input.timeZone)),
                        "time": .time(TimeOfDay(recorded, in: input.timeZone)),
                    ]
                )
            )
        }
        if input.events == nil { notes.append(Message("readyday.note.noCalendar")) }
        // neither source: one clear thing instead of two notes that contradict each other
        if !input.whoopConnected && input.events == nil { notes = [Message(BriefingNote.noSources)] }
        return DayBriefing(
            date: input.date,
            zone: zone,
            recovery: input.recovery,
            sleep: input.sleep,
            events: classified,
            load: load,
            recommendations: RecommendationEngine.recommendations(for: context, rules: rules),
            workoutWindows: WorkoutWindowFinder.windows(
                on: input.date,
                events: input.events ?? [],
                zone: zone,
                preferences: input.preferences,
                timeZone: input.timeZone,
                now: input.now,
                recoveryScore: input.recovery?.score
            ),
            alerts: alerts,
            nutrition: NutritionEmphasis.of(zone: zone, phase: input.phase, recoveryMode: input.recoveryMode),
            notes: notes
        )
    }
}

/// The notes of a briefing that surfaces look for.
public enum BriefingNote {
    /// Neither WHOOP nor a calendar: "Nothing to brief yet: connect WHOOP or add a calendar…".
    public static let noSources = "readyday.note.noSources"
}
