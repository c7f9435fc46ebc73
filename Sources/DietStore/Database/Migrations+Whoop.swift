import GRDB

extension Migrations {
    /// WHOOP records sync (table `whoop_records`). Filled in by the WHOOP-sync work.
    static func v15SyncedWhoop(_ db: Database) throws {}
}
