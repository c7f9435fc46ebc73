import Foundation
import GRDB

/// Settings of this device alone: they never sync, so no other device of the account (nor
/// anyone who pushes rows to it) can change them.
extension AppDatabase {
    private static let calendarLocalHostsKey = "calendar_local_hosts"

    /// The hosts on the user's own network (or this machine) whose calendars this device may
    /// fetch; every other address must be public. Lower-case, as set.
    public func calendarLocalHosts() throws -> [String] {
        try reader.read { db in
            let text = try String.fetchOne(db, sql: "SELECT value FROM device_settings WHERE key = ?", arguments: [Self.calendarLocalHostsKey])
            return text.map { $0.split(separator: "\n").map(String.init) } ?? []
        }
    }

    /// Replaces the hosts `calendarLocalHosts()` returns (the caller checked each one).
    public func setCalendarLocalHosts(_ hosts: [String]) throws {
        let value = hosts.map { $0.lowercased() }.joined(separator: "\n")
        try writer.write { db in
            if hosts.isEmpty {
                try db.execute(sql: "DELETE FROM device_settings WHERE key = ?", arguments: [Self.calendarLocalHostsKey])
            } else {
                try db.execute(
                    sql: """
                        INSERT INTO device_settings (key, value) VALUES (?, ?)
                        ON CONFLICT (key) DO UPDATE SET value = excluded.value
                        """,
                    arguments: [Self.calendarLocalHostsKey, value]
                )
            }
        }
    }
}
