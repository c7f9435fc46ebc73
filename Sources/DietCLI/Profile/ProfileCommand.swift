import ArgumentParser
import DietCore
import DietStore

/// `wdiet profile`: the profile and the numbers derived from it, each explained.
struct ProfileCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "profile", abstract: "Show your profile and how your numbers are calculated.")

    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let settings = try session.requireSettings()
        let l = session.localizer
        if json {
            let output = ProfileOutput(settings.profile, l)
            return try session.recoveryMode ? RecoveryProfile.json(output, settings) : JSONOutput.encode(output)
        }
        let profile = settings.profile
        if session.recoveryMode { return RecoveryProfile.text(settings, session) }
        let plan = try DayReportSource.plan(session, settings)
        var table = TextTable([.left, .left])
        table.append([l.text("field.sex"), l.text("sex.\(profile.sex.rawValue)")])
        table.append([l.text("field.age"), "\(profile.age(on: session.today))"])
        table.append([l.text("field.height"), l.number(profile.heightCm, digits: 0) + " cm"])
        table.append([l.text("field.weight"), l.number(plan.weightKg, digits: 1) + " kg"])
        table.append([l.text("field.activityLevel"), l.text("activity.\(profile.activityLevel.rawValue)")])
        table.append([l.text("field.goal"), l.text("goal.\(profile.goal.rawValue)")])
        ProfileOutput.appendWindow(profile.eatingWindow, to: &table, l)
        table.append([l.text("field.language"), profile.language.rawValue])
        table.append([l.text("field.deficit"), l.number(profile.deficit * 100, digits: 0) + " % · " + profile.cyclePreset.defaultValueDescription])
        table.append([l.text("cli.profile.start"), l.date(settings.startDate) + " (\(settings.timeZoneIdentifier))"])
        var lines = [table.render(), ""]
        for explanation in [plan.explainBMR(), plan.explainTDEE()] {
            lines.append(l.render(explanation.title) + ": " + explanation.steps.map(l.render).joined(separator: " "))
        }
        if !profile.lockedGoals.isEmpty {
            lines.append(l.text("cli.profile.locked", ["kinds": .text(profile.lockedGoals.keys.map(\.rawValue).sorted().joined(separator: ", "))]))
        }
        return lines.joined(separator: "\n")
    }
}

