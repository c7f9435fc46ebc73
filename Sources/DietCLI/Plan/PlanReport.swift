import DietCore

/// The text of `wdiet plan`: pure, so tests can check it line by line.
struct PlanReport {
    let profile: Profile
    let startDate: LocalDate
    let today: LocalDate
    let weeks: Int

    func render(_ l: Localizer) -> String {
        let plan = EnergyPlan(profile: profile, on: today)
        var lines = [l.text("cli.plan.title"), ""]
        var summary = TextTable([.left, .left])
        summary.append([l.text("cli.plan.profile"), profileLine(l)])
        summary.append([l.text("cli.plan.bmr"), l.render(plan.explainBMR().steps.last ?? Message("explain.bmr.title"))])
        summary.append([l.text("cli.plan.tdee"), plan.explainTDEE().steps.map(l.render).joined(separator: " ")])
        guard profile.goal == .lose else {
            let target = plan.targets(plan.staticKind)
            summary.append([l.text("cli.plan.target"), kcal(target.kcal, l) + floorNote(target, plan, l)])
            summary.append([l.text("cli.plan.macros"), macros(target, l)])
            lines.append(summary.render(separator: "   "))
            lines += ["", l.text("cli.plan.noCycle", ["goal": .message(Message("goal.\(profile.goal.rawValue)"))])]
            return lines.joined(separator: "\n")
        }
        let engine = CycleEngine(startDate: startDate, preset: profile.cyclePreset)
        let cycle = engine.targets(on: today, plan: plan)
        summary.append([l.text("cli.plan.today"), l.date(today) + " — " + dayLine(cycle.day, l)])
        summary.append([l.text("cli.plan.target"), kcal(cycle.today.kcal, l) + floorNote(cycle.today, plan, l)])
        summary.append([l.text("cli.plan.macros"), macros(cycle.today, l)])
        if let next = cycle.next, let phase = cycle.day.nextPhase, let date = cycle.day.nextSwitchDate {
            summary.append([
                l.text("cli.plan.next"),
                l.text(
                    "cli.plan.nextLine",
                    [
                        "phase": .message(phase.nameMessage), "date": .date(date), "kcal": .integer(next.kcal),
                    ]
                ),
            ])
        }
        lines.append(summary.render(separator: "   "))
        lines += ["", l.text("cli.plan.calendar", ["count": .integer(weeks)]), weekTable(engine, plan, l)]
        return lines.joined(separator: "\n")
    }

    private func weekTable(_ engine: CycleEngine, _ plan: EnergyPlan, _ l: Localizer) -> String {
        var table = TextTable([.right, .left, .left, .left, .right, .left])
        table.append([
            l.text("cli.plan.week"), l.text("cli.plan.from"), l.text("cli.plan.to"), l.text("cli.plan.phase"),
            l.text("cli.plan.targetColumn"),
        ])
        for week in 0..<weeks {
            let first = startDate.adding(days: 7 * week)
            let last = first.adding(days: 6)
            let phases = engine.blocks(from: first, through: last).map(\.phase)
            let names = phases.map { l.render($0.nameMessage) }.joined(separator: " / ")
            let targets = phases.map { kcal(plan.targets($0.targetKind).kcal, l) }.joined(separator: " / ")
            let marker = (first...last).contains(today) ? "◀" : ""
            table.append(["\(week + 1)", l.date(first), l.date(last), names, targets, marker])
        }
        return table.render()
    }

    private func profileLine(_ l: Localizer) -> String {
        [
            l.text("sex.\(profile.sex.rawValue)"),
            l.text("cli.plan.years", ["age": .integer(profile.age)]),
            l.number(profile.heightCm, digits: 0) + " cm",
            l.number(profile.weightKg, digits: 1) + " kg",
            l.text("activity.\(profile.activityLevel.rawValue)"),
            l.text("goal.\(profile.goal.rawValue)"),
        ].joined(separator: " · ")
    }

    private func dayLine(_ day: CycleDay, _ l: Localizer) -> String {
        guard let length = day.phaseLength else { return l.render(day.phase.nameMessage) }
        return l.render(day.phase.nameMessage) + ", " + l.text("cycle.dayOf", ["day": .integer(day.dayInPhase), "length": .integer(length)])
    }

    private func macros(_ target: DailyTargets, _ l: Localizer) -> String {
        l.text(
            "cli.plan.macroLine",
            [
                "protein": .decimal(target.proteinG, digits: 0), "carbs": .decimal(target.carbsG, digits: 0),
                "fat": .decimal(target.fatG, digits: 0),
            ]
        )
    }

    private func floorNote(_ target: DailyTargets, _ plan: EnergyPlan, _ l: Localizer) -> String {
        target.floorApplied ? " " + l.text("cli.plan.floor", ["floor": .integer(plan.floorKcal)]) : ""
    }

    private func kcal(_ value: Int, _ l: Localizer) -> String {
        l.number(Double(value), digits: 0) + " kcal"
    }

    /// The plan as data: energy numbers, today's and the next targets, and the blocks.
    func json() -> PlanJSON {
        let plan = EnergyPlan(profile: profile, on: today)
        guard profile.goal == .lose else {
            return PlanJSON(
                bmrKcal: Energy.wholeKcal(plan.bmr),
                tdeeKcal: Energy.wholeKcal(plan.tdee),
                today: plan.targets(plan.staticKind),
                cycle: nil,
                next: nil,
                blocks: []
            )
        }
        let engine = CycleEngine(startDate: startDate, preset: profile.cyclePreset)
        let cycle = engine.targets(on: today, plan: plan)
        return PlanJSON(
            bmrKcal: Energy.wholeKcal(plan.bmr),
            tdeeKcal: Energy.wholeKcal(plan.tdee),
            today: cycle.today,
            cycle: cycle.day,
            next: cycle.next,
            blocks: engine.blocks(from: startDate, through: startDate.adding(days: 7 * weeks - 1))
        )
    }
}

struct PlanJSON: Encodable {
    let bmrKcal: Int
    let tdeeKcal: Int
    let today: DailyTargets
    let cycle: CycleDay?
    let next: DailyTargets?
    let blocks: [CycleBlock]

    enum CodingKeys: String, CodingKey {
        case today, cycle, next, blocks
        case bmrKcal = "bmr_kcal"
        case tdeeKcal = "tdee_kcal"
    }
}
