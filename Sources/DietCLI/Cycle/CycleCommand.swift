import ArgumentParser
import DietCore
import DietStore

/// `wdiet cycle`: the calendar of blocks around today, recovery mode's pauses included; in
/// recovery mode without targets. `--json` is the blocks (phase, number, dates, `paused`).
struct CycleCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "cycle", abstract: "Show the calendar of your MATADOR blocks.")

    @Option(help: "How many phases to list from the start (1–60).") var phases = 12
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let settings = try session.requireSettings()
        let l = session.localizer
        guard (1...60).contains(phases) else {
            throw CLIError(
                l.render(
                    DietCore.ValidationError(
                        field: .init("phases"),
                        allowed: .range(min: 1, max: 60, digits: 0, unit: nil),
                        received: "\(phases)"
                    ).message
                )
            )
        }
        guard settings.profile.goal == .lose else {
            return l.text("cli.plan.noCycle", ["goal": .message(Message("goal.\(settings.profile.goal.rawValue)"))])
        }
        // Recovery mode's pauses move the later blocks; the calendar reaches as far past them.
        let engine = settings.cycleEngine
        let paused = settings.cyclePauses.pausedDays(from: settings.startDate, before: session.today.adding(days: 1))
        let through = max(session.today, settings.startDate.adding(days: 7 + 14 * phases + paused))
        let blocks = Array(engine.blocks(from: settings.startDate, through: through).prefix(phases + settings.recoveryPeriods.count * 2 + 1))
        if json { return try JSONOutput.encode(blocks) }
        let plan = session.recoveryMode ? nil : try DayReportSource.plan(session, settings)
        let today = session.today
        var table = TextTable([.right, .left, .left, .left, .right, .left])
        table.append([
            "#", l.text("cli.plan.from"), l.text("cli.plan.to"), l.text("cli.plan.phase"),
            plan == nil ? "" : l.text("cli.plan.targetColumn"), "",
        ])
        for block in blocks {
            let marker = block.start <= today && today <= block.end ? "◀ " + l.text("cli.plan.today") : ""
            let end = block.phase == .completed || (block.paused && block.end == through) ? "…" : l.date(block.end)
            let name = block.paused ? l.text("cli.recovery.pausedPhase") : l.render(block.phase.nameMessage)
            // In recovery mode no target is shown (docs/rules.md §8).
            let target = plan.map { l.number(Double($0.targets(block.phase.targetKind).kcal), digits: 0) + " kcal" } ?? ""
            table.append(["\(block.number)", l.date(block.start), end, name, target, marker])
        }
        return table.render()
    }
}

/// The energy plan of today, with the latest weight and accepted maintenance.
enum DayReportSource {
    static func plan(_ session: Session, _ settings: UserSettings) throws -> EnergyPlan {
        let today = session.today
        let latest = try session.run { try session.store.weights(from: settings.startDate.adding(days: -3650), through: today) }.last
        return EnergyPlan(
            profile: settings.profile,
            latestWeightKg: latest?.kg,
            on: today,
            acceptedMaintenanceKcal: settings.acceptedMaintenanceKcal
        )
    }
}
