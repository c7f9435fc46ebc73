import ArgumentParser
import DietCore
import DietStore
import Foundation

/// `wdiet onboard`: the eight onboarding steps (docs/rules.md §2), from flags or by asking.
struct OnboardCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "onboard",
        abstract: "Create your profile and start your cycle today (asks for anything not given as a flag)."
    )

    @Option(help: "male, female or other.") var sex: Sex?
    @Option(help: "Age in years, 18–99.") var age: TypedNumber?
    @Option(help: "Height in cm, 100–250.") var height: TypedNumber?
    @Option(help: "Weight in kg, 30.0–200.0 (decimal comma or point).") var weight: TypedNumber?
    @Option(help: "sedentary, light, moderate, active or very-active.") var activity: ActivityLevel?
    @Option(help: "lose, maintain or gain.") var goal: Goal?
    @Option(help: "Goal weight in kg, 30.0–200.0, below your weight to lose, above it to gain (optional).") var goalWeight: TypedNumber?
    @Option(help: "Eating window for weight loss, e.g. 12:00-18:00.") var window: String?
    @Option(help: "Eating moments inside the window, e.g. 12:00,15:00,18:00.") var moments: String?
    @Option(help: "Diet-day deficit, 0.10–0.35.") var deficit: TypedNumber?
    @Option(help: "open-ended or study.") var preset: CyclePreset?
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        if session.settings != nil { throw CLIError(StoreError.alreadyOnboarded.message(l)) }
        var prompter = Prompter(context: context, localizer: l)
        var onboarding = Onboarding(language: session.language)
        try onboarding.answer(.start)
        while !onboarding.isComplete {
            let step = onboarding.step
            let answer = try session.run { try flagAnswer(for: step, l) } ?? prompter.ask(onboarding)
            do {
                try onboarding.answer(answer)
            } catch {
                // a bad flag is final; a bad typed answer is asked again
                if try session.run({ try flagAnswer(for: step, l) }) != nil { throw CLIError(l.render(error.message)) }
                prompter.say(l.render(error.message))
            }
        }
        let result = try session.run { try onboarding.result(clock: session.clock, timeZone: session.timeZone) }
        if let goalWeight, result.profile.goal == .maintain {
            throw CLIError(
                l.render(
                    DietCore.ValidationError(field: .goalWeight, allowed: .rule(Message("allowed.goalWeight.maintain")), received: goalWeight.text)
                        .message
                )
            )
        }
        let typedDeficit = try session.run { try deficit?.value(.deficit, Profile.deficitRange, digits: 2, unit: nil) }
        let profile = result.profile.applying(preset: preset, deficit: typedDeficit)
        try session.run { try profile.validate() }
        try session.run { try session.store.completeOnboarding(profile, timeZone: session.timeZone) }
        let plan = EnergyPlan(profile: profile, on: result.startDate)
        let target = profile.goal == .lose ? plan.targets(.maintenance) : plan.targets(plan.staticKind)
        return (prompter.transcript + [l.text("cli.onboard.done", ["date": .date(result.startDate), "kcal": .integer(target.kcal)])])
            .joined(separator: "\n")
    }

    private var allRequiredFlags: Bool {
        sex != nil && age != nil && height != nil && weight != nil && activity != nil && goal != nil
    }

    /// The answer a flag gives for `step`, if that flag was set.
    private func flagAnswer(for step: OnboardingStep, _ l: Localizer) throws -> OnboardingAnswer? {
        switch step {
        case .welcome: .start
        case .sex: sex.map(OnboardingAnswer.sex)
        case .age: try age.map { .age(try $0.whole(.age, Profile.ageRange, unit: nil)) }
        case .height: try height.map { .heightCm(try $0.number(.height, hint: Profile.heightRange, digits: 0, unit: "cm")) }
        case .weight: try weight.map { .weightKg(try $0.number(.weight, hint: Profile.weightRange, digits: 1, unit: "kg")) }
        case .activity: activity.map(OnboardingAnswer.activity)
        case .goal: goal.map(OnboardingAnswer.goal)
        case .goalWeight:
            // optional: fully driven by flags, none unless one was given
            try goalWeight.map { .goalWeightKg(try $0.number(.goalWeight, hint: Profile.weightRange, digits: 1, unit: "kg")) }
                ?? (allRequiredFlags ? .goalWeightKg(nil) : nil)
        case .eatingWindow:
            // fully driven by flags: the standard window unless one was given
            try window.map { try OnboardingAnswer.eatingWindow(Prompter.window($0, moments: moments, l)) }
                ?? (allRequiredFlags ? .eatingWindow(.standard) : nil)
        }
    }
}

