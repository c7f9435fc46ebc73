import GRDB

extension Migrations {
    /// Calendars sync (table `calendar_sources`). Filled in by the calendar-sync work.
    static func v14SyncedCalendars(_ db: Database) throws {}
}
