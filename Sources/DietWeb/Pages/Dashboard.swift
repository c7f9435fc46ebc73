import DietCore
import DietStore
import Foundation
import Hummingbird

/// The dashboard, the phase-switch message and "how is this calculated?".
struct DashboardController: Controller {
    let app: WebApp

    func register(on group: RouterGroup<OnboardedContext>) {
        group.get("/", use: dashboard)
        group.post("/phase-switch/seen", use: phaseSwitchSeen)
        group.get("/explain", use: explain)
    }

    func dashboard(_ request: Request, context: OnboardedContext) async throws -> Response {
        // Every open of a surface runs the cycle's fail-safe check (docs/rules.md §3).
        _ = try app.store.checkCycle(timeZone: app.timeZone)
        let day = ShownDay(request, today: app.today)
        guard let snapshot = try app.store.day(day.date, timeZone: app.timeZone) else { return app.redirect("/onboarding") }
        let l = app.localizer(context)
        if snapshot.settings.recoveryMode {
            var values = RecoveryDayView(snapshot: snapshot, localizer: l).values
            values["day"] = day.navigation("/", l)
            return app.renderer.page("recovery-dashboard", values, title: l.text("web.dashboard.title"), tab: .home, context: context)
        }
        var values = DashboardView(snapshot: snapshot, localizer: l).values
        values["day"] = day.navigation("/", l)
        values["logHref"] = "/log" + day.query
        values["mealsHref"] = "/meals" + day.query
        return app.renderer.page(
            "dashboard",
            values,
            title: l.text("web.dashboard.title"),
            tab: .home,
            context: context
        )
    }

    func phaseSwitchSeen(_ request: Request, context: OnboardedContext) async throws -> Response {
        try app.store.acknowledgePhaseSwitch(timeZone: app.timeZone)
        return app.redirect("/")
    }

    /// docs/rules.md §2: BMR, TDEE, today's target and macro goals, each with its steps.
    func explain(_ request: Request, context: OnboardedContext) async throws -> Response {
        if context.settings.recoveryMode { return app.restPage("explain", context: context) }
        guard let snapshot = try app.store.today(timeZone: app.timeZone) else { return app.redirect("/onboarding") }
        let l = app.localizer(context)
        let plan = snapshot.report.plan
        let kind = snapshot.report.targets.kind
        let sections = [plan.explainBMR(), plan.explainTDEE(), plan.explainTarget(kind), plan.explainMacros(kind)].map { explanation in
            ["title": l.render(explanation.title), "steps": explanation.steps.map(l.render)] as [String: Any]
        }
        return app.renderer.page("explain", ["sections": sections], title: l.text("web.explain.title"), tab: nil, context: context)
    }
}

/// The dashboard's values for `dashboard.mustache`: every number formatted in the user's
/// language, every label and spoken text ready; the template only places them.
struct DashboardView {
    let snapshot: TodaySnapshot
    let localizer: Localizer

    var values: [String: Any] {
        let report = snapshot.report
        let l = localizer
        var values: [String: Any] = [
            "streak": streak(report.streak),
            "window": WindowBanner(report.eatingWindow, l).values,
            "ring": RingView(report: report, localizer: l).values,
            "macros": report.macros.map { MacroView($0, l).values },
            "macrosLabel": report.macros.map { MacroView($0, l).spoken }.joined(separator: " "),
            "weight": weight(report.weight),
            "coach": [
                "message": l.render(report.coach.message), "variation": report.coach.variation.rawValue,
                "situation": report.coach.situation.rawValue,
            ],
            "mascot": Mascot.values(report.coach.variation, size: 60),
            "calories": l.render(report.calories.message),
            "target": report.targetLine(l),
        ]
        values["mealGroups"] = mealGroups()
        if let goal = snapshot.goal {
            values["goal"] = ["headline": l.render(goal.headline), "outlook": l.render(goal.outlookMessage), "reached": goal.isReached]
        }
        if snapshot.isPast {
            // a past day's diary: what was eaten against that day's target, no words about today
            values["coach"] = nil
            values["isPast"] = true
            values["window"] = nil
            values["target"] = l.text("web.day.target", ["kcal": .integer(report.targets.kcal)])
            values["cycle"] = nil
        } else if report.weight.promptToday {
            values["prompt"] = true
        }
        if let cycle = report.cycle, !snapshot.isPast { values["cycle"] = self.cycle(cycle) }
        if let notice = report.phaseSwitch {
            values["phaseSwitch"] = ["headline": l.render(notice.headline), "why": l.render(notice.why)]
        }
        if let day = report.cycle {
            values["phaseWhy"] = l.text("cycle.why.\(day.phase.rawValue)")
        }
        return values
    }

