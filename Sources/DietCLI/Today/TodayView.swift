import DietCore
import DietStore

/// The text dashboard of `wdiet today`.
struct TodayView {
    let snapshot: TodaySnapshot
    let localizer: Localizer
    let terminal: Terminal

    func render() -> String {
        let report = snapshot.report
        // a past day's diary says which day it is and its target, and has no words about today
        var lines =
            snapshot.isPast
            ? [terminal.paint(localizer.date(report.date), .bold), localizer.text("cli.today.targetOn", ["kcal": .integer(report.targets.kcal)]), ""]
            : [banner(report), report.targetLine(localizer), ""]
        if let notice = report.phaseSwitch {
            lines += [terminal.paint("🔔 " + localizer.render(notice.headline), .bold), "   " + localizer.render(notice.why), ""]
        }
        var table = TextTable([.left, .left])
        table.append([l("cli.today.calories"), terminal.bar(report.calories.fraction) + "  " + localizer.render(report.calories.message)])
        table.append([l("cli.today.ring"), terminal.ring(report.ring) + ringNote(report.ring)])
        for progress in report.macros {
            table.append([localizer.render(progress.macro.nameMessage), macroLine(progress)])
        }
        table.append([l("cli.today.streak"), (report.streak.isLit ? "🔥 " : "   ") + localizer.render(report.streak.message)])
        table.append([l("cli.today.weight"), weightLine(report.weight)])
        if let goal = snapshot.goal {
            table.append([l("cli.today.goal"), localizer.render(goal.headline) + " · " + localizer.render(goal.outlookMessage)])
        }
        table.append([l("cli.today.window"), "\(report.eatingWindow.start.formatted)–\(report.eatingWindow.end.formatted)"])
        lines.append(table.render(separator: "  "))
        if !snapshot.isPast { lines += ["", report.coach.variation.emoji + "  " + localizer.render(report.coach.message)] }
        if snapshot.goal?.isReached == true { lines.append(l("cli.today.goalReached")) }
        return lines.joined(separator: "\n")
    }

    private func l(_ key: String) -> String { localizer.text(key) }

    private func banner(_ report: DayReport) -> String {
        guard let day = report.cycle else {
            return terminal.paint(
                localizer.text("cli.today.noCycle", ["goal": .message(Message("goal.\(snapshot.settings.profile.goal.rawValue)"))]),
                .bold
            )
        }
        let parts = [terminal.paint(localizer.render(day.phase.nameMessage), .bold)] + report.cycleDetails(localizer)
        return parts.joined(separator: " · ")
    }

    private func ringNote(_ ring: ProgressRing) -> String {
        ring.overshootKcal > 0 ? "  " + localizer.text("cli.today.overshoot", ["kcal": .integer(Int(ring.overshootKcal.rounded()))]) : ""
    }

    private func macroLine(_ progress: MacroProgress) -> String {
        let label = localizer.render(progress.statusMessage)
        let amounts = localizer.number(progress.eatenG, digits: 0) + " / " + localizer.number(progress.goalG, digits: 0) + " g"
        let percent = progress.percent.map { " · \($0) %" } ?? ""
        return "\(progress.smiley.emoji) " + terminal.paint(label, terminal.macroStyle(progress.macro)) + "  " + amounts + percent
    }

    private func weightLine(_ card: WeightCard) -> String {
        guard let current = card.currentKg else { return localizer.text("weight.card.empty") }
        var parts = [localizer.number(current, digits: 1) + " kg"]
        if let average = card.averageKg {
            parts.append(localizer.text("weight.card.average", ["average": .decimal(average, digits: 1)]))
        }
        if let down = card.downBy {
            parts.append(terminal.paint(localizer.text("weight.card.down", ["difference": .decimal(down, digits: 1)]), .green))
        }
        if card.promptToday, !snapshot.isPast { parts.append(localizer.text("weight.card.prompt")) }
        return parts.joined(separator: " · ")
    }
}
