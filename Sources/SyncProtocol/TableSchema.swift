import Foundation

/// The fields of one synced table's row (without the sync columns `id`, `updated_hlc` and
/// `deleted`, which travel beside it), mirroring what the device's store and domain accept.
struct TableSchema: Sendable {
    struct Field: Sendable {
        let name: String
        let rule: FieldRule
        /// May be absent or null.
        let optional: Bool
    }

    let fields: [Field]
    /// For rows unique by a natural key: the id the row must have, from its fields.
    let naturalKey: (@Sendable ([String: JSONValue]) -> UUID?)?
    /// A rule across fields, checked once each field kept its own: the field and the reason.
    let check: (@Sendable ([String: JSONValue]) -> (field: String, reason: String)?)?

    init(
        _ fields: [Field],
        naturalKey: (@Sendable ([String: JSONValue]) -> UUID?)? = nil,
        check: (@Sendable ([String: JSONValue]) -> (field: String, reason: String)?)? = nil
    ) {
        self.fields = fields
        self.naturalKey = naturalKey
        self.check = check
    }

    /// The first broken field rule, a missing field or a field the table does not have.
    func violation(in row: [String: JSONValue]) -> (field: String, reason: String)? {
        let known = Set(fields.map(\.name))
        if let unknown = row.keys.filter({ !known.contains($0) }).sorted().first {
            return (FieldRule.shown(unknown), "is not a field of this table")
        }
        for field in fields {
            guard let value = row[field.name], value != .null else {
                if field.optional { continue }
                return (field.name, "is required")
            }
            if let problem = field.rule.problem(value) { return (field.name, problem) }
        }
        return check?(row)
    }

    static func of(_ table: SyncTable) -> TableSchema? {
        switch table {
        case .profile: profile
        case .cycleStates: cycleStates
        case .mealLogs: mealLogs
        case .weightEntries: weightEntries
        case .analyticsEvents: analyticsEvents
        case .customFoods: customFoods
        case .recipes: recipes
        case .mindfulMeals: mindfulMeals
        case .calendarSources: calendarSources
        case .whoopRecords: whoopRecords
        case .briefingSettings: nil
        }
    }
}

func required(_ name: String, _ rule: FieldRule) -> TableSchema.Field {
    TableSchema.Field(name: name, rule: rule, optional: false)
}

func optional(_ name: String, _ rule: FieldRule) -> TableSchema.Field {
    TableSchema.Field(name: name, rule: rule, optional: true)
}

/// A meal's, food's or recipe's name: docs/rules.md §4, 1–80 characters.
private let name = FieldRule.text(1...80)
private let grams = FieldRule.number(0...999)
private let per100g = FieldRule.number(0...100)

extension TableSchema {
    static let profile = TableSchema(
        [
            required("sex", .choice(["male", "female", "other"])),
            required("age", .integer(18...99)),
            optional("birth_date", .date),
            required("height_cm", .number(100...250)),
            required("weight_kg", .number(30...200, step: 0.1)),
            required("activity_level", .choice(["sedentary", "light", "moderate", "active", "very_active"])),
            required("goal", .choice(["lose", "maintain", "gain"])),
            required("eating_window", .json(.eatingWindow, maxBytes: 8192)),
            required("language", .choice(["de", "en", "es"])),
            required("units", .choice(["metric", "imperial"])),
            required("deficit", .number(0.10...0.35)),
            required("cycle_preset", .choice(["open_ended", "study"])),
            required("locked_goals", .json(.lockedGoals, maxBytes: 4096)),
            optional("accepted_maintenance_kcal", .integer(800...6000)),
            optional("goal_weight_kg", .number(30...200, step: 0.1)),
            optional("recovery_since", .date),
            optional("recovery_periods", .json(.recoveryPeriods, maxBytes: 4096)),
            required("start_date", .date),
            required("time_zone", .timeZone),
        ],
        naturalKey: { _ in NaturalKey.id(table: .profile, key: "profile") },
        check: lockedGoalsAboveFloor
    )