    /// Today's meals under the eating moments of the profile (empty moments too), the
    /// current moment marked; each meal with edit, log again and delete.
    private func mealGroups() -> [[String: Any]] {
        let window = snapshot.settings.profile.eatingWindow
        // what was noted mindfully stays in the diary after recovery mode (issue 30: it vanished)
        let noted = Dictionary(grouping: snapshot.mindfulMeals) { window.moment(of: $0.entry) }
        return snapshot.mealGroups.map { group -> [String: Any] in
            let mindful = (noted[group.moment.number] ?? []).map { MindfulRow($0, localizer).values }
            return [
                "number": group.moment.number, "label": localizer.render(group.moment.label),
                "current": !snapshot.isPast && group.moment.number == snapshot.currentMoment,
                "hasMeals": !group.meals.isEmpty || !mindful.isEmpty,
                "meals": group.meals.map { MealRow($0, window: window, localizer).values }, "mindful": mindful,
            ]
        }
    }

    private func streak(_ streak: StreakStatus) -> [String: Any] {
        let l = localizer
        return [
            "lit": streak.isLit,
            "count": l.number(Double(streak.count), digits: 0),
            "label": l.text("web.streak.days", ["count": .integer(streak.count)]),
            "spoken": l.text("web.streak.spoken", ["count": .integer(streak.count)]),
        ]
    }

    private func cycle(_ day: CycleDay) -> [String: Any] {
        [
            "phase": localizer.render(day.phase.nameMessage), "key": day.phase.rawValue,
            "detail": snapshot.report.cycleDetails(localizer).joined(separator: " · "),
        ]
    }

    private func weight(_ card: WeightCard) -> [String: Any] {
        let l = localizer
        var values: [String: Any] = [:]
        if let current = card.currentKg {
            values["current"] = l.number(current, digits: 1)
        }
        if let average = card.averageKg { values["average"] = l.number(average, digits: 1) }
        if let down = card.downBy { values["down"] = l.number(down, digits: 1) }
        values["spoken"] = [
            card.currentKg.map { l.text("web.weight.spoken.current", ["kg": .decimal($0, digits: 1)]) } ?? l.text("web.weight.spoken.empty"),
            card.averageKg.map { l.text("weight.card.average", ["average": .decimal($0, digits: 1)]) },
            card.downBy.map { l.text("weight.card.down", ["difference": .decimal($0, digits: 1)]) },
        ].compactMap { $0 }.joined(separator: ". ")
        return values
    }
}

/// A meal noted mindfully (docs/rules.md §8) in the everyday diary: its words, time, hunger and
/// fullness, and "noted without amounts" where the calories stand; never a number.
struct MindfulRow {
    let values: [String: Any]

    init(_ meal: MindfulMeal, _ l: Localizer) {
        let e = meal.entry
        values = [
            "id": meal.id.uuidString, "name": e.name, "time": e.localTime.formatted,
            "feelings": l.text("web.recovery.meal.feelings", ["hunger": .message(e.hunger.word), "fullness": .message(e.fullness.word)]),
            "noted": l.text("meal.mindfulNoted"),
        ]
    }
}

/// The dashboard in recovery mode (docs/rules.md §8): today's meals against the eating moments —
/// regularity, not amounts — the flame without a count, gentle words; no ring, no macros, no
/// weight, no target.
struct RecoveryDayView {
    let snapshot: TodaySnapshot
    let localizer: Localizer

