import Foundation

/// The tables that sync. Their raw values are the table names on both sides.
public enum SyncTable: String, CaseIterable, Codable, Sendable {
    case profile
    case cycleStates = "cycle_states"
    case mealLogs = "meal_logs"
    case weightEntries = "weight_entries"
    case analyticsEvents = "analytics_events"
    case customFoods = "custom_foods"
    case recipes
    case calendarSources = "calendar_sources"
    case briefingSettings = "briefing_settings"
    /// Meals logged in recovery mode, without an amount (docs/rules.md §8).
    case mindfulMeals = "mindful_meals"
    /// WHOOP recoveries, sleeps, cycles and workouts, written by whichever side fetched them
    /// (the server after a webhook, or a device connected directly), so every device briefs.
    case whoopRecords = "whoop_records"
}

/// One row's new state: the whole row (last writer wins per row, never per field), or a
/// tombstone. `row` holds the row's columns as JSON, snake_case, without the sync columns.
public struct Change: Hashable, Sendable, Codable {
    public let table: SyncTable
    public let id: UUID
    public let hlc: HLC
    public let deleted: Bool
    public let row: JSONValue

    public init(table: SyncTable, id: UUID, hlc: HLC, deleted: Bool, row: JSONValue) {
        self.table = table
        self.id = id
        self.hlc = hlc
        self.deleted = deleted
        self.row = row
    }
}

/// The merge rule shared by client and server.
public enum MergeRule {
    /// An incoming change wins only if it is strictly newer than what is stored; an equal
    /// stamp is a replay and changes nothing.
    public static func shouldApply(incoming: HLC, stored: HLC?) -> Bool {
        guard let stored else { return true }
        return incoming > stored
    }
}

/// Ids of rows unique by a natural key (one weight per local date, the profile, the cycle
/// state), so two devices that create "the weight of 2026-03-01" offline write the same row
/// and last-writer-wins resolves it. The id is a version-8 UUID from two FNV-1a hashes of the
/// key: deterministic on every platform and needing nothing beyond Foundation.
///
/// The key does not include the user id: a device logs before it has an account, and the
/// server keys every row by `(user_id, id)`, so ids need to be unique only per user.
public enum NaturalKey {
    /// A deterministic UUID for `key` within `table`.
    public static func id(table: SyncTable, key: String) -> UUID {
        let text = Array("w-diet/\(table.rawValue)/\(key)".utf8)
        var bytes = [UInt8]()
        for seed in [UInt64(0xcbf2_9ce4_8422_2325), UInt64(0x8422_2325_cbf2_9ce4)] {
            var hash = seed
            for byte in text {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01b3
            }
            withUnsafeBytes(of: hash.bigEndian) { bytes.append(contentsOf: $0) }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: custom
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }
}
