import Foundation

/// A property value of an analytics event.
public enum AnalyticsValue: Hashable, Sendable, Codable {
    case text(String)
    case integer(Int)
    case flag(Bool)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .flag(flag)
        } else if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else {
            self = .text(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .flag(let value): try container.encode(value)
        }
    }
}

/// The core analytics events (docs/rules.md §9). They stay in the local database and sync like other
/// data; no third party sees them. Properties never carry health values (no weights, no
/// calories): only what a product question needs.
public enum AnalyticsEvent: Hashable, Sendable {
    case onboardingStepCompleted(step: OnboardingStep, index: Int)
    case onboardingCompleted(goal: Goal, language: Language, preset: CyclePreset)
    case mealLogged(hasMacros: Bool, source: MealSource, outsideWindow: Bool)
    case mealEdited
    case mealDeleted
    case weightLogged(replacedSameDay: Bool)
    case phaseSwitched(from: Phase, to: Phase, programmeDay: Int)
    case cycleRecovered(reason: RecoveryReason, programmeDay: Int)
    case streakActivated(days: Int)
    case educationOpened(topic: String)
    case eatingWindowChanged(start: TimeOfDay, end: TimeOfDay)
    case dataExported(format: String)
    /// Another app's history came in: one event for the file, not one per meal, so analytics
    /// and the points' "checked in" day see the day of the import, not thousands of meals.
    case dataImported(format: String, meals: Int, weights: Int)
    case accountDeleted
    case briefingGenerated(hasRecovery: Bool, hasCalendar: Bool)
    case errorOccurred(code: String, surface: String)

    /// How a meal was entered.
    public enum MealSource: String, Codable, Sendable, CaseIterable {
        case manual, search, barcode, text, recent, recipe, copy
        case quickAdd = "quick_add"
        case undo
    }

    /// The snake_case event name.
    public var name: String {
        switch self {
        case .onboardingStepCompleted: "onboarding_step_completed"
        case .onboardingCompleted: "onboarding_completed"
        case .mealLogged: "meal_logged"
        case .mealEdited: "meal_edited"
        case .mealDeleted: "meal_deleted"
        case .weightLogged: "weight_logged"
        case .phaseSwitched: "phase_switched"
        case .cycleRecovered: "cycle_recovered"
        case .streakActivated: "streak_activated"
        case .educationOpened: "education_opened"
        case .eatingWindowChanged: "eating_window_changed"
        case .dataExported: "data_exported"
        case .dataImported: "data_imported"
        case .accountDeleted: "account_deleted"
        case .briefingGenerated: "briefing_generated"
        case .errorOccurred: "error_occurred"
        }
    }

    /// The properties, with snake_case keys.
    public var properties: [String: AnalyticsValue] {
        switch self {
        case let .onboardingStepCompleted(step, index): ["step": .text(step.rawValue), "index": .integer(index)]
        case let .onboardingCompleted(goal, language, preset):
            ["goal": .text(goal.rawValue), "language": .text(language.rawValue), "preset": .text(preset.rawValue)]
        case let .mealLogged(hasMacros, source, outside):
            ["has_macros": .flag(hasMacros), "source": .text(source.rawValue), "outside_window": .flag(outside)]
        case .mealEdited, .mealDeleted, .accountDeleted: [:]
        case .weightLogged(let replaced): ["replaced_same_day": .flag(replaced)]
        case let .phaseSwitched(from, to, day):
            ["from": .text(from.rawValue), "to": .text(to.rawValue), "programme_day": .integer(day)]
        case let .cycleRecovered(reason, day): ["reason": .text(reason.rawValue), "programme_day": .integer(day)]
        case .streakActivated(let days): ["days": .integer(days)]
        case .educationOpened(let topic): ["topic": .text(topic)]
        case let .eatingWindowChanged(start, end): ["start": .text(start.formatted), "end": .text(end.formatted)]
        case .dataExported(let format): ["format": .text(format)]
        case let .dataImported(format, meals, weights): ["format": .text(format), "meals": .integer(meals), "weights": .integer(weights)]
        case let .briefingGenerated(recovery, calendar): ["has_recovery": .flag(recovery), "has_calendar": .flag(calendar)]
        case let .errorOccurred(code, surface): ["code": .text(code), "surface": .text(surface)]
        }
    }
}

/// An event as stored and synced: what happened, when, on which local day, in which zone.
public struct AnalyticsRecord: Hashable, Sendable, Codable {
    public let id: UUID
    public let name: String
    public let occurredAt: Date
    public let localDate: LocalDate
    public let timeZone: String
    public let properties: [String: AnalyticsValue]

    public init(id: UUID, event: AnalyticsEvent, at instant: Date, in timeZone: TimeZone) {
        self.id = id
        name = event.name
        occurredAt = instant
        localDate = LocalDate(instant, in: timeZone)
        self.timeZone = timeZone.identifier
        properties = event.properties
    }

    enum CodingKeys: String, CodingKey {
        case id, name, properties
        case occurredAt = "occurred_at"
        case localDate = "local_date"
        case timeZone = "time_zone"
    }
}
