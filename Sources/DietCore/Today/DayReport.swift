/// Everything the dashboard shows for one local day, computed from plain inputs. The CLI,
/// the web app and the store's today snapshot all render this one value.
public struct DayReport: Hashable, Sendable {
    public let date: LocalDate
    /// nil for goals without cycling (maintain, gain).
    public let cycle: CycleDay?
    public let targets: DailyTargets
    /// The next phase's targets, when a phase follows.
    public let nextTargets: DailyTargets?
    public let plan: EnergyPlan
    public let totals: DailyTotals
    /// The macros, their smileys judged against the share of each goal due by now.
    public let macros: [MacroProgress]
    /// Every macro at least 70 % of the whole day's goal.
    public let allMacrosGood: Bool
    public let ring: ProgressRing
    public let calories: CalorieProgress
    public let streak: StreakStatus
    public let weight: WeightCard
    public let eatingWindow: EatingWindow
    public let coach: CoachAdvice
    /// The phase-switch message, when it is due and not yet shown (never in recovery mode).
    public let phaseSwitch: PhaseSwitchNotice?
    /// Recovery mode's view of the day (docs/rules.md §8), nil while it is off. While it is on, a
    /// surface shows this and the coach, and none of the numbers above: the cycle is paused
    /// (`cycle.paused`, targets at maintenance) and the coach speaks without numbers.
    public let recovery: RecoveryDay?

    /// Recovery mode is on.
    public var recoveryMode: Bool { recovery != nil }

    /// What a day report needs.
    public struct Input: Sendable {
        public var profile: Profile
        public var startDate: LocalDate
        public var today: LocalDate
        /// The local hour, for the coach.
        public var hour: Int
        /// The local time, for the share of the macro goals due by now (docs/rules.md §5); nil:
        /// the start of `hour`.
        public var time: TimeOfDay?
        /// The day is over (a past day's diary): its smileys judge the whole day's goals.
        public var dayIsOver: Bool
        /// Meals of today (others are ignored).
        public var meals: [MealEntry]
        /// Weights up to today; the latest sets the macro goals, the last 7 the average.
        public var weights: [WeightEntry]
        /// Every local date with a meal, for the streak (today's meals and every weight's date
        /// are added).
        public var activeDays: Set<LocalDate>
        public var acceptedMaintenanceKcal: Int?
        /// The stored cycle state after the recovery check, for the phase-switch message.
        public var cycleState: CycleState?
        /// The day recovery mode was turned on, nil while it is off (`UserSettings.recoverySince`).
        public var recoverySince: LocalDate?
        /// The closed periods recovery mode was on, which the cycle skips.
        public var recoveryPeriods: [RecoveryPeriod]
        /// Mindful meals of today (others are ignored); they make the day active.
        public var mindfulMeals: [MindfulMealEntry]

        public init(
            profile: Profile,
            startDate: LocalDate,
            today: LocalDate,
            hour: Int,
            time: TimeOfDay? = nil,
            dayIsOver: Bool = false,
            meals: [MealEntry],
            weights: [WeightEntry],
            activeDays: Set<LocalDate>,
            acceptedMaintenanceKcal: Int? = nil,
            cycleState: CycleState? = nil,
            recoverySince: LocalDate? = nil,
            recoveryPeriods: [RecoveryPeriod] = [],
            mindfulMeals: [MindfulMealEntry] = []
        ) {
            self.profile = profile
            self.startDate = startDate
            self.today = today
            self.hour = hour
            self.time = time
            self.dayIsOver = dayIsOver
            self.meals = meals
            self.weights = weights
            self.activeDays = activeDays
            self.acceptedMaintenanceKcal = acceptedMaintenanceKcal
            self.cycleState = cycleState
            self.recoverySince = recoverySince
            self.recoveryPeriods = recoveryPeriods
            self.mindfulMeals = mindfulMeals
        }

        /// The days the cycle stood or stands still.
        public var pauses: CyclePauses { CyclePauses(periods: recoveryPeriods, since: recoverySince) }
    }

    public init(_ input: Input) {
        let today = input.today
        let weights = input.weights.filter { $0.date <= today }
        let latest = weights.max { $0.date < $1.date }?.kg
        let plan = EnergyPlan(
            profile: input.profile,
            latestWeightKg: latest,
            on: today,
            acceptedMaintenanceKcal: input.acceptedMaintenanceKcal
        )
        date = today
        self.plan = plan
        if input.profile.goal == .lose {
            let engine = CycleEngine(startDate: input.startDate, preset: input.profile.cyclePreset, pauses: input.pauses)
            let cycle = engine.targets(on: today, plan: plan)
            self.cycle = cycle.day
            targets = cycle.today
            nextTargets = cycle.next
            phaseSwitch = input.cycleState.flatMap { PhaseSwitchNotice.due(state: $0, day: cycle.day, plan: plan, pauses: input.pauses) }
        } else {
            cycle = nil
            targets = plan.targets(plan.staticKind)
            nextTargets = nil
            phaseSwitch = nil
        }
        totals = DailyTotals(date: today, meals: input.meals)
        let mindful = input.mindfulMeals.filter { $0.localDate == today }
        recovery = input.recoverySince.map { since in
            RecoveryDay(
                since: since,
                window: input.profile.eatingWindow,
                meals: input.meals.filter { $0.localDate == today },
                mindfulMeals: mindful,
                now: TimeOfDay(minutesSinceMidnight: max(0, min(23, input.hour)) * 60)
            )
        }
        let now = input.time ?? TimeOfDay(minutesSinceMidnight: max(0, min(23, input.hour)) * 60)
        let share = input.dayIsOver ? 1 : MacroFeedback.dueShare(at: now, window: input.profile.eatingWindow)
        macros = MacroFeedback.progress(totals, targets: targets, share: share)
        // the coach and the roar praise a whole day's goals met, never a share of them
        allMacrosGood = MacroFeedback.allGood(MacroFeedback.progress(totals, targets: targets))
        ring = ProgressRing(totals: totals, targetKcal: targets.kcal)
        calories = CalorieProgress(eatenKcal: totals.kcal, targetKcal: targets.kcal)
        var active = input.activeDays.union(weights.map(\.date))
        if !totals.isEmpty || !mindful.isEmpty { active.insert(today) }
        streak = StreakStatus(activeDays: active, today: today)
        weight = WeightCard(entries: weights, today: today, onboardingKg: input.profile.weightKg, sex: input.profile.sex)
        eatingWindow = input.profile.eatingWindow
        var coachInput = CoachInput(
            phase: cycle?.phase ?? .maintenance,
            dayInPhase: cycle?.dayInPhase ?? 2,
            daysUntilSwitch: cycle?.daysUntilSwitch,
            anythingLogged: !totals.isEmpty || !mindful.isEmpty,
            allMacrosGood: allMacrosGood,
            eatenKcal: totals.kcal,
            targetKcal: targets.kcal,
            streak: streak,
            hour: input.hour,
            restartedAfterGap: streak.isFreshStart,
            smileys: macros.map(\.smiley),
            weightLoggedToday: weights.contains { $0.date == today }
        )
        coachInput.recoveryMode = recovery != nil
        coachInput.recoveryStartedToday = recovery?.startedOn(today) ?? false
        coach = CoachAdvice(coachInput, today: today)
    }

    /// The smileys in ring order: protein, carbs, fat.
    public var smileys: [Smiley] { macros.map(\.smiley) }
}
