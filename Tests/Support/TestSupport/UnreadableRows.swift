import Foundation
import SyncProtocol

/// Rows another device (or a stolen token, or a server's operator) could push that no device
/// can read: every case a device sets aside on pull. The server must refuse each on push with
/// its reason, so the row never reaches a device; the valid rows beside them must still apply.
/// Written from the issue's findings and the devices' decoders, not from the contract's code.
public enum UnreadableRows {
    public static let wallMs: Int64 = 1_767_600_000_000

    /// A valid change of `table` with `fields` replacing those of the table's valid row.
    public static func change(_ table: SyncTable, _ fields: [String: JSONValue] = [:], wallMs: Int64 = wallMs) -> Change {
        var row = validRows[table] ?? [:]
        row.merge(fields) { $1 }
        let id: UUID =
            switch table {
            case .profile: NaturalKey.id(table: .profile, key: "profile")
            case .weightEntries: NaturalKey.id(table: .weightEntries, key: row["local_date"]?.stringValue ?? "")
            default: UUID()
            }
        return Change(table: table, id: id, hlc: HLC(wallMs: wallMs, counter: 0, deviceID: "attacker"), deleted: false, row: .object(row))
    }

    /// One row of each table the cases change, as a device writes it.
    public static let validRows: [SyncTable: [String: JSONValue]] = [
        .profile: [
            "sex": .string("female"), "age": .number(34), "height_cm": .number(168), "weight_kg": .number(72.5),
            "activity_level": .string("light"), "goal": .string("lose"),
            "eating_window": .string(#"{"start":"12:00","end":"18:00","moments":["12:00","15:00","18:00"],"names":["Brunch",null,null]}"#),
            "language": .string("de"), "units": .string("metric"), "deficit": .number(0.3), "cycle_preset": .string("open_ended"),
            "locked_goals": .string(#"{"deficit":{"kcal":1400,"protein_g":120,"carbs_g":140,"fat_g":45}}"#),
            "recovery_periods": .string(#"[{"from":"2026-01-01","until":"2026-01-03"}]"#),
            "start_date": .string("2026-01-05"), "time_zone": .string("Europe/Berlin"),
        ],
        .customFoods: [
            "name": .string("Omas Apfelkuchen"), "search_text": .string("omas apfelkuchen"), "kcal": .number(250),
            "protein_g": .number(4), "carbs_g": .number(35), "fat_g": .number(10), "fiber_g": .number(2), "sugars_g": .number(20),
            "sodium_mg": .number(100), "portions": .string(#"[{"amount":1,"name":"Stück","grams":120}]"#), "source": .string("user"),
            "created_at": .string("2026-01-05T07:00:00.000Z"),
        ],
        .recipes: [
            "name": .string("Porridge"), "items": .string(#"[{"food_id":"8120","grams":60},{"food_id":"1079","grams":200}]"#),
            "servings": .number(1), "created_at": .string("2026-01-05T07:00:00.000Z"),
        ],
        .weightEntries: [
            "local_date": .string("2026-01-05"), "weight_kg": .number(72.4), "logged_at": .string("2026-01-05T07:00:00.000Z"),
            "time_zone": .string("Europe/Berlin"),
        ],
        .calendarSources: [
            "name": .string("Team"), "kind": .string("address"), "location": .string("https://calendar.example.org/team.ics"),
            "added_at": .string("2026-01-05T07:00:00.000Z"), "fetched_at": .string("2026-01-05T07:00:00.000Z"),
            "ics": .string("BEGIN:VCALENDAR\nVERSION:2.0\nEND:VCALENDAR\n"),
        ],
    ]

    /// What each case breaks, the field the refusal must name, and the change.
    public struct Case: Sendable, CustomStringConvertible {
        public let description: String
        public let field: String
        public let change: Change
        /// A device's decoders refuse it (false: it reads, and is harmful when it does, such
        /// as a calendar address that is a local path).
        public var unreadable: Bool { change.table != .calendarSources }
    }

    public static let cases: [Case] = [
        Case(
            description: "an eating window of 25:99 to -1 with moments \"lots\"",
            field: "eating_window",
            change: change(.profile, ["eating_window": .string(#"{"start":"25:99","end":-1,"moments":"lots"}"#)])
        ),
        Case(
            description: "an eating window of 20 hours",
            field: "eating_window",
            change: change(.profile, ["eating_window": .string(#"{"start":"06:00","end":"02:00","moments":["06:00","12:00"]}"#)])
        ),
        Case(
            description: "an eating window naming one moment twice",
            field: "eating_window",
            change: change(.profile, ["eating_window": .string(#"{"start":"12:00","end":"18:00","moments":["12:00","12:00"]}"#)])
        ),
        Case(
            description: "an eating moment outside the window",
            field: "eating_window",
            change: change(.profile, ["eating_window": .string(#"{"start":"12:00","end":"18:00","moments":["12:00","20:00"]}"#)])
        ),
        Case(
            description: "an eating window without moments",
            field: "eating_window",
            change: change(.profile, ["eating_window": .string(#"{"start":"12:00","end":"18:00"}"#)])
        ),
        Case(
            description: "an eating moment's name of 31 characters",
            field: "eating_window",
            change: change(
                .profile,
                [
                    "eating_window": .string(
                        #"{"start":"12:00","end":"18:00","moments":["12:00","18:00"],"names":["\#(String(repeating: "x", count: 31))"]}"#
                    )
                ]
            )
        ),
        Case(
            description: "eating moments' names that are a number",
            field: "eating_window",
            change: change(.profile, ["eating_window": .string(#"{"start":"12:00","end":"18:00","moments":["12:00","18:00"],"names":5}"#)])
        ),
        Case(
            description: "locked calories below the safety floor of a man",
            field: "locked_goals",
            change: change(
                .profile,
                ["sex": .string("male"), "locked_goals": .string(#"{"deficit":{"kcal":1300,"protein_g":1,"carbs_g":1,"fat_g":1}}"#)]
            )
        ),
        Case(
            description: "locked goals of a target kind that does not exist",
            field: "locked_goals",
            change: change(.profile, ["locked_goals": .string(#"{"bulk":{"kcal":2000,"protein_g":1,"carbs_g":1,"fat_g":1}}"#)])
        ),
        Case(
            description: "locked calories that are not a whole number",
            field: "locked_goals",
            change: change(.profile, ["locked_goals": .string(#"{"deficit":{"kcal":1500.5,"protein_g":1,"carbs_g":1,"fat_g":1}}"#)])
        ),
        Case(
            description: "locked goals as a list",
            field: "locked_goals",
            change: change(.profile, ["locked_goals": .string(#"[1,2]"#)])
        ),
        Case(
            description: "a recovery period that ends before it starts",
            field: "recovery_periods",
            change: change(.profile, ["recovery_periods": .string(#"[{"from":"2026-02-01","until":"2026-01-01"}]"#)])
        ),
        Case(
            description: "a recovery period of numbers",
            field: "recovery_periods",
            change: change(.profile, ["recovery_periods": .string(#"[5]"#)])
        ),
        Case(
            description: "a profile weight off the 0.1 kg grid",
            field: "weight_kg",
            change: change(.profile, ["weight_kg": .number(72.55)])
        ),
        Case(
            description: "portions of -1, 5 and null",
            field: "portions",
            change: change(.customFoods, ["portions": .string(#"[{"amount":-1},5,null]"#)])
        ),
        Case(
            description: "a portion without a name",
            field: "portions",
            change: change(.customFoods, ["portions": .string(#"[{"amount":1,"grams":100}]"#)])
        ),
        Case(
            description: "recipe items of -5 g and 7",
            field: "items",
            change: change(.recipes, ["items": .string(#"[{"food_id":"999999999","grams":-5},7]"#)])
        ),
        Case(
            description: "a recipe item that is a number",
            field: "items",
            change: change(.recipes, ["items": .string(#"[7]"#)])
        ),
        Case(
            description: "a weight off the 0.1 kg grid",
            field: "weight_kg",
            change: change(.weightEntries, ["weight_kg": .number(72.55)])
        ),
        Case(
            description: "a calendar address that is a local path",
            field: "location",
            change: change(.calendarSources, ["location": .string("/dev/stdin")])
        ),
        Case(
            description: "a calendar address of the file scheme",
            field: "location",
            change: change(.calendarSources, ["location": .string("file:///etc/passwd")])
        ),
        Case(
            description: "a calendar address with a tab in it",
            field: "location",
            change: change(.calendarSources, ["location": .string("https://calendar.example.org/\tteam.ics")])
        ),
    ]
}
