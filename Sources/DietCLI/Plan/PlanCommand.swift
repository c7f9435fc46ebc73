import ArgumentParser
import DietCore
import Foundation

/// `wdiet plan`: energy numbers and the first weeks of the MATADOR cycle for a profile given
/// on the command line, without touching any stored data.
public struct PlanCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Show BMR, TDEE, today's target, macro goals and the first 10 weeks of the cycle."
    )

    @Option(help: "Sex for the BMR formula.") var sex: Sex
    @Option(help: "Age in years (18–99).") var age: TypedNumber
    @Option(help: "Height in cm (100–250).") var height: TypedNumber
    @Option(help: "Weight in kg (30.0–200.0, decimal comma or point).") var weight: TypedNumber
    @Option(help: "Activity level.") var activity: ActivityLevel
    @Option(help: "Goal.") var goal: Goal
    @Option(help: "Diet-day deficit, 0.10–0.35.") var deficit = TypedNumber(Profile.defaultDeficit)
    @Option(help: "Cycle preset.") var preset: CyclePreset = .openEnded
    @Option(help: "First day of the programme as YYYY-MM-DD (default: today).") var start: LocalDate?
    @Option(help: "How many weeks of the cycle to list (1–104).") var weeks: Int = 10
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var languageOptions: LanguageOptions

    public init() {}

    public func run() throws {
        let environment = ProcessInfo.processInfo.environment
        Terminal.print(try render(clock: SystemClock(), environment: environment))
    }

    /// The report `run()` prints, for a given clock and environment.
    public func render(clock: any Clock, environment: [String: String]) throws -> String {
        let language = languageOptions.resolvedLanguage(environment: environment)
        let timeZone = try languageOptions.resolvedTimeZone(language: language)
        guard (1...104).contains(weeks) else {
            throw CLIError(
                DietCore.ValidationError(
                    field: .init("weeks"),
                    allowed: .range(min: 1, max: 104, digits: 0, unit: nil),
                    received: "\(weeks)"
                ),
                language: language
            )
        }
        let profile: Profile
        do {
            profile = try Profile(
                sex: sex,
                age: age.whole(.age, Profile.ageRange, unit: nil),
                heightCm: height.number(.height, hint: Profile.heightRange, digits: 0, unit: "cm"),
                weightKg: weight.number(.weight, hint: Profile.weightRange, digits: 1, unit: "kg"),
                activityLevel: activity,
                goal: goal,
                language: language,
                deficit: deficit.value(.deficit, Profile.deficitRange, digits: 2, unit: nil),
                cyclePreset: preset
            )
        } catch {
            throw CLIError(error, language: language)
        }
        let today = clock.today(in: timeZone)
        let report = PlanReport(profile: profile, startDate: start ?? today, today: today, weeks: weeks)
        return json ? try JSONOutput.encode(report.json()) : report.render(Localizer(language))
    }
}
