/// The dashboard's two lines of text about the plan, shared by every surface.
extension DayReport {
    /// "day 5 of 14", "9 days until Maintenance on Mon, Jan 19, 2026": what follows the phase name.
    public func cycleDetails(_ l: Localizer) -> [String] {
        guard let day = cycle else { return [] }
        var parts: [String] = []
        if let length = day.phaseLength {
            parts.append(l.text("cycle.dayOf", ["day": .integer(day.dayInPhase), "length": .integer(length)]))
        }
        if let days = day.daysUntilSwitch, let next = day.nextPhase, let date = day.nextSwitchDate {
            parts.append(
                l.text(
                    "cycle.untilSwitch",
                    [
                        "count": .integer(days), "phase": .message(next.nameMessage), "date": .date(date),
                    ]
                )
            )
        }
        return parts
    }

    /// "Today's target 1,817 kcal (raised to the safety floor of 1,200 kcal) · then Maintenance at
    /// 2,595 kcal": today's target, the floor when it applies (docs/rules.md §2) and the next phase's.
    public func targetLine(_ l: Localizer) -> String {
        var text = l.text("cli.today.target", ["kcal": .integer(targets.kcal)])
        if targets.floorApplied {
            text += " " + l.text("cli.plan.floor", ["floor": .integer(plan.floorKcal)])
        }
        if let next = nextTargets, let phase = cycle?.nextPhase {
            text += " · " + l.text("cli.today.next", ["phase": .message(phase.nameMessage), "kcal": .integer(next.kcal)])
        }
        return text
    }
}
