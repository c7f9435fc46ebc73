import Foundation

/// The steps of onboarding (docs/rules.md §2).
public enum OnboardingStep: String, CaseIterable, Codable, Sendable {
    case welcome, sex, age, height, weight, activity, goal
    case goalWeight = "goal_weight"
    case eatingWindow = "eating_window"

    public var title: Message { Message("onboarding.\(rawValue).title") }
    public var subtitle: Message { Message("onboarding.\(rawValue).subtitle") }
}

/// One step's answer.
public enum OnboardingAnswer: Hashable, Sendable {
    case start
    case sex(Sex)
    case age(Int)
    case heightCm(Double)
    case weightKg(Double)
    case activity(ActivityLevel)
    case goal(Goal)
    /// nil: no goal weight (the step is optional).
    case goalWeightKg(Double?)
    case eatingWindow(EatingWindow)

    var step: OnboardingStep {
        switch self {
        case .start: .welcome
        case .sex: .sex
        case .age: .age
        case .heightCm: .height
        case .weightKg: .weight
        case .activity: .activity
        case .goal: .goal
        case .goalWeightKg: .goalWeight
        case .eatingWindow: .eatingWindow
        }
    }
}

/// What onboarding produces: the profile and the cycle's civil start date.
public struct OnboardingResult: Hashable, Sendable {
    public let profile: Profile
    /// Today's local date in the user's zone: programme day 1.
    public let startDate: LocalDate
    public let timeZoneIdentifier: String
}

/// Onboarding as a value: the current step, the answers so far, back navigation that keeps
/// them, and validation that refuses to advance on bad input. The goal-weight step (optional)
/// exists for the goals "lose" and "gain", the eating-window step only for "lose".
public struct Onboarding: Hashable, Sendable {
    public private(set) var step: OnboardingStep = .welcome
    public private(set) var sex: Sex?
    public private(set) var age: Int?
    public private(set) var heightCm: Double?
    public private(set) var weightKg: Double?
    public private(set) var activity: ActivityLevel?
    public private(set) var goal: Goal?
    public private(set) var goalWeightKg: Double?
    public private(set) var eatingWindow: EatingWindow = .standard
    public let language: Language

    public init(language: Language) {
        self.language = language
    }

    /// The steps that apply: all nine until a goal other than "lose" is chosen.
    public var steps: [OnboardingStep] {
        OnboardingStep.allCases.filter { step in
            switch step {
            case .goalWeight: goal != .maintain
            case .eatingWindow: goal == nil || goal == .lose
            default: true
            }
        }
    }

    /// "2 of 8": the 1-based position of the current step among those that apply.
    public var progress: (index: Int, count: Int) {
        ((steps.firstIndex(of: step) ?? 0) + 1, steps.count)
    }

    public var progressMessage: Message {
        Message("onboarding.progress", ["index": .integer(progress.index), "count": .integer(progress.count)])
    }

    /// Every step answered and the last one confirmed.
    public private(set) var isComplete = false

    /// The weight the picker proposes: what was typed, else the default by sex.
    public var proposedWeightKg: Double {
        weightKg ?? WeightTrend.pickerDefault(entries: [], sex: sex ?? .other)
    }

    /// Takes the current step's answer, validates it and moves on. A wrong answer throws
    /// and leaves the state as it was, previous answers included.
    public mutating func answer(_ answer: OnboardingAnswer) throws(ValidationError) {
        guard answer.step == step, !isComplete else {
            throw ValidationError(field: .onboardingStep, allowed: .oneOf([step.rawValue]), received: answer.step.rawValue)
        }
        switch answer {
        case .start: break
        case .sex(let value): sex = value
        case .age(let value):
            try Profile.check(age: value)
            age = value
        case .heightCm(let value):
            try Profile.check(heightCm: value)
            heightCm = value
        case .weightKg(let value):
            try Profile.check(weightKg: value)
            weightKg = Profile.roundedWeight(value)
        case .activity(let value): activity = value
        case .goal(let value):
            if value != goal { goalWeightKg = nil }
            goal = value
        case .goalWeightKg(let value):
            if let value, let goal, let weightKg { try Profile.check(goalWeightKg: value, goal: goal, currentKg: weightKg) }
            goalWeightKg = value.map(Profile.roundedWeight)
        case .eatingWindow(let value): eatingWindow = value
        }
        advance()
    }

    /// Goes one step back, keeping every answer; on the first step it stays. From the
    /// completed state it returns to the last step.
    public mutating func back() {
        if isComplete {
            isComplete = false
            return
        }
        guard let index = steps.firstIndex(of: step), index > 0 else { return }
        step = steps[index - 1]
    }

    private mutating func advance() {
        guard let index = steps.firstIndex(of: step) else { return }
        if index + 1 < steps.count {
            step = steps[index + 1]
        } else {
            isComplete = true
        }
    }

    /// The profile and today's start date, once complete.
    public func result(clock: any Clock, timeZone: TimeZone) throws(ValidationError) -> OnboardingResult {
        guard isComplete, let sex, let age, let heightCm, let weightKg, let activity, let goal else {
            throw ValidationError(
                field: .onboardingStep,
                allowed: .rule(Message("onboarding.error.incomplete")),
                received: step.rawValue
            )
        }
        let profile = try Profile(
            sex: sex,
            age: age,
            heightCm: heightCm,
            weightKg: weightKg,
            activityLevel: activity,
            goal: goal,
            eatingWindow: goal == .lose ? eatingWindow : .standard,
            language: language,
            goalWeightKg: goal == .maintain ? nil : goalWeightKg
        )
        return OnboardingResult(profile: profile, startDate: clock.today(in: timeZone), timeZoneIdentifier: timeZone.identifier)
    }
}

extension ValidationError.Field {
    public static let onboardingStep = Self("onboardingStep")
}
