import DietCore
import Foundation
import GRDB
import SyncProtocol

/// The single row of `profile`: the user's settings plus the cycle's civil start date and the
/// zone onboarding finished in.
struct ProfileRecord: SyncedRecord, Hashable {
    static let syncTable = SyncTable.profile
    /// Every device of a user writes the same profile row.
    static let rowID = NaturalKey.id(table: syncTable, key: "profile")

    var id: UUID
    var sex: String
    var age: Int
    var birthDate: String?
    var heightCm: Double
    var weightKg: Double
    var activityLevel: String
    var goal: String
    var eatingWindow: String
    var language: String
    var units: String
    var deficit: Double
    var cyclePreset: String
    var lockedGoals: String
    var acceptedMaintenanceKcal: Int?
    var goalWeightKg: Double?
    var recoverySince: String?
    /// The closed recovery periods as a JSON array of `{"from","until"}`; nil: none.
    var recoveryPeriods: String?
    var startDate: String
    var timeZone: String
    var updatedHLC: String
    var deleted: Bool

    enum CodingKeys: String, CodingKey {
        case id, sex, age, goal, language, units, deficit, deleted
        case birthDate = "birth_date"
        case heightCm = "height_cm"
        case weightKg = "weight_kg"
        case activityLevel = "activity_level"
        case eatingWindow = "eating_window"
        case cyclePreset = "cycle_preset"
        case lockedGoals = "locked_goals"
        case acceptedMaintenanceKcal = "accepted_maintenance_kcal"
        case goalWeightKg = "goal_weight_kg"
        case recoverySince = "recovery_since"
        case recoveryPeriods = "recovery_periods"
        case startDate = "start_date"
        case timeZone = "time_zone"
        case updatedHLC = "updated_hlc"
    }

    init(_ settings: UserSettings) throws {
        let profile = settings.profile
        id = Self.rowID
        sex = profile.sex.rawValue
        age = profile.age
        birthDate = profile.birthDate?.iso
        heightCm = profile.heightCm
        weightKg = profile.weightKg
        activityLevel = profile.activityLevel.rawValue
        goal = profile.goal.rawValue
        eatingWindow = try String(decoding: JSONEncoder.store.encode(profile.eatingWindow), as: UTF8.self)
        language = profile.language.rawValue
        units = profile.units.rawValue
        deficit = profile.deficit
        cyclePreset = profile.cyclePreset.rawValue
        lockedGoals = try String(decoding: JSONEncoder.store.encode(profile.lockedGoals), as: UTF8.self)
        acceptedMaintenanceKcal = settings.acceptedMaintenanceKcal
        goalWeightKg = profile.goalWeightKg
        recoverySince = settings.recoverySince?.iso
        recoveryPeriods =
            settings.recoveryPeriods.isEmpty
            ? nil : try String(decoding: JSONEncoder.store.encode(settings.recoveryPeriods), as: UTF8.self)
        startDate = settings.startDate.iso
        timeZone = settings.timeZoneIdentifier
        updatedHLC = ""
        deleted = false
    }

    /// The settings this row holds, validated again (a row edited outside the app fails here).
    func settings() throws -> UserSettings {
        let decoder = JSONDecoder()
        guard let sex = Sex(rawValue: sex), let activity = ActivityLevel(rawValue: activityLevel),
            let goal = Goal(rawValue: goal), let language = Language(rawValue: language),
            let units = UnitSystem(rawValue: units), let preset = CyclePreset(rawValue: cyclePreset),
            let start = LocalDate(iso: startDate),
            recoverySince == nil || recoverySince.flatMap(LocalDate.init(iso:)) != nil
        else { throw StoreError.damaged(table: Self.databaseTableName, id: id.uuidString) }
        let profile = try Profile(
            sex: sex,
            age: age,
            birthDate: birthDate.flatMap(LocalDate.init(iso:)),
            heightCm: heightCm,
            weightKg: weightKg,
            activityLevel: activity,
            goal: goal,
            eatingWindow: decoder.decode(EatingWindow.self, from: Data(eatingWindow.utf8)),
            language: language,
            units: units,
            deficit: deficit,
            cyclePreset: preset,
            lockedGoals: decoder.decode([TargetKind: LockedGoals].self, from: Data(lockedGoals.utf8)),
            goalWeightKg: goalWeightKg
        )
        var settings = UserSettings(
            profile: profile,
            startDate: start,
            timeZoneIdentifier: timeZone,
            acceptedMaintenanceKcal: acceptedMaintenanceKcal
        )
        settings.recoverySince = recoverySince.flatMap(LocalDate.init(iso:))
        if let recoveryPeriods {
            settings.recoveryPeriods = try decoder.decode([RecoveryPeriod].self, from: Data(recoveryPeriods.utf8))
        }
        return settings
    }

    var unreadableReason: String? {
        do {
            _ = try settings()
            return nil
        } catch {
            return "the profile's settings cannot be read or are out of range"
        }
    }
}

/// The profile with what the store keeps beside it.
public struct UserSettings: Hashable, Sendable {
    public var profile: Profile
    /// The cycle's civil start date: the day onboarding finished, in `timeZoneIdentifier`.
    public var startDate: LocalDate
    public var timeZoneIdentifier: String
    /// An adaptive maintenance estimate the user accepted (docs/rules.md §3a).
    public var acceptedMaintenanceKcal: Int?
    /// The local date recovery mode was turned on (docs/rules.md §8); nil while it is off.
    public var recoverySince: LocalDate?
    /// The earlier stretches recovery mode was on, which the cycle skips (`CyclePauses`).
    public var recoveryPeriods: [RecoveryPeriod] = []

    /// The days the MATADOR cycle stood or stands still.
    public var cyclePauses: CyclePauses { CyclePauses(periods: recoveryPeriods, since: recoverySince) }

    /// The cycle engine of these settings: start date, preset and the pauses of recovery mode.
    /// Every surface reads the phase through this one, so a paused day is paused everywhere.
    public var cycleEngine: CycleEngine {
        CycleEngine(startDate: startDate, preset: profile.cyclePreset, pauses: cyclePauses)
    }

    /// Recovery mode is on: every surface hides calories, macros, weights, targets, streak
    /// counts and points, and the cycle is paused at maintenance.
    public var recoveryMode: Bool { recoverySince != nil }

    public init(profile: Profile, startDate: LocalDate, timeZoneIdentifier: String, acceptedMaintenanceKcal: Int? = nil) {
        self.profile = profile
        self.startDate = startDate
        self.timeZoneIdentifier = timeZoneIdentifier
        self.acceptedMaintenanceKcal = acceptedMaintenanceKcal
    }
}
