import Foundation
import SyncProtocol
import Testing

@Suite("The row contract")
struct RowContractTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18
    static let stamp = HLC(wallMs: 1_795_000_000_000, counter: 0, deviceID: "device1")

    static let meal: [String: JSONValue] = [
        "name": .string("Linsensuppe"), "kcal": .number(520), "protein_g": .number(28),
        "logged_at": .string("2026-11-18T16:30:00.000Z"), "local_date": .string("2026-11-18"),
        "local_time": .string("17:30"), "time_zone": .string("Europe/Berlin"),
        "created_at": .string("2026-11-18T16:30:00.000Z"),
    ]

    static func change(
        _ table: SyncTable = .mealLogs,
        _ row: [String: JSONValue] = meal,
        id: UUID = UUID(),
        hlc: HLC = stamp
    ) -> Change {
        Change(table: table, id: id, hlc: hlc, deleted: false, row: .object(row))
    }

    static func changed(_ field: String, _ value: JSONValue?) -> Change {
        var row = meal
        row[field] = value
        return change(.mealLogs, row)
    }

    @Test("a meal as the app writes it is valid, a tab or a line break in its name too")
    func validMeal() {
        #expect(RowContract.violation(in: Self.change(), now: Self.now) == nil)
        #expect(RowContract.violation(in: Self.changed("name", .string("Quark\nmit Beeren\t(200 g)")), now: Self.now) == nil)
    }

    @Test("a meal's eating moment is optional, 1–5")
    func moment() throws {
        #expect(RowContract.violation(in: Self.changed("moment", .number(3)), now: Self.now) == nil)
        #expect(RowContract.violation(in: Self.changed("moment", .null), now: Self.now) == nil)
        let six = try #require(RowContract.violation(in: Self.changed("moment", .number(6)), now: Self.now))
        #expect(six.field == "moment")
        #expect(RowContract.violation(in: Self.changed("moment", .string("lunch")), now: Self.now)?.field == "moment")
    }

    @Test("negative calories and a 60,000-character name are refused, naming the field")
    func issueFindingOne() throws {
        let kcal = try #require(RowContract.violation(in: Self.changed("kcal", .number(-5)), now: Self.now))
        #expect(kcal.field == "kcal")
        #expect(kcal.description == "meal_logs.kcal: must be a whole number from 1 to 9999; got -5")
        let long = try #require(
            RowContract.violation(
                in: Self.changed("name", .string(String(repeating: "x", count: 60_000))),
                now: Self.now
            )
        )
        #expect(long.field == "name")
        #expect(long.reason == "must be 1–80 characters; got 60000")
    }

    @Test("80 characters heavy with combining marks are refused by code points, as the store counts them")
    func codePoints() {
        let zalgo = String(repeating: "a\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}\u{307}\u{308}", count: 79)
        #expect(
            RowContract.violation(in: Self.changed("name", .string(zalgo)), now: Self.now)?.reason
                == "must be at most 640 code points; got 711"
        )
    }

    @Test("NUL, escape and other control characters are refused in every text", arguments: ["a\u{0}b", "\u{1B}[2J", "a\u{7F}", "a\u{85}b", "a\rb"])
    func controlCharacters(name: String) throws {
        let violation = try #require(RowContract.violation(in: Self.changed("name", .string(name)), now: Self.now))
        #expect(violation.field == "name")
        #expect(violation.reason.hasPrefix("must not contain the control character U+"))
    }

    @Test("control characters inside JSON text fields are refused too")
    func controlInsideJSON() {
        let portions = #"[{"name":"1 \u001b[2J slice","grams":30}]"#
        var row: [String: JSONValue] = [
            "name": .string("Brot"), "search_text": .string("brot"), "kcal": .number(250), "protein_g": .number(9),
            "carbs_g": .number(48), "fat_g": .number(2), "fiber_g": .number(4), "sugars_g": .number(3), "sodium_mg": .number(400),
            "portions": .string("[]"), "source": .string("user"), "created_at": .string("2026-11-18T16:30:00.000Z"),
        ]
        #expect(RowContract.violation(in: Self.change(.customFoods, row), now: Self.now) == nil)
        row["portions"] = .string(portions)
        #expect(RowContract.violation(in: Self.change(.customFoods, row), now: Self.now)?.field == "portions")
    }

    @Test("a date that does not exist is refused", arguments: ["2026-02-30", "2026-13-01", "2026-1-01", "26-01-01", "2025-02-29"])
    func impossibleDates(date: String) {
        #expect(RowContract.violation(in: Self.changed("local_date", .string(date)), now: Self.now)?.field == "local_date")
    }

    @Test("a leap day is a real date")
    func leapDay() {
        #expect(RowContract.violation(in: Self.changed("local_date", .string("2028-02-29")), now: Self.now) == nil)
    }

    @Test("a stamp more than a day ahead of the checking clock is refused; a pulled row skips that check")
    func farFutureStamp() {
        let future = HLC(wallMs: Int64((Self.now.timeIntervalSince1970 + 10 * 365 * 86400) * 1000), counter: 0, deviceID: "device1")
        let violation = RowContract.violation(in: Self.change(hlc: future), now: Self.now)
        #expect(violation?.reason == "its clock stamp is more than a day ahead; check the device's date and time")
        #expect(RowContract.violation(in: Self.change(hlc: future), now: nil) == nil)
    }

    @Test("a stamp's device id is short and plain")
    func deviceID() {
        let long = HLC(wallMs: 1, counter: 0, deviceID: String(repeating: "a", count: 65))
        #expect(RowContract.violation(in: Self.change(hlc: long), now: nil) != nil)
        let accented = HLC(wallMs: 1, counter: 0, deviceID: "gerät")
        #expect(RowContract.violation(in: Self.change(hlc: accented), now: nil) != nil)
    }

    @Test("a missing required field, an unknown field and a wrong type are refused")
    func shape() {
        #expect(RowContract.violation(in: Self.changed("kcal", nil), now: Self.now)?.reason == "is required")
        #expect(RowContract.violation(in: Self.changed("colour", .string("red")), now: Self.now)?.reason == "is not a field of this table")
        #expect(RowContract.violation(in: Self.changed("kcal", .string("520")), now: Self.now)?.field == "kcal")
        #expect(RowContract.violation(in: Self.changed("protein_g", .null), now: Self.now) == nil)
        let notObject = Change(table: .mealLogs, id: UUID(), hlc: Self.stamp, deleted: false, row: .array([]))
        #expect(RowContract.violation(in: notObject, now: Self.now)?.reason == "the row must be a JSON object")
    }

    @Test("an unknown time zone, a wrong time and a fractional calorie count are refused")
    func formats() {
        #expect(RowContract.violation(in: Self.changed("time_zone", .string("Mars/Olympus")), now: Self.now)?.field == "time_zone")
        #expect(RowContract.violation(in: Self.changed("local_time", .string("24:00")), now: Self.now)?.field == "local_time")
        #expect(RowContract.violation(in: Self.changed("logged_at", .string("2026-11-18T16:30:00Z")), now: Self.now)?.field == "logged_at")
        #expect(RowContract.violation(in: Self.changed("kcal", .number(520.5)), now: Self.now)?.field == "kcal")
    }

    @Test("a weight's id must be the one its date gives, so two devices write one row per day")
    func weightNaturalKey() {
        let row: [String: JSONValue] = [
            "local_date": .string("2026-11-18"), "weight_kg": .number(72.4),
            "logged_at": .string("2026-11-18T07:00:00.000Z"), "time_zone": .string("Europe/Berlin"),
        ]
        let natural = NaturalKey.id(table: .weightEntries, key: "2026-11-18")
        #expect(RowContract.violation(in: Self.change(.weightEntries, row, id: natural), now: Self.now) == nil)
        #expect(RowContract.violation(in: Self.change(.weightEntries, row, id: UUID()), now: Self.now)?.field == "id")
    }

    @Test("tables this version does not sync are refused")
    func unsyncedTable() {
        #expect(
            RowContract.violation(in: Self.change(.briefingSettings, [:]), now: Self.now)?.reason
                == "rows of this table do not sync in this version"
        )
    }
}
