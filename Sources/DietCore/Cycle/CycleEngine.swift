import Foundation

/// The MATADOR calendar (docs/rules.md §3): a habit week at maintenance, then alternating 14-day blocks,
/// diet first. Everything is a function of the civil start date and a local date, so phase
/// boundaries fall at local midnight wherever the user is, and an instant never enters the
/// arithmetic.
///
/// Only users whose goal is "lose" cycle; maintain and gain eat at a static target
/// (`EnergyPlan.staticKind`).
public struct CycleEngine: Hashable, Sendable {
    /// The day onboarding finished, in the user's time zone: programme day 1.
    public let startDate: LocalDate
    public let preset: CyclePreset

    public static let habitDays = 7
    public static let blockDays = 14
    /// The study protocol: 8 diet blocks alternating with 7 maintenance blocks (30 weeks).
    public static let studyBlockCount = 15

    /// The days recovery mode paused the programme (`CyclePauses` says how a pause works).
    public let pauses: CyclePauses

    public init(startDate: LocalDate, preset: CyclePreset, pauses: CyclePauses = .none) {
        self.startDate = startDate
        self.preset = preset
        self.pauses = pauses
    }

    /// Day n of the programme: local calendar days since the start date, plus one, less the
    /// days paused before `date`. A date before the start (a clock set back) counts as day 1;
    /// a paused date has the day the programme resumes at.
    public func programmeDay(on date: LocalDate) -> Int {
        max(1, startDate.days(to: date) + 1 - pauses.pausedDays(from: startDate, before: date))
    }

    /// The first local date of the completed state, for presets that end; nil while a pause
    /// that is still open makes it unknown.
    public var endDate: LocalDate? {
        guard preset == .study else { return nil }
        return date(ofProgrammeDay: Self.habitDays + Self.studyBlockCount * Self.blockDays + 1)
    }

    /// Where `date` falls in the programme.
    public func day(on date: LocalDate) -> CycleDay {
        let n = programmeDay(on: date)
        let segment = segment(containing: n)
        if let pauseStart = pauses.pauseStart(holding: date) {
            return pausedDay(date, programmeDay: n, segment: segment, pauseStart: pauseStart)
        }
        let dayInPhase = n - segment.firstDay + 1
        let next = segment.length.map { self.segment(containing: segment.firstDay + $0) }
        return CycleDay(
            date: date,
            programmeDay: n,
            phase: segment.phase,
            dayInPhase: dayInPhase,
            phaseLength: segment.length,
            daysUntilSwitch: segment.length.map { $0 - dayInPhase + 1 },
            nextSwitchDate: next.flatMap { self.date(ofProgrammeDay: $0.firstDay) },
            nextPhase: next?.phase,
            blockNumber: segment.blockNumber,
            phaseStartDate: self.date(ofProgrammeDay: segment.firstDay) ?? date,
            paused: false
        )
    }

    /// A paused day: at maintenance, its "phase" the pause itself (from its first day; its
    /// length and end known only once recovery mode was turned off), the programme's phase
    /// following it.
    private func pausedDay(_ date: LocalDate, programmeDay n: Int, segment: Segment, pauseStart: LocalDate) -> CycleDay {
        let end = pauses.pauseEnd(holding: date)
        let length = end.map { pauseStart.days(to: $0) + 1 }
        let dayInPhase = pauseStart.days(to: date) + 1
        return CycleDay(
            date: date,
            programmeDay: n,
            phase: .maintenance,
            dayInPhase: dayInPhase,
            phaseLength: length,
            daysUntilSwitch: length.map { $0 - dayInPhase + 1 },
            nextSwitchDate: end?.adding(days: 1),
            nextPhase: end == nil ? nil : segment.phase,
            blockNumber: segment.blockNumber,
            phaseStartDate: pauseStart,
            paused: true
        )
    }

    /// The phases that touch `from...through`, each clipped to that range, in order. Days
    /// before the start date belong to the habit week, as `day(on:)` says. A pause is a block
    /// of its own (at maintenance, `paused`), numbered like the block it interrupted.
    public func blocks(from: LocalDate, through: LocalDate) -> [CycleBlock] {
        var result: [CycleBlock] = []
        var cursor = from
        while cursor <= through {
            let day = day(on: cursor)
            var end = day.nextSwitchDate.map { min($0.adding(days: -1), through) } ?? through
            if !day.paused, let pause = pauses.nextPauseStart(after: cursor) { end = min(end, pause.adding(days: -1)) }
            result.append(CycleBlock(phase: day.phase, number: day.blockNumber, start: cursor, end: end, paused: day.paused))
            cursor = end.adding(days: 1)
        }
        return result
    }

