import GRDB

extension Migrations {
    /// Badges earned (docs/rules.md §5): kept so they are never lost and announced once. Local to this
    /// device and never synced: every badge follows from the synced meals and weights, so
    /// another device earns the same ones from the same history. `announced_at` is NULL for a
    /// badge recorded silently (in recovery mode, or found long after it was earned).
    static func v13Badges(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE earned_badges (
                  category TEXT NOT NULL CHECK (category IN ('streak', 'adherence', 'milestone', 'weight_progress')),
                  tier TEXT NOT NULL CHECK (tier IN ('bronze', 'silver', 'gold', 'platinum')),
                  earned_on TEXT NOT NULL CHECK (earned_on GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                  recorded_at TEXT NOT NULL,
                  announced_at TEXT,
                  PRIMARY KEY (category, tier)
                ) STRICT;
                """
        )
    }
}