    var values: [String: Any] {
        let l = localizer
        let report = snapshot.report
        let lit = report.streak.isLit
        // the coach's recovery words (DietCore), with the everyday ones' look: gentle
        return [
            "lit": lit, "flame": l.text(lit ? "web.recovery.flame.lit" : "web.recovery.flame.waiting"),
            "window": WindowBanner(report.eatingWindow, l).values,
            "coach": [
                "message": l.render(report.coach.message), "variation": report.coach.variation.rawValue,
                "situation": report.coach.situation.rawValue,
            ],
            "mascot": Mascot.values(report.coach.variation, size: 60), "moments": moments(),
        ]
    }

    /// Every eating moment of the profile with what was eaten in it, in the order eaten.
    private func moments() -> [[String: Any]] {
        let window = snapshot.settings.profile.eatingWindow
        let rows = RecoveryMealRow.rows(meals: snapshot.meals, mindful: snapshot.mindfulMeals, window: window, localizer)
        let byMoment = Dictionary(grouping: rows) { $0.moment }
        return window.eatingMoments.map { moment -> [String: Any] in
            let meals = byMoment[moment.number] ?? []
            return [
                "number": moment.number, "label": localizer.render(moment.label),
                "current": !snapshot.isPast && moment.number == snapshot.currentMoment,
                "hasMeals": !meals.isEmpty, "meals": meals.map(\.values),
            ]
        }
    }
}

/// One meal in recovery mode: its words, time and (mindful) hunger and fullness; never an amount.
struct RecoveryMealRow {
    let moment: Int
    let instant: Date
    let values: [String: Any]

    /// Meals logged with numbers and mindful meals together, in the order eaten.
    static func rows(meals: [Meal], mindful: [MindfulMeal], window: EatingWindow, _ l: Localizer) -> [RecoveryMealRow] {
        let numeric = meals.map { meal in
            RecoveryMealRow(
                moment: window.moment(of: meal.entry),
                instant: meal.entry.instant,
                values: row(id: meal.id, name: meal.entry.name, time: meal.entry.localTime, href: "/meals/\(meal.id.uuidString)", feelings: "", l)
            )
        }
        let noted = mindful.map { meal in
            let e = meal.entry
            let feelings =
                l.text("web.recovery.meal.feelings", ["hunger": .message(e.hunger.word), "fullness": .message(e.fullness.word)])
                + (e.feeling.map { " · " + l.render($0.word) } ?? "")
            return RecoveryMealRow(
                moment: window.moment(of: e),
                instant: e.instant,
                values: row(id: meal.id, name: e.name, time: e.localTime, href: "/mindful/\(meal.id.uuidString)", feelings: feelings, l)
            )
        }
        return (numeric + noted).sorted { $0.instant < $1.instant }
    }

    /// Every key always set: a missing one would be looked up in the enclosing context.
    private static func row(id: UUID, name: String, time: TimeOfDay, href: String, feelings: String, _ l: Localizer) -> [String: Any] {
        // Mustache takes an empty string as true: the flag says whether there are words
        [
            "id": id.uuidString, "name": name, "time": time.formatted, "href": href, "feelings": feelings, "hasFeelings": !feelings.isEmpty,
            "editLabel": l.text("web.recovery.meal.edit", ["name": .text(name)]),
        ]
    }
}

/// "Eating window: 12:00 – 18:00" with its clock and edit icons, on the dashboard and the log screen.
struct WindowBanner {
    let values: [String: Any]

    init(_ window: EatingWindow, _ l: Localizer) {
        let range = "\(window.start.formatted)–\(window.end.formatted)"
        values = [
            "text": l.text("web.window.banner", ["range": .text(range)]), "range": range,
            "edit": l.text("web.window.edit", ["range": .text(range)]),
        ]
    }
}

/// The segmented ring of docs/rules.md §5 as SVG: 160 px, a 20 px stroke, protein, carbs and fat
/// clockwise from 12 o'clock, each `kcal / target × 360°`. Each segment is a circle whose
/// dash covers its arc: length = sweep/360 × circumference, offset = −start/360 × circumference;
/// the circle is turned −90° so 0° is at 12 o'clock.
struct RingView {
    static let size = 160.0
    static let stroke = 20.0
    static var radius: Double { (size - stroke) / 2 }
    static var circumference: Double { 2 * Double.pi * radius }

