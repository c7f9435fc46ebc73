import GRDB

extension Migrations {
    /// Recovery mode (SPEC §8): the profile's switch (the local date it was turned on; NULL
    /// while off) and mindful meals.
    static func v12RecoveryMode(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE profile ADD COLUMN recovery_since TEXT
              CHECK (recovery_since IS NULL OR (length(recovery_since) = 10 AND date(recovery_since) = recovery_since))
            """)
    }
}