/// Asks onboarding questions on the terminal, with defaults, until an answer parses.
struct Prompter {
    let context: CLIContext
    let localizer: Localizer
    private(set) var transcript: [String] = []

    init(context: CLIContext, localizer: Localizer) {
        self.context = context
        self.localizer = localizer
    }

    mutating func say(_ line: String) {
        if context.isTerminal { Terminal.print(line) } else { transcript.append(line) }
    }

    /// Asks for the current step until the reply parses; the end of input is an error naming
    /// the missing flag.
    mutating func ask(_ onboarding: Onboarding) throws -> OnboardingAnswer {
        let step = onboarding.step
        let l = localizer
        say(
            l.text("onboarding.progress", ["index": .integer(onboarding.progress.index), "count": .integer(onboarding.progress.count)])
                + " · " + l.render(step.title)
        )
        say("  " + l.render(step.subtitle))
        let choices = Self.choices(step, l)
        if !choices.isEmpty { say("  " + choices.joined(separator: " · ")) }
        let suggestion =
            step == .weight
            ? l.number(onboarding.proposedWeightKg, digits: 1)
            : step == .eatingWindow ? "12:00-18:00" : nil
        while true {
            if context.isTerminal { Terminal.print("> " + (suggestion.map { "[\($0)] " } ?? ""), terminator: "") }
            guard let line = context.readLine() else {
                throw CLIError(l.text("cli.onboard.missing", ["flag": .text(Self.flag(step))]))
            }
            let reply = line.trimmingCharacters(in: .whitespaces)
            if let answer = Self.parse(reply.isEmpty ? (suggestion ?? "") : reply, step: step, l) { return answer }
            say(l.text("cli.onboard.again"))
        }
    }

    static func flag(_ step: OnboardingStep) -> String {
        switch step {
        case .eatingWindow: "--window"
        case .goalWeight: "--goal-weight"
        default: "--" + step.rawValue
        }
    }

    static func choices(_ step: OnboardingStep, _ l: Localizer) -> [String] {
        switch step {
        case .sex: Sex.allCases.map { "\($0.rawValue) (\(l.text("sex.\($0.rawValue)")))" }
        case .activity: ActivityLevel.allCases.map { $0.defaultValueDescription + " (\(l.text("activity.\($0.rawValue)")))" }
        case .goal: Goal.allCases.map { "\($0.rawValue) (\(l.text("goal.\($0.rawValue)")))" }
        default: []
        }
    }

    static func parse(_ reply: String, step: OnboardingStep, _ l: Localizer) -> OnboardingAnswer? {
        let number = NumberInput.decimal(reply)
        return switch step {
        case .welcome: .start
        case .sex: Sex(argument: reply).map(OnboardingAnswer.sex)
        case .age: number.flatMap { $0 == $0.rounded() ? Int(exactly: $0) : nil }.map(OnboardingAnswer.age)
        case .height: number.map(OnboardingAnswer.heightCm)
        case .weight: number.map(OnboardingAnswer.weightKg)
        case .activity: ActivityLevel(argument: reply).map(OnboardingAnswer.activity)
        case .goal: Goal(argument: reply).map(OnboardingAnswer.goal)
        case .goalWeight: reply.isEmpty ? .goalWeightKg(nil) : number.map(OnboardingAnswer.goalWeightKg)
        case .eatingWindow: (try? window(reply, moments: nil, l)).map(OnboardingAnswer.eatingWindow)
        }
    }

    /// "12:00-18:00" with optional moments "12:00,15:00,18:00".
    static func window(_ text: String, moments: String?, _ l: Localizer) throws -> EatingWindow {
        let parts = text.replacingOccurrences(of: "–", with: "-").split(separator: "-").map(String.init)
        guard parts.count == 2, let start = TimeOfDay(string: parts[0].trimmingCharacters(in: .whitespaces)),
            let end = TimeOfDay(string: parts[1].trimmingCharacters(in: .whitespaces))
        else {
            throw CLIError(l.render(DietCore.ValidationError(field: .eatingWindow, allowed: .format("HH:MM-HH:MM"), received: text).message))
        }
        let times = try moments.map { list in
            try list.split(separator: ",").map { item in
                guard let time = TimeOfDay(string: item.trimmingCharacters(in: .whitespaces)) else {
                    throw CLIError(l.render(DietCore.ValidationError(field: .eatingMoments, allowed: .format("HH:MM,HH:MM"), received: list).message))
                }
                return time
            }
        }
        do {
            return try EatingWindow(start: start, end: end, moments: times)
        } catch {
            throw CLIError(l.render(error.message))
        }
    }
}