/// `wdiet set …`: change one setting; validated like onboarding, nothing saved on error.
struct SetCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change a setting: weight unit aside, everything onboarding asked.",
        discussion:
            "Examples: wdiet set --window 11:00-17:00 · wdiet set --moment-names \"Brunch,,Abendbrot\" · wdiet set --deficit 0.25 --lang de · wdiet set --lock-kcal 1800 --lock-protein 140 --lock-carbs 150 --lock-fat 60 --lock-for deficit · wdiet set recovery-mode on|off"
    )

    @Argument(help: "recovery-mode on|off: counting rests (no numbers anywhere) and the cycle pauses at maintenance.")
    var setting: [String] = []
    @Flag(help: "With recovery-mode off: do not ask for confirmation (for scripts).") var yes = false

    @Option(help: "Height in cm, 100–250.") var height: TypedNumber?
    @Option(help: "sedentary, light, moderate, active or very-active.") var activity: ActivityLevel?
    @Option(help: "lose, maintain or gain.") var goal: Goal?
    @Option(help: "Goal weight in kg, below your weight to lose, above it to gain; none removes it.") var goalWeight: TypedNumber?
    @Option(help: "Eating window, e.g. 11:00-17:00.") var window: String?
    @Option(help: "Eating moments, e.g. 11:00,14:00,17:00 (in the current window unless --window is given).") var moments: String?
    @Option(help: "Names of the eating moments by their order, e.g. \"Frühstück,Brunch,,Abendessen\" (empty: the name by its time).")
    var momentNames: String?
    @Option(help: "Diet-day deficit, 0.10–0.35.") var deficit: TypedNumber?
    @Option(help: "open-ended or study.") var preset: CyclePreset?
    @Option(name: .customLong("language"), help: "de, en or es.") var profileLanguage: Language?
    @Option(help: "Lock goals: calories.") var lockKcal: TypedNumber?
    @Option(help: "Lock goals: protein g.") var lockProtein: TypedNumber?
    @Option(help: "Lock goals: carbs g.") var lockCarbs: TypedNumber?
    @Option(help: "Lock goals: fat g.") var lockFat: TypedNumber?
    @Option(help: "Which target the lock applies to: deficit, maintenance or surplus.") var lockFor: TargetKind?
    @Flag(help: "Remove the lock of --lock-for.") var unlock = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        var profile = try session.requireSettings().profile
        if !setting.isEmpty { return try RecoverySwitch.set(setting, confirmed: yes, session, context) }
        if let height { profile.heightCm = try session.run { try height.number(.height, hint: Profile.heightRange, digits: 0, unit: "cm") } }
        if let activity { profile.activityLevel = activity }
        if let goal { profile.goal = goal }
        if window != nil || moments != nil || momentNames != nil { profile.eatingWindow = try eatingWindow(profile.eatingWindow, session) }
        let typedDeficit = try session.run { try deficit?.value(.deficit, Profile.deficitRange, digits: 2, unit: nil) }
        profile = profile.applying(preset: preset, deficit: typedDeficit)
        if let profileLanguage { profile.language = profileLanguage }
        try applyLocks(&profile, session)
        if let goalWeight { profile.goalWeightKg = try Self.goalWeight(goalWeight, profile: profile, session) }
        try session.run { try profile.validate() }
        try session.run { try session.store.updateProfile(profile, timeZone: session.timeZone) }
        return Localizer(profile.language).text("cli.set.saved")
    }

    /// --window, --moments and --moment-names over the current window: new times keep the names
    /// by their place (those beyond the moments' count are dropped); --moments alone keeps the
    /// window's start and end.
    private func eatingWindow(_ current: EatingWindow, _ session: Session) throws -> EatingWindow {
        let l = session.localizer
        var timed = current
        if window != nil || moments != nil {
            timed = try Prompter.window(window ?? "\(current.start.formatted)-\(current.end.formatted)", moments: moments, l)
        }
        guard let momentNames else { return try session.run { try timed.renamed(current.names) } }
        let names = momentNames.split(separator: ",", omittingEmptySubsequences: false).map { String($0) as String? }
        guard names.count <= timed.moments.count else {
            throw CLIError(l.text("cli.profile.momentNamesCount", ["count": .integer(timed.moments.count), "given": .integer(names.count)]))
        }
        return try session.run { try timed.renamed(names) }
    }

    /// --goal-weight: none, or a weight the goal asks for (below the latest weigh-in to lose,
    /// above it to gain).
    static func goalWeight(_ typed: TypedNumber, profile: Profile, _ session: Session) throws -> Double? {
        if typed.text.trimmingCharacters(in: .whitespaces).lowercased() == "none" { return nil }
        let kg = try session.run { try typed.number(.goalWeight, hint: Profile.weightRange, digits: 1, unit: "kg") }
        let latest = try session.store.latestWeightKg(through: session.today) ?? profile.weightKg
        try session.run { try Profile.check(goalWeightKg: kg, goal: profile.goal, currentKg: latest) }
        return Profile.roundedWeight(kg)
    }

    /// The lock of --lock-for: all four values (decimal comma or point), or --unlock.
    private func applyLocks(_ profile: inout Profile, _ session: Session) throws {
        let texts = [lockKcal, lockProtein, lockCarbs, lockFat].map { $0?.text }
        guard unlock || texts.contains(where: { $0 != nil }) else { return }
        guard let kind = lockFor else { throw CLIError(session.localizer.text("cli.set.lockFor")) }
        if unlock {
            profile.lockedGoals[kind] = nil
            return
        }
        guard texts.allSatisfy({ $0 != nil }) else { throw CLIError(session.localizer.text("cli.set.lockAll")) }
        let floor = SafetyFloor.kcal(for: profile.sex)
        profile.lockedGoals[kind] = try session.run {
            try LockedGoals.parse(kcal: texts[0], protein: texts[1], carbs: texts[2], fat: texts[3], floor: floor)
        }
    }
}

extension TargetKind: ExpressibleByArgument, DashedArgument {}

/// `wdiet profile --json`: the profile as stored, and `moments`, each eating moment with its
/// number, time, kind (by its time) and name in the user's language (the user's own, else the
/// name by its time) and whether the user gave that name.
struct ProfileOutput: Encodable {
    struct Moment: Encodable {
        let number: Int
        let time: String
        let kind: String
        let name: String
        let custom: Bool
    }

    let profile: Profile
    let moments: [Moment]

    init(_ profile: Profile, _ l: Localizer) {
        self.profile = profile
        moments = profile.eatingWindow.eatingMoments.map {
            Moment(number: $0.number, time: $0.time.formatted, kind: $0.kind.rawValue, name: l.render($0.name), custom: $0.customName != nil)
        }
    }

    enum CodingKeys: String, CodingKey {
        case moments
    }

    func encode(to encoder: any Encoder) throws {
        try profile.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(moments, forKey: .moments)
    }

    /// The window's row ("12:00–18:00") and the moments' row ("Brunch · 12:00, Nachmittag ·
    /// 15:00, …") of the profile table.
    static func appendWindow(_ window: EatingWindow, to table: inout TextTable, _ l: Localizer) {
        table.append([l.text("cli.today.window"), "\(window.start.formatted)–\(window.end.formatted)"])
        table.append([l.text("cli.profile.moments"), window.eatingMoments.map { l.render($0.label) }.joined(separator: ", ")])
    }
}
