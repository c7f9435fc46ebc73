import ArgumentParser
import DietCore
import DietStore

/// `wdiet history [--days 30]`: intake against target and weight, with sparklines.
struct HistoryCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "Show recent days: intake, target and weight.")

    @Option(help: "How many days back, 1–365.") var days = 30
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    struct Day: Encodable {
        let date: LocalDate
        let intakeKcal: Int?
        let targetKcal: Int
        let phase: Phase?
        let weightKg: Double?

        enum CodingKeys: String, CodingKey {
            case date, phase
            case intakeKcal = "intake_kcal"
            case targetKcal = "target_kcal"
            case weightKg = "weight_kg"
        }
    }

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let settings = try session.requireSettings()
        let l = session.localizer
        guard (1...365).contains(days) else {
            throw CLIError(l.render(DietCore.ValidationError(field: .init("days"), allowed: .range(min: 1, max: 365, digits: 0, unit: nil),
                                                             received: "\(days)").message))
        }
        let last = session.today
        let first = last.adding(days: 1 - days)
        let intake = try session.run { try session.store.dailyIntake(from: first, through: last) }
        let weights = try session.run { try session.store.weights(from: first.adding(days: -3650), through: last) }
        let rows = (0..<days).map { offset -> Day in
            let date = first.adding(days: offset)
            let known = weights.filter { $0.date <= date }
            let plan = EnergyPlan(profile: settings.profile, latestWeightKg: known.last?.kg, on: date,
                                  acceptedMaintenanceKcal: settings.acceptedMaintenanceKcal)
            let phase = settings.profile.goal == .lose && date >= settings.startDate
                ? CycleEngine(startDate: settings.startDate, preset: settings.profile.cyclePreset).day(on: date).phase : nil
            return Day(date: date, intakeKcal: intake[date], targetKcal: plan.targets(phase?.targetKind ?? plan.staticKind).kcal,
                       phase: phase, weightKg: known.last(where: { $0.date == date })?.kg)
        }
        if json { return try JSONOutput.encode(rows) }
        var table = TextTable([.left, .left, .right, .right, .right])
        table.append([l.text("cli.history.day"), l.text("cli.plan.phase"), "kcal", l.text("cli.plan.targetColumn"), "kg"])
        for row in rows {
            table.append([l.date(row.date), row.phase.map { l.render($0.nameMessage) } ?? "",
                          row.intakeKcal.map { l.number(Double($0), digits: 0) } ?? "–", l.number(Double(row.targetKcal), digits: 0),
                          row.weightKg.map { l.number($0, digits: 1) } ?? ""])
        }
        return [table.render(), "",
                l.text("cli.history.intake") + "  " + Sparkline.render(rows.map { $0.intakeKcal.map(Double.init) }),
                l.text("cli.history.weight") + "  " + Sparkline.render(rows.map(\.weightKg))].joined(separator: "\n")
    }
}

/// ▁▂▃▄▅▆▇█ for a series, a space for a missing value.
enum Sparkline {
    static let ticks = Array("▁▂▃▄▅▆▇█")

    static func render(_ values: [Double?]) -> String {
        let present = values.compactMap { $0 }
        guard let low = present.min(), let high = present.max() else { return String(repeating: " ", count: values.count) }
        return String(values.map { value in
            guard let value else { return " " }
            guard high > low else { return ticks[3] }
            return ticks[Int(((value - low) / (high - low) * Double(ticks.count - 1)).rounded())]
        })
    }
}
