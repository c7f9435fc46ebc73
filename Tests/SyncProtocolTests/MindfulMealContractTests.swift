import Foundation
import SyncProtocol
import Testing

@Suite("The row contract of mindful meals")
struct MindfulMealContractTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18

    static let row: [String: JSONValue] = [
        "name": .string("Pasta with friends"), "hunger": .number(4), "fullness": .number(3), "feeling": .string("social"),
        "logged_at": .string("2026-11-18T11:30:00.000Z"), "local_date": .string("2026-11-18"), "local_time": .string("12:30"),
        "time_zone": .string("Europe/Berlin"), "moment": .number(1), "created_at": .string("2026-11-18T11:30:00.000Z"),
    ]

    static func change(_ field: String? = nil, _ value: JSONValue? = nil) -> Change {
        var fields = row
        if let field { fields[field] = value }
        return Change(
            table: .mindfulMeals,
            id: UUID(),
            hlc: HLC(wallMs: 1_795_000_000_000, counter: 0, deviceID: "phone"),
            deleted: false,
            row: .object(fields)
        )
    }

    @Test("the table's wire name is mindful_meals")
    func wireName() throws {
        #expect(SyncTable.mindfulMeals.rawValue == "mindful_meals")
        let decoded = try JSONDecoder().decode(SyncTable.self, from: Data(#""mindful_meals""#.utf8))
        #expect(decoded == .mindfulMeals)
    }

    @Test("a mindful meal as the app writes it is valid; the feeling and the moment may be absent")
    func valid() {
        #expect(RowContract.violation(in: Self.change(), now: Self.now) == nil)
        #expect(RowContract.violation(in: Self.change("feeling", .null), now: Self.now) == nil)
        #expect(RowContract.violation(in: Self.change("moment", nil), now: Self.now) == nil)
    }

    @Test(
        "hunger and fullness outside 1–5 are refused, naming the field",
        arguments: [
            ("hunger", JSONValue.number(0)), ("hunger", .number(6)), ("fullness", .number(2.5)), ("fullness", .string("full")),
            ("hunger", .null),
        ]
    )
    func steps(field: String, value: JSONValue) throws {
        let violation = try #require(RowContract.violation(in: Self.change(field, value), now: Self.now))
        #expect(violation.field == field)
    }

    @Test("an 81-character name, a control character, an unknown feeling and an amount are refused")
    func hostile() throws {
        #expect(
            RowContract.violation(in: Self.change("name", .string(String(repeating: "x", count: 81))), now: Self.now)?.field
                == "name"
        )
        #expect(RowContract.violation(in: Self.change("name", .string("Soup\u{1B}[2J")), now: Self.now)?.field == "name")
        #expect(RowContract.violation(in: Self.change("feeling", .string("guilty")), now: Self.now)?.field == "feeling")
        let amount = try #require(RowContract.violation(in: Self.change("kcal", .number(1234)), now: Self.now))
        #expect(amount.reason == "is not a field of this table")
    }
}
