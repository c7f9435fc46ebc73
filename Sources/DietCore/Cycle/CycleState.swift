import Foundation

/// What a device remembers about the cycle between opens. The start date is the source of
/// truth; the rest is a cache of the last evaluation that recovery compares against.
public struct CycleState: Hashable, Sendable, Codable {
    public var startDate: LocalDate
    public var preset: CyclePreset
    /// The phase and programme day recorded at the last evaluation.
    public var phase: Phase
    public var programmeDay: Int
    /// The local date of the last evaluation and the zone it was made in.
    public var evaluatedOn: LocalDate
    public var timeZoneIdentifier: String
    /// The first day of the last phase whose switch message was shown.
    public var announcedPhaseStart: LocalDate?

    public init(
        startDate: LocalDate,
        preset: CyclePreset,
        phase: Phase,
        programmeDay: Int,
        evaluatedOn: LocalDate,
        timeZoneIdentifier: String,
        announcedPhaseStart: LocalDate?
    ) {
        self.startDate = startDate
        self.preset = preset
        self.phase = phase
        self.programmeDay = programmeDay
        self.evaluatedOn = evaluatedOn
        self.timeZoneIdentifier = timeZoneIdentifier
        self.announcedPhaseStart = announcedPhaseStart
    }

    /// The state written when onboarding finishes: day 1, the habit week needs no switch message.
    public static func start(on startDate: LocalDate, preset: CyclePreset, timeZone: TimeZone) -> CycleState {
        CycleState(
            startDate: startDate,
            preset: preset,
            phase: .habit,
            programmeDay: 1,
            evaluatedOn: startDate,
            timeZoneIdentifier: timeZone.identifier,
            announcedPhaseStart: startDate
        )
    }

    /// The state after evaluating `day` in `timeZone`; the announcement is kept.
    func evaluated(_ day: CycleDay, startDate: LocalDate, preset: CyclePreset, timeZone: TimeZone) -> CycleState {
        CycleState(
            startDate: startDate,
            preset: preset,
            phase: day.phase,
            programmeDay: day.programmeDay,
            evaluatedOn: day.date,
            timeZoneIdentifier: timeZone.identifier,
            announcedPhaseStart: announcedPhaseStart
        )
    }

    /// Marks the switch message of `day`'s phase as shown.
    public func announcing(_ day: CycleDay) -> CycleState {
        var copy = self
        copy.announcedPhaseStart = max(day.phaseStartDate, announcedPhaseStart ?? day.phaseStartDate)
        return copy
    }

    enum CodingKeys: String, CodingKey {
        case preset, phase
        case startDate = "start_date"
        case programmeDay = "programme_day"
        case evaluatedOn = "evaluated_on"
        case timeZoneIdentifier = "time_zone"
        case announcedPhaseStart = "announced_phase_start"
    }
}
