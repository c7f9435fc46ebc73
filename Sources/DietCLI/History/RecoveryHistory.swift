import DietCore
import DietStore
import Foundation

/// `wdiet history` in recovery mode: regularity, not amounts. Each day shows its phase (or
/// the pause) and one mark per eating moment: ● a meal or mindful meal, ○ none. `--json` is
/// `{recovery_mode, days: [{date, phase, paused, moments: [true, false, …]}]}`: no intake,
/// target or weight.
enum RecoveryHistory {
    struct Day: Encodable {
        let date: LocalDate
        let phase: Phase?
        let paused: Bool
        let moments: [Bool]
    }

    struct Output: Encodable {
        let recoveryMode = true
        let days: [Day]

        enum CodingKeys: String, CodingKey {
            case days
            case recoveryMode = "recovery_mode"
        }
    }

    static func render(days count: Int, json: Bool, _ session: Session) throws -> String {
        let settings = try session.requireSettings()
        let l = session.localizer
        let last = session.today
        let first = last.adding(days: 1 - count)
        let window = settings.profile.eatingWindow
        let mindful = try session.run { try session.store.mindfulMeals(from: first, through: last) }
        let engine = settings.cycleEngine
        let days = try (0..<count).map { offset -> Day in
            let date = first.adding(days: offset)
            let meals = try session.run { try session.store.meals(on: date) }
            let eaten = Set(
                meals.map { window.moment(of: $0.entry) }
                    + mindful.filter { $0.entry.localDate == date }.map { window.moment(of: $0.entry) }
            )
            let cycle = settings.profile.goal == .lose && date >= settings.startDate ? engine.day(on: date) : nil
            return Day(
                date: date,
                phase: cycle?.phase,
                paused: cycle?.paused ?? false,
                moments: window.eatingMoments.map { eaten.contains($0.number) }
            )
        }
        if json { return try JSONOutput.encode(Output(days: days)) }
        var table = TextTable([.left, .left, .left])
        table.append([l.text("cli.history.day"), l.text("cli.plan.phase"), ""])
        for day in days {
            let phase = day.paused ? l.text("cli.recovery.pausedPhase") : day.phase.map { l.render($0.nameMessage) } ?? ""
            table.append([l.date(day.date), phase, day.moments.map { $0 ? "●" : "○" }.joined(separator: " ")])
        }
        return [l.text("cli.recovery.historyTitle"), table.render()].joined(separator: "\n")
    }
}
