import ArgumentParser
import DietCore
import DietStore

/// `wdiet history [--days 30]`: intake against target and weight, with sparklines; in
/// recovery mode which eating moments had a meal, day by day (`RecoveryHistory`).
struct HistoryCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "Show recent days: intake, target and weight.")

    @Option(help: "How many days back, 1–365.") var days = 30
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        _ = try session.requireSettings()
        let l = session.localizer
        guard (1...365).contains(days) else {
            throw CLIError(
                l.render(
                    DietCore.ValidationError(
                        field: .init("days"),
                        allowed: .range(min: 1, max: 365, digits: 0, unit: nil),
                        received: "\(days)"
                    ).message
                )
            )
        }
        if session.recoveryMode { return try RecoveryHistory.render(days: days, json: json, session) }
        let rows = try session.run { try session.store.history(days: days, through: session.today) }
        if json { return try JSONOutput.encode(rows) }
        var table = TextTable([.left, .left, .right, .right, .right])
        table.append([l.text("cli.history.day"), l.text("cli.plan.phase"), "kcal", l.text("cli.plan.targetColumn"), "kg"])
        for row in rows {
            table.append([
                l.date(row.date), row.phase.map { l.render($0.nameMessage) } ?? "",
                row.intakeKcal.map { l.number(Double($0), digits: 0) } ?? "–", l.number(Double(row.targetKcal), digits: 0),
                row.weightKg.map { l.number($0, digits: 1) } ?? "",
            ])
        }
        return [
            table.render(), "",
            l.text("cli.history.intake") + "  " + Sparkline.render(rows.map { $0.intakeKcal.map(Double.init) }),
            l.text("cli.history.weight") + "  " + Sparkline.render(rows.map(\.weightKg)),
        ].joined(separator: "\n")
    }
}

/// ▁▂▃▄▅▆▇█ for a series, a space for a missing value.
enum Sparkline {
    static let ticks = Array("▁▂▃▄▅▆▇█")

    static func render(_ values: [Double?]) -> String {
        let present = values.compactMap { $0 }
        guard let low = present.min(), let high = present.max() else { return String(repeating: " ", count: values.count) }
        return String(
            values.map { value in
                guard let value else { return " " }
                guard high > low else { return ticks[3] }
                return ticks[Int(((value - low) / (high - low) * Double(ticks.count - 1)).rounded())]
            }
        )
    }
}
