import ArgumentParser
import DietCore
import DietStore
import Foundation

/// `wdiet today`: the dashboard; in recovery mode today's meals against the eating moments
/// and the coach, without a number (`RecoveryText`). `--date` shows a past day's diary as it
/// stood at its end.
struct TodayCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "today", abstract: "Show today's dashboard.")

    @OptionGroup var options: StoreOptions
    @Option(help: "A past day, YYYY-MM-DD (default: today).") var date: LocalDate?
    @Flag(help: "Print JSON for scripts.") var json = false

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        _ = try session.requireSettings()
        let day = date ?? session.today
        guard day <= session.today else { throw CLIError(session.localizer.text("cli.today.futureDate", ["date": .date(day)])) }
        guard let snapshot = try session.run({ try session.store.day(day, timeZone: session.timeZone) }) else {
            throw CLIError(session.localizer.text("cli.error.notOnboarded"))
        }
        if let recovery = RecoveryTodayJSON(snapshot) {
            return json
                ? try JSONOutput.encode(recovery)
                : RecoveryText.today(snapshot, session.localizer, Terminal(color: context.color))
        }
        if json { return try JSONOutput.encode(TodayJSON(snapshot)) }
        let text = TodayView(snapshot: snapshot, localizer: session.localizer, terminal: Terminal(color: context.color)).render()
        if snapshot.report.phaseSwitch != nil, !snapshot.isPast {
            try session.run { try session.store.acknowledgePhaseSwitch(timeZone: session.timeZone) }
        }
        return text
    }
}

/// The dashboard as JSON, snake_case.
struct TodayJSON: Encodable {
    let date: LocalDate
    let cycle: CycleDay?
    let targets: DailyTargets
    let nextTargets: DailyTargets?
    let totals: DailyTotals
    let macros: [MacroProgress]
    let ring: ProgressRing
    let calories: CalorieProgress
    let streak: StreakStatus
    let weight: WeightCard
    let goal: GoalJSON?
    let eatingWindow: EatingWindow
    let coach: Coach
    let phaseSwitch: String?
    let meals: [MealJSON]

    struct Coach: Encodable {
        let variation: FireVariation
        let message: String
    }

    init(_ snapshot: TodaySnapshot) {
        let report = snapshot.report
        let localizer = Localizer(snapshot.settings.profile.language)
        date = report.date
        cycle = report.cycle
        targets = report.targets
        nextTargets = report.nextTargets
        totals = report.totals
        macros = report.macros
        ring = report.ring
        calories = report.calories
        streak = report.streak
        weight = report.weight
        goal = snapshot.goal.map { GoalJSON($0, localizer) }
        eatingWindow = report.eatingWindow
        coach = Coach(variation: report.coach.variation, message: localizer.render(report.coach.message))
        phaseSwitch = report.phaseSwitch.map { localizer.render($0.headline) }
        meals = snapshot.meals.map(MealJSON.init)
    }

    enum CodingKeys: String, CodingKey {
        case date, cycle, targets, totals, macros, ring, calories, streak, weight, goal, coach, meals
        case nextTargets = "next_targets"
        case eatingWindow = "eating_window"
        case phaseSwitch = "phase_switch"
    }
}

/// The goal weight and its forecast as JSON: `expected_date` null when there is none, `basis`
/// trend or plan, `outlook` reached, expected, away or beyond_horizon.
struct GoalJSON: Encodable {
    let goalKg: Double
    let trendKg: Double
    let remainingKg: Double
    let basis: String
    let paceKgPerWeek: Double
    let outlook: String
    let expectedDate: LocalDate?
    let message: String

    init(_ forecast: GoalForecast, _ l: Localizer) {
        goalKg = forecast.goalKg
        trendKg = (forecast.currentKg * 10).rounded() / 10
        remainingKg = (forecast.remainingKg * 10).rounded() / 10
        basis = forecast.basis.rawValue
        paceKgPerWeek = (forecast.paceKgPerWeek * 100).rounded() / 100
        outlook =
            switch forecast.outlook {
            case .reached: "reached"
            case .expected: "expected"
            case .away: "away"
            case .beyondHorizon: "beyond_horizon"
            }
        expectedDate = forecast.expectedDate
        message = l.render(forecast.headline) + " · " + l.render(forecast.outlookMessage)
    }

    enum CodingKeys: String, CodingKey {
        case basis, outlook, message
        case goalKg = "goal_kg"
        case trendKg = "trend_kg"
        case remainingKg = "remaining_kg"
        case paceKgPerWeek = "pace_kg_per_week"
        case expectedDate = "expected_date"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(goalKg, forKey: .goalKg)
        try c.encode(trendKg, forKey: .trendKg)
        try c.encode(remainingKg, forKey: .remainingKg)
        try c.encode(basis, forKey: .basis)
        try c.encode(paceKgPerWeek, forKey: .paceKgPerWeek)
        try c.encode(outlook, forKey: .outlook)
        try c.encode(expectedDate, forKey: .expectedDate)
        try c.encode(message, forKey: .message)
    }
}

/// A meal as JSON.
struct MealJSON: Encodable {
    let id: UUID
    let entry: MealEntry

    init(_ meal: Meal) {
        id = meal.id
        entry = meal.entry
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.uuidString, forKey: .id)
        try entry.encode(to: encoder)
    }

    enum CodingKeys: String, CodingKey { case id }
}

enum JSONOutput {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
