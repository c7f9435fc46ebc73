import DietCore
import Foundation
import GRDB
import SyncProtocol

/// The single row of `cycle_states`: the cached last evaluation recovery compares against.
struct CycleStateRecord: SyncedRecord, Hashable {
    static let syncTable = SyncTable.cycleStates
    static let rowID = NaturalKey.id(table: syncTable, key: "cycle")

    var id: UUID
    var startDate: String
    var preset: String
    var phase: String
    var programmeDay: Int
    var evaluatedOn: String
    var timeZone: String
    var announcedPhaseStart: String?
    var updatedHLC: String
    var deleted: Bool

    enum CodingKeys: String, CodingKey {
        case id, preset, phase, deleted
        case startDate = "start_date"
        case programmeDay = "programme_day"
        case evaluatedOn = "evaluated_on"
        case timeZone = "time_zone"
        case announcedPhaseStart = "announced_phase_start"
        case updatedHLC = "updated_hlc"
    }

    init(_ state: CycleState) {
        id = Self.rowID
        startDate = state.startDate.iso
        preset = state.preset.rawValue
        phase = state.phase.rawValue
        programmeDay = state.programmeDay
        evaluatedOn = state.evaluatedOn.iso
        timeZone = state.timeZoneIdentifier
        announcedPhaseStart = state.announcedPhaseStart?.iso
        updatedHLC = ""
        deleted = false
    }

    /// The state; nil when the row is damaged, which recovery treats as a corrupted state.
    var state: CycleState? {
        guard let start = LocalDate(iso: startDate), let preset = CyclePreset(rawValue: preset),
            let phase = Phase(rawValue: phase), let evaluated = LocalDate(iso: evaluatedOn)
        else { return nil }
        return CycleState(
            startDate: start,
            preset: preset,
            phase: phase,
            programmeDay: programmeDay,
            evaluatedOn: evaluated,
            timeZoneIdentifier: timeZone,
            announcedPhaseStart: announcedPhaseStart.flatMap(LocalDate.init(iso:))
        )
    }

    var unreadableReason: String? { state == nil ? "the cycle state cannot be read" : nil }
}
