import GRDB

/// Every schema change, in order. Frozen history: a migration is never edited after it
/// lands; a change is a new migration appended at the end. Table and column names are
/// strings, never app types, so later code changes cannot alter old migrations.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1_core", migrate: v1Core)
        migrator.registerMigration("v2_activity_days", migrate: v2ActivityDays)
        migrator.registerMigration("v3_custom_foods", migrate: v3CustomFoods)
        migrator.registerMigration("v4_recipes", migrate: v4Recipes)
        migrator.registerMigration("v5_meals_by_food", migrate: v5MealsByFood)
        migrator.registerMigration("v6_sync_client", migrate: v6SyncClient)
        migrator.registerMigration("v7_calendars", migrate: v7Calendars)
        migrator.registerMigration("v8_whoop_cache", migrate: v8WhoopCache)
        migrator.registerMigration("v9_sync_set_aside", migrate: v9SyncSetAside)
        migrator.registerMigration("v10_meal_moments", migrate: v10MealMoments)
        migrator.registerMigration("v11_web_access", migrate: v11WebAccess)
        migrator.registerMigration("v12_recovery_mode", migrate: v12RecoveryMode)
        migrator.registerMigration("v13_badges", migrate: v13Badges)
        migrator.registerMigration("v14_synced_calendars", migrate: v14SyncedCalendars)
        migrator.registerMigration("v15_synced_whoop", migrate: v15SyncedWhoop)
        migrator.registerMigration("v16_local_calendar_files", migrate: v16LocalCalendarFiles)
        migrator.registerMigration("v17_goal_weight", migrate: v17GoalWeight)
        migrator.registerMigration("v18_meal_recipes", migrate: v18MealRecipes)
        return migrator
    }

    /// The goal weight (docs/rules.md §2), optional.
    private static func v17GoalWeight(_ db: Database) throws {
        try db.execute(
            sql: "ALTER TABLE profile ADD COLUMN goal_weight_kg REAL CHECK (goal_weight_kg BETWEEN 30 AND 200)"
        )
    }

    /// The recipe a meal was logged from, by id, and how many servings (recipes among the recent).
    private static func v18MealRecipes(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE meal_logs ADD COLUMN recipe_id TEXT;
                ALTER TABLE meal_logs ADD COLUMN recipe_servings REAL CHECK (recipe_servings > 0 AND recipe_servings <= 20);
                """
        )
    }

    /// Profile, cycle state, meals, weights, analytics events, and the sync bookkeeping.
    private static func v1Core(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE profile (
                  id TEXT PRIMARY KEY NOT NULL,
                  sex TEXT NOT NULL CHECK (sex IN ('male', 'female', 'other')),
                  age INTEGER NOT NULL CHECK (age BETWEEN 18 AND 99),
                  birth_date TEXT CHECK (birth_date IS NULL OR birth_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                  height_cm REAL NOT NULL CHECK (height_cm BETWEEN 100 AND 250),
                  weight_kg REAL NOT NULL CHECK (weight_kg BETWEEN 30 AND 200),
                  activity_level TEXT NOT NULL
                    CHECK (activity_level IN ('sedentary', 'light', 'moderate', 'active', 'very_active')),
                  goal TEXT NOT NULL CHECK (goal IN ('lose', 'maintain', 'gain')),
                  eating_window TEXT NOT NULL CHECK (json_valid(eating_window)),
                  language TEXT NOT NULL CHECK (language IN ('de', 'en', 'es')),
                  units TEXT NOT NULL CHECK (units IN ('metric', 'imperial')),
                  deficit REAL NOT NULL CHECK (deficit BETWEEN 0.10 AND 0.35),
                  cycle_preset TEXT NOT NULL CHECK (cycle_preset IN ('open_ended', 'study')),
                  locked_goals TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(locked_goals)),
                  accepted_maintenance_kcal INTEGER CHECK (accepted_maintenance_kcal BETWEEN 800 AND 6000),
                  start_date TEXT NOT NULL CHECK (start_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                  time_zone TEXT NOT NULL CHECK (length(time_zone) > 0),
                  updated_hlc TEXT NOT NULL,
                  deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
                ) STRICT;

                CREATE TABLE cycle_states (
                  id TEXT PRIMARY KEY NOT NULL,
                  start_date TEXT NOT NULL CHECK (start_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                  preset TEXT NOT NULL CHECK (preset IN ('open_ended', 'study')),
                  phase TEXT NOT NULL CHECK (phase IN ('habit', 'diet', 'maintenance', 'completed')),
                  programme_day INTEGER NOT NULL CHECK (programme_day >= 1),
                  evaluated_on TEXT NOT NULL,
                  time_zone TEXT NOT NULL,
                  announced_phase_start TEXT,
                  updated_hlc TEXT NOT NULL,
                  deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
                ) STRICT;

                CREATE TABLE meal_logs (
                  id TEXT PRIMARY KEY NOT NULL,
                  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 640), -- 80 characters; SQLite counts code points
                  kcal INTEGER NOT NULL CHECK (kcal BETWEEN 1 AND 9999),
                  protein_g REAL CHECK (protein_g BETWEEN 0 AND 999),
                  carbs_g REAL CHECK (carbs_g BETWEEN 0 AND 999),
                  fat_g REAL CHECK (fat_g BETWEEN 0 AND 999),
                  fiber_g REAL CHECK (fiber_g BETWEEN 0 AND 999),
                  logged_at TEXT NOT NULL,
                  local_date TEXT NOT NULL CHECK (local_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                  local_time TEXT NOT NULL CHECK (local_time GLOB '[0-2][0-9]:[0-5][0-9]'),
                  time_zone TEXT NOT NULL,
                  food_id TEXT,
                  portion_g REAL CHECK (portion_g IS NULL OR portion_g > 0),
                  created_at TEXT NOT NULL,
                  updated_hlc TEXT NOT NULL,
                  deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
                ) STRICT;
                CREATE INDEX meal_logs_by_day ON meal_logs (local_date, local_time) WHERE deleted = 0;

                CREATE TABLE weight_entries (
                  id TEXT PRIMARY KEY NOT NULL,
                  local_date TEXT NOT NULL CHECK (local_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
                  weight_kg REAL NOT NULL CHECK (weight_kg BETWEEN 30 AND 200),
                  logged_at TEXT NOT NULL,
                  time_zone TEXT NOT NULL,
                  updated_hlc TEXT NOT NULL,
                  deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
                ) STRICT;
                CREATE UNIQUE INDEX weight_entries_one_per_day ON weight_entries (local_date) WHERE deleted = 0;

                CREATE TABLE analytics_events (
                  id TEXT PRIMARY KEY NOT NULL,
                  name TEXT NOT NULL CHECK (length(name) > 0),
                  occurred_at TEXT NOT NULL,
                  local_date TEXT NOT NULL,
                  time_zone TEXT NOT NULL,
                  properties TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(properties)),
                  updated_hlc TEXT NOT NULL,
                  deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
                ) STRICT;
                CREATE INDEX analytics_events_by_name ON analytics_events (name, local_date);

                CREATE TABLE sync_outbox (
                  seq INTEGER PRIMARY KEY AUTOINCREMENT,
                  table_name TEXT NOT NULL,
                  row_id TEXT NOT NULL,
                  hlc TEXT NOT NULL,
                  deleted INTEGER NOT NULL CHECK (deleted IN (0, 1)),
                  row TEXT NOT NULL CHECK (json_valid(row)),
                  created_at TEXT NOT NULL
                ) STRICT;
                CREATE UNIQUE INDEX sync_outbox_one_per_row ON sync_outbox (table_name, row_id);

                CREATE TABLE sync_state (
                  key TEXT PRIMARY KEY NOT NULL,
                  value TEXT NOT NULL
                ) STRICT;
                """
        )
    }

    /// One row per local date with a live meal or weight, as days since 1970-01-01 (the
    /// integer `LocalDate.dayNumber`), kept by triggers on both tables so every path
    /// (intentions, import, sync merges) maintains it. The streak reads it from today
    /// backwards and stops at the first gap, instead of scanning every meal.
    private static func v2ActivityDays(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE activity_days (day INTEGER PRIMARY KEY NOT NULL) STRICT")
        let refresh = { (date: String) in
            """
            DELETE FROM activity_days WHERE day = CAST(julianday(\(date)) - 2440587.5 AS INTEGER)
              AND NOT EXISTS (SELECT 1 FROM meal_logs WHERE deleted = 0 AND local_date = \(date))
              AND NOT EXISTS (SELECT 1 FROM weight_entries WHERE deleted = 0 AND local_date = \(date));
            INSERT OR IGNORE INTO activity_days (day) SELECT CAST(julianday(\(date)) - 2440587.5 AS INTEGER)
              WHERE EXISTS (SELECT 1 FROM meal_logs WHERE deleted = 0 AND local_date = \(date))
                 OR EXISTS (SELECT 1 FROM weight_entries WHERE deleted = 0 AND local_date = \(date));
            """
        }
        for table in ["meal_logs", "weight_entries"] {
            try db.execute(
                sql: """
                    CREATE TRIGGER \(table)_activity_insert AFTER INSERT ON \(table) BEGIN \(refresh("NEW.local_date")) END;
                    CREATE TRIGGER \(table)_activity_update AFTER UPDATE OF local_date, deleted ON \(table) BEGIN
                      \(refresh("OLD.local_date")) \(refresh("NEW.local_date")) END;
                    CREATE TRIGGER \(table)_activity_delete AFTER DELETE ON \(table) BEGIN \(refresh("OLD.local_date")) END;
                    """
            )
        }
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO activity_days (day)
                  SELECT CAST(julianday(local_date) - 2440587.5 AS INTEGER) FROM
                    (SELECT local_date FROM meal_logs WHERE deleted = 0 UNION SELECT local_date FROM weight_entries WHERE deleted = 0)
                """
        )
    }

    /// The user's own foods: typed in, or a product found by barcode (Open Food Facts, with
    /// its attribution). Per-100 g values like the bundled foods; portions as JSON.
    private static func v3CustomFoods(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE custom_foods (
                  id TEXT PRIMARY KEY NOT NULL,
                  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 640),
                  search_text TEXT NOT NULL,
                  barcode TEXT CHECK (barcode IS NULL OR (length(barcode) IN (8, 13) AND barcode NOT GLOB '*[^0-9]*')),
                  kcal REAL NOT NULL CHECK (kcal BETWEEN 0 AND 900),
                  protein_g REAL NOT NULL CHECK (protein_g BETWEEN 0 AND 100),
                  carbs_g REAL NOT NULL CHECK (carbs_g BETWEEN 0 AND 100),
                  fat_g REAL NOT NULL CHECK (fat_g BETWEEN 0 AND 100),
                  fiber_g REAL NOT NULL CHECK (fiber_g BETWEEN 0 AND 100),
                  sugars_g REAL NOT NULL CHECK (sugars_g BETWEEN 0 AND 100),
                  sodium_mg REAL NOT NULL CHECK (sodium_mg BETWEEN 0 AND 100000),
                  portions TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(portions)),
                  source TEXT NOT NULL CHECK (source IN ('user', 'openfoodfacts')),
                  attribution TEXT,
                  created_at TEXT NOT NULL,
                  updated_hlc TEXT NOT NULL,
                  deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
                ) STRICT;
                CREATE UNIQUE INDEX custom_foods_by_barcode ON custom_foods (barcode) WHERE deleted = 0 AND barcode IS NOT NULL;
                """
        )
    }

    /// Recipes: a named list of food portions (JSON: food id and grams) that yields servings.
    private static func v4Recipes(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE recipes (
                  id TEXT PRIMARY KEY NOT NULL,
                  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 640),
                  items TEXT NOT NULL CHECK (json_valid(items) AND json_array_length(items) >= 1),
                  servings REAL NOT NULL CHECK (servings > 0 AND servings <= 100),
                  created_at TEXT NOT NULL,
                  updated_hlc TEXT NOT NULL,
                  deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
                ) STRICT;
                """
        )
    }

    /// Food search ranks by how often and how lately each candidate was logged: an index on
    /// the food of live meals keeps that lookup from scanning every meal.
    private static func v5MealsByFood(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX meal_logs_by_food ON meal_logs (food_id, local_date) WHERE deleted = 0 AND food_id IS NOT NULL
                """
        )
    }

    /// Sync with a server: a change the server refused stays in the outbox with its reason
    /// (and no longer blocks the others) until the row is written again. Barcodes of own foods
    /// stop being unique in the schema: two devices may give one barcode to two foods offline,
    /// and merging both must not fail; lookups take the newest.
    private static func v6SyncClient(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE sync_outbox ADD COLUMN rejected TEXT;
                DROP INDEX custom_foods_by_barcode;
                CREATE INDEX custom_foods_by_barcode ON custom_foods (barcode) WHERE deleted = 0 AND barcode IS NOT NULL;
                """
        )
    }

    /// Calendars for the morning briefing: where each comes from and its last fetched text,
    /// so the briefing works offline. Kept on this device (a file path means nothing on another).
    private static func v7Calendars(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE calendars (
                  id TEXT PRIMARY KEY NOT NULL,
                  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
                  location TEXT NOT NULL,
                  is_url INTEGER NOT NULL CHECK (is_url IN (0, 1)),
                  added_at TEXT NOT NULL,
                  fetched_at TEXT NOT NULL,
                  ics TEXT NOT NULL,
                  event_count INTEGER NOT NULL CHECK (event_count >= 0),
                  problem_count INTEGER NOT NULL CHECK (problem_count >= 0)
                ) STRICT;
                """
        )
    }

    /// WHOOP records fetched for the briefing (kept so it works offline), as WHOOP sent them.
    private static func v8WhoopCache(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE whoop_records (
                  kind TEXT NOT NULL CHECK (kind IN ('recovery', 'sleep')),
                  id TEXT NOT NULL,
                  recorded_at TEXT NOT NULL,
                  json TEXT NOT NULL CHECK (json_valid(json)),
                  PRIMARY KEY (kind, id)
                ) STRICT;
                CREATE INDEX whoop_records_by_time ON whoop_records (kind, recorded_at);
                """
        )
    }

    /// Pulled changes this device cannot store (they break the row contract, cannot be read
    /// or are refused by the schema): kept with the reason instead of stopping the pull, shown
    /// in the sync status, and dropped when a newer change of the same row is stored.
    private static func v9SyncSetAside(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE sync_set_aside (
                  table_name TEXT NOT NULL,
                  row_id TEXT NOT NULL,
                  hlc TEXT NOT NULL,
                  deleted INTEGER NOT NULL CHECK (deleted IN (0, 1)),
                  row TEXT NOT NULL,
                  reason TEXT NOT NULL,
                  received_at TEXT NOT NULL,
                  PRIMARY KEY (table_name, row_id)
                ) STRICT;
                """
        )
    }

    /// Eating moments as meal slots: the moment (1–5) a meal was logged to. Older meals keep
    /// NULL and are grouped by their time.
    private static func v10MealMoments(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE meal_logs ADD COLUMN moment INTEGER CHECK (moment IS NULL OR moment BETWEEN 1 AND 5);
                """
        )
    }

    /// Sign-in to `wdiet serve` from the home network, local to this device and never synced:
    /// the passphrase's slow hash (NULL until the first one is set) with the count of failed attempts in a row and the lock they
    /// set, and the signed-in browsers by the SHA-256 of their session token (a copy of the file
    /// gives no live session). Times are seconds since 1970.
    private static func v11WebAccess(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE web_passphrase (
                  id INTEGER PRIMARY KEY CHECK (id = 1),
                  hash TEXT,
                  set_at REAL NOT NULL,
                  failures INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),
                  locked_until REAL
                ) STRICT;
                CREATE TABLE web_sessions (
                  token_hash TEXT PRIMARY KEY CHECK (length(token_hash) = 64),
                  created_at REAL NOT NULL,
                  last_seen_at REAL NOT NULL
                ) STRICT;
                """
        )
    }
}
