import GRDB

extension Migrations {
    /// Recovery mode (docs/rules.md §8): the profile's switch (the local date it was turned on; NULL
    /// while off) with the closed periods it was on (a JSON array of `{"from","through"}`
    /// dates, so the cycle can skip them; NULL: none), and mindful meals: what was eaten, without an
    /// amount, hunger before and fullness after (steps 1–5), an optional feeling.
    ///
    /// A mindful meal makes its day active for the streak like a meal or a weight: the
    /// activity triggers of v2 are replaced by ones that look at all three tables.
    static func v12RecoveryMode(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE profile ADD COLUMN recovery_since TEXT
                  CHECK (recovery_since IS NULL OR (length(recovery_since) = 10 AND date(recovery_since) = recovery_since));
                ALTER TABLE profile ADD COLUMN recovery_periods TEXT CHECK (recovery_periods IS NULL
                  OR (json_valid(recovery_periods) AND json_type(recovery_periods) = 'array' AND length(recovery_periods) <= 4096));

                CREATE TABLE mindful_meals (
                  id TEXT PRIMARY KEY NOT NULL,
                  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 640), -- 80 characters; SQLite counts code points
                  hunger INTEGER NOT NULL CHECK (hunger BETWEEN 1 AND 5),
                  fullness INTEGER NOT NULL CHECK (fullness BETWEEN 1 AND 5),
                  feeling TEXT CHECK (feeling IS NULL OR feeling IN
                    ('calm', 'happy', 'social', 'grateful', 'tired', 'stressed', 'anxious', 'sad', 'bored')),
                  logged_at TEXT NOT NULL,
                  local_date TEXT NOT NULL CHECK (length(local_date) = 10 AND date(local_date) = local_date),
                  local_time TEXT NOT NULL CHECK (local_time GLOB '[0-2][0-9]:[0-5][0-9]'),
                  time_zone TEXT NOT NULL,
                  moment INTEGER CHECK (moment IS NULL OR moment BETWEEN 1 AND 5),
                  created_at TEXT NOT NULL,
                  updated_hlc TEXT NOT NULL,
                  deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
                ) STRICT;
                CREATE INDEX mindful_meals_by_day ON mindful_meals (local_date, local_time) WHERE deleted = 0;
                """
        )
        try activityCountsMindfulMeals(db)
    }

    private static func activityCountsMindfulMeals(_ db: Database) throws {
        let tables = ["meal_logs", "weight_entries", "mindful_meals"]
        let living = { (date: String) in
            tables.map { "EXISTS (SELECT 1 FROM \($0) WHERE deleted = 0 AND local_date = \(date))" }.joined(separator: " OR ")
        }
        let refresh = { (date: String) in
            """
            DELETE FROM activity_days WHERE day = CAST(julianday(\(date)) - 2440587.5 AS INTEGER) AND NOT (\(living(date)));
            INSERT OR IGNORE INTO activity_days (day) SELECT CAST(julianday(\(date)) - 2440587.5 AS INTEGER) WHERE \(living(date));
            """
        }
        for table in tables {
            try db.execute(
                sql: """
                    DROP TRIGGER IF EXISTS \(table)_activity_insert;
                    DROP TRIGGER IF EXISTS \(table)_activity_update;
                    DROP TRIGGER IF EXISTS \(table)_activity_delete;
                    CREATE TRIGGER \(table)_activity_insert AFTER INSERT ON \(table) BEGIN \(refresh("NEW.local_date")) END;
                    CREATE TRIGGER \(table)_activity_update AFTER UPDATE OF local_date, deleted ON \(table) BEGIN
                      \(refresh("OLD.local_date")) \(refresh("NEW.local_date")) END;
                    CREATE TRIGGER \(table)_activity_delete AFTER DELETE ON \(table) BEGIN \(refresh("OLD.local_date")) END;
                    """
            )
        }
    }
}
