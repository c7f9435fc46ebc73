import GRDB

/// Small key-value facts of this device's sync: its id, its last clock stamp, the pull cursor.
enum SyncState {
    enum Key: String {
        case deviceID = "device_id"
        case lastHLC = "last_hlc"
        case pullCursor = "pull_cursor"
        case lastSyncAt = "last_sync_at"
        case accountID = "account_id"
        case whoopSyncedAt = "whoop_synced_at"
    }

    static func value(_ key: Key, in db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = ?", arguments: [key.rawValue])
    }

    static func set(_ key: Key, _ value: String, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO sync_state (key, value) VALUES (?, ?)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """,
            arguments: [key.rawValue, value]
        )
    }
}