    let report: DayReport
    let localizer: Localizer

    var values: [String: Any] {
        let l = localizer
        let c = Self.circumference
        let segments: [[String: Any]] = report.ring.segments.filter { $0.sweepDegrees > 0 }.map { segment in
            [
                "macro": segment.macro.rawValue,
                "dash": "\(Self.fixed(segment.sweepDegrees / 360 * c)) \(Self.fixed(c))",
                "offset": Self.fixed(-segment.startDegrees / 360 * c),
            ]
        }
        let totals = report.totals
        let spoken = l.text(
            "web.ring.spoken",
            [
                "eaten": .integer(report.calories.eatenKcal), "target": .integer(report.calories.targetKcal),
                "protein": Self.calories(totals.proteinKcal), "carbs": Self.calories(totals.carbsKcal), "fat": Self.calories(totals.fatKcal),
            ]
        )
        var values: [String: Any] = [
            "size": Self.fixed(Self.size), "center": Self.fixed(Self.size / 2), "radius": Self.fixed(Self.radius),
            "stroke": Self.fixed(Self.stroke), "segments": segments, "spoken": spoken,
            "eaten": l.number(Double(report.calories.eatenKcal), digits: 0),
            "targetKcal": l.number(Double(report.calories.targetKcal), digits: 0),
            // the big figure: what is left, or (docs/rules.md §5) how far over, where "left" stood
            "left": l.number(Double(report.calories.isOver ? report.calories.overKcal : report.calories.remainingKcal), digits: 0),
            "leftLabel": l.text(report.calories.isOver ? "web.ring.over" : "web.ring.left"),
        ]
        values["calories"] = l.render(report.calories.message)
        values["isOver"] = report.ring.isOver
        if report.ring.isOver {
            // docs/rules.md §5: over the target the ring is full (the energy the macros do not account
            // for closes it) and an overshoot mark sits at 12 o'clock; never red
            let filled = report.ring.segments.last?.endDegrees ?? 0
            values["rest"] =
                filled < 360
                ? [
                    "dash": "\(Self.fixed((360 - filled) / 360 * c)) \(Self.fixed(c))",
                    "offset": Self.fixed(-filled / 360 * c),
                ] : false
            let top = Self.size / 2 - Self.radius
            values["mark"] = [
                "x": Self.fixed(Self.size / 2), "y1": Self.fixed(top - Self.stroke / 2 - 2), "y2": Self.fixed(top + Self.stroke / 2 + 2),
            ]
        }
        return values
    }

    static func fixed(_ value: Double) -> String { String(format: "%.2f", value) }

    /// "160 calories" of a macro, spoken ("1 calorie").
    static func calories(_ kcal: Double) -> Message.Argument {
        .message(Message("web.ring.calories", ["count": .integer(Int(kcal.rounded()))]))
    }
}

/// One column of the macro card: smiley, coloured label, 40 × 3 progress bar, current/goal.
struct MacroView {
    let progress: MacroProgress
    let localizer: Localizer

    init(_ progress: MacroProgress, _ localizer: Localizer) {
        self.progress = progress
        self.localizer = localizer
    }

    var values: [String: Any] {
        let l = localizer
        let fraction = progress.goalG > 0 ? min(1, progress.eatenG / progress.goalG) : 0
        return [
            "macro": progress.macro.rawValue, "emoji": progress.smiley.emoji,
            "name": l.render(progress.macro.nameMessage),
            "value": l.text("web.macro.value", ["eaten": .integer(Int(progress.eatenG.rounded())), "goal": .integer(Int(progress.goalG.rounded()))]),
            "bar": RingView.fixed(40 * fraction), "spoken": spoken, "isAbove": progress.smiley == .above,
            "status": l.render(progress.statusMessage),
        ]
    }

    /// "Protein: 85 of 160 grams, great."
    var spoken: String {
        let l = localizer
        return l.text(
            "web.macro.spoken",
            [
                "macro": .message(progress.macro.nameMessage), "eaten": .integer(Int(progress.eatenG.rounded())),
                "goal": .integer(Int(progress.goalG.rounded())), "smiley": .message(progress.statusMessage),
            ]
        )
    }
}