    /// Today's and the next phase's targets on `date`.
    public func targets(on date: LocalDate, plan: EnergyPlan) -> CycleTargets {
        let day = day(on: date)
        return CycleTargets(
            day: day,
            today: plan.targets(day.phase.targetKind),
            next: day.nextPhase.map { plan.targets($0.targetKind) }
        )
    }

    /// The local date of programme day `n`, the paused days skipped; nil when it falls after
    /// the start of a pause that is still open.
    func date(ofProgrammeDay n: Int) -> LocalDate? {
        pauses.date(after: startDate, programmeDays: n - 1)
    }

    /// The programme's phase on programme day `n`, whether or not that day is paused.
    func phase(ofProgrammeDay n: Int) -> Phase {
        segment(containing: max(1, n)).phase
    }

    /// The phase segment holding programme day `n` (n ≥ 1).
    private func segment(containing n: Int) -> Segment {
        if n <= Self.habitDays {
            return Segment(phase: .habit, blockNumber: 0, firstDay: 1, length: Self.habitDays)
        }
        let index = (n - Self.habitDays - 1) / Self.blockDays
        if preset == .study && index >= Self.studyBlockCount {
            let first = Self.habitDays + Self.studyBlockCount * Self.blockDays + 1
            return Segment(phase: .completed, blockNumber: Self.studyBlockCount + 1, firstDay: first, length: nil)
        }
        return Segment(
            phase: index.isMultiple(of: 2) ? .diet : .maintenance,
            blockNumber: index + 1,
            firstDay: Self.habitDays + index * Self.blockDays + 1,
            length: Self.blockDays
        )
    }

    private struct Segment {
        let phase: Phase
        let blockNumber: Int
        let firstDay: Int
        /// nil: the segment never ends (completed).
        let length: Int?

        var lastDay: Int? { length.map { firstDay + $0 - 1 } }
    }
}

/// One local date of the programme, as the dashboard shows it.
public struct CycleDay: Hashable, Sendable, Codable {
    public let date: LocalDate
    /// 1-based; a date before the start date is day 1.
    public let programmeDay: Int
    public let phase: Phase
    /// 1-based day within the phase ("day 5 of 14").
    public let dayInPhase: Int
    /// 7 for the habit week, 14 for a block; nil once the study programme has completed.
    public let phaseLength: Int?
    /// Days until the next phase starts: 1 on the last day of a phase.
    public let daysUntilSwitch: Int?
    /// The first local date of the next phase.
    public let nextSwitchDate: LocalDate?
    public let nextPhase: Phase?
    /// 0 for the habit week, 1… for the blocks (odd: diet, even: maintenance).
    public let blockNumber: Int

    /// The first day of a phase: the day its switch message belongs to.
    public var isFirstDayOfPhase: Bool { dayInPhase == 1 }

    /// The phase's name as a surface shows it: "Paused — recovery mode" on a paused day,
    /// else the phase ("Diet phase").
    public var nameMessage: Message { paused ? Message("recovery.cyclePaused") : phase.nameMessage }

    /// The first local date of the current phase (the start date for a date before it); on a
    /// paused day, the first day of the pause.
    public let phaseStartDate: LocalDate
    /// Recovery mode paused the programme on this day: it eats at maintenance (`phase` is
    /// `.maintenance`), `programmeDay` is the day the programme resumes at, and the "phase"
    /// is the pause (its length and switch known only once it ended). See `CyclePauses`.
    public let paused: Bool

    enum CodingKeys: String, CodingKey {
        case date, phase
        case programmeDay = "programme_day"
        case dayInPhase = "day_in_phase"
        case phaseLength = "phase_length"
        case daysUntilSwitch = "days_until_switch"
        case nextSwitchDate = "next_switch_date"
        case nextPhase = "next_phase"
        case blockNumber = "block_number"
        case phaseStartDate = "phase_start_date"
        case paused
    }
}

/// A run of days in one phase; `end` is inclusive.
public struct CycleBlock: Hashable, Sendable, Codable {
    public let phase: Phase
    /// 0 for the habit week, 1… for the blocks, 16 for the completed study programme.
    public let number: Int
    public let start: LocalDate
    public let end: LocalDate
    /// Recovery mode paused the programme on these days (at maintenance).
    public let paused: Bool

    public init(phase: Phase, number: Int, start: LocalDate, end: LocalDate, paused: Bool = false) {
        self.phase = phase
        self.number = number
        self.start = start
        self.end = end
        self.paused = paused
    }

    public var dayCount: Int { start.days(to: end) + 1 }
}

/// Today's place in the cycle with today's and the next phase's targets.
public struct CycleTargets: Hashable, Sendable {
    public let day: CycleDay
    public let today: DailyTargets
    /// nil when no phase follows (the completed study programme).
    public let next: DailyTargets?
}