    /// Locked calories are at least the safety floor of the profile's sex (docs/rules.md §3a).
    private static let lockedGoalsAboveFloor: @Sendable ([String: JSONValue]) -> (field: String, reason: String)? = { row in
        guard let sex = row["sex"]?.stringValue, let text = row["locked_goals"]?.stringValue,
            let goals = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), case .object(let kinds) = goals
        else { return nil }
        let floor = LockedGoalsRule.floor(sex: sex)
        for (kind, value) in kinds.sorted(by: { $0.key < $1.key }) {
            if let kcal = value["kcal"]?.doubleValue, kcal < Double(floor) {
                return ("locked_goals", "\(kind).kcal: must be at least \(floor) for sex \(sex); got \(FieldRule.shown(kcal))")
            }
        }
        return nil
    }

    static let cycleStates = TableSchema(
        [
            required("start_date", .date),
            required("preset", .choice(["open_ended", "study"])),
            required("phase", .choice(["habit", "diet", "maintenance", "completed"])),
            required("programme_day", .integer(1...1_000_000)),
            required("evaluated_on", .date),
            required("time_zone", .timeZone),
            optional("announced_phase_start", .date),
        ],
        naturalKey: { _ in NaturalKey.id(table: .cycleStates, key: "cycle") }
    )

    static let mealLogs = TableSchema([
        required("name", name),
        required("kcal", .integer(1...9999)),
        optional("protein_g", grams),
        optional("carbs_g", grams),
        optional("fat_g", grams),
        optional("fiber_g", grams),
        required("logged_at", .instant),
        required("local_date", .date),
        required("local_time", .time),
        required("time_zone", .timeZone),
        optional("food_id", .identifier(maxLength: 64)),
        optional("portion_g", .number(0...100_000, positive: true)),
        required("created_at", .instant),
        optional("moment", .integer(1...5)),
        optional("recipe_id", .identifier(maxLength: 64)),
        optional("recipe_servings", .number(0.1...20)),
    ])

    static let weightEntries = TableSchema(
        [
            required("local_date", .date),
            required("weight_kg", .number(30...200, step: 0.1)),
            required("logged_at", .instant),
            required("time_zone", .timeZone),
        ],
        naturalKey: { row in row["local_date"]?.stringValue.map { NaturalKey.id(table: .weightEntries, key: $0) } }
    )

    static let analyticsEvents = TableSchema([
        required("name", .identifier(maxLength: 64)),
        required("occurred_at", .instant),
        required("local_date", .date),
        required("time_zone", .timeZone),
        required("properties", .json(.anyObject, maxBytes: 4096)),
    ])

    static let customFoods = TableSchema([
        required("name", name),
        required("search_text", .freeText(maxCharacters: 4000)),
        optional("barcode", .digits(lengths: [8, 13])),
        required("kcal", .number(0...900)),
        required("protein_g", per100g),
        required("carbs_g", per100g),
        required("fat_g", per100g),
        required("fiber_g", per100g),
        required("sugars_g", per100g),
        required("sodium_mg", .number(0...100_000)),
        required("portions", .json(.portions, maxBytes: 16384)),
        required("source", .choice(["user", "openfoodfacts"])),
        optional("attribution", .freeText(maxCharacters: 500)),
        required("created_at", .instant),
    ])

    static let recipes = TableSchema([
        required("name", name),
        required("items", .json(.recipeItems, maxBytes: 32768)),
        required("servings", .number(0...100, positive: true)),
        required("created_at", .instant),
    ])

    /// Meals logged in recovery mode (docs/rules.md §8): no amount; hunger before and fullness after on
    /// the five-step scale; a feeling from a fixed list.
    static let mindfulMeals = TableSchema([
        required("name", name),
        required("hunger", .integer(1...5)),
        required("fullness", .integer(1...5)),
        optional("feeling", .choice(["calm", "happy", "social", "grateful", "tired", "stressed", "anxious", "sad", "bored"])),
        required("logged_at", .instant),
        required("local_date", .date),
        required("local_time", .time),
        required("time_zone", .timeZone),
        optional("moment", .integer(1...5)),
        required("created_at", .instant),
    ])
}
