import Foundation
import SyncProtocol
import TestSupport
import Testing

/// The JSON inside a row's text fields (an eating window, locked goals, portions, a recipe's
/// items) has the shape the apps decode, checked by the contract the server and every device
/// share: no pushed row can reach a device that cannot read it.
@Suite("The JSON text fields of the row contract")
struct JSONShapeTests {
    @Test("the rows a device writes keep the contract")
    func validRows() {
        for table in UnreadableRows.validRows.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            let change = UnreadableRows.change(table)
            #expect(RowContract.violation(in: change, now: nil) == nil, "\(table.rawValue)")
        }
    }

    @Test("every row no device can read is refused, naming its field", arguments: UnreadableRows.cases)
    func unreadableRowIsRefused(_ unreadable: UnreadableRows.Case) throws {
        let violation = try #require(RowContract.violation(in: unreadable.change, now: nil))
        #expect(violation.field == unreadable.field)
    }

    @Test("the reason says where inside the JSON it breaks the rule")
    func reasonsNameThePlace() {
        func reason(_ table: SyncTable, _ fields: [String: JSONValue]) -> String? {
            RowContract.violation(in: UnreadableRows.change(table, fields), now: nil)?.description
        }
        #expect(
            reason(.profile, ["eating_window": .string(#"{"start":"25:99","end":-1,"moments":"lots"}"#)])
                == #"profile.eating_window: start: must be a time as HH:MM from 00:00 to 23:59; got "25:99""#
        )
        #expect(
            reason(.profile, ["eating_window": .string(#"{"start":"06:00","end":"02:00","moments":["06:00","12:00"]}"#)])
                == "profile.eating_window: must last 1–16 hours from start to end; got 20 h 0 min"
        )
        #expect(
            reason(.customFoods, ["portions": .string(#"[{"amount":-1},5,null]"#)])
                == "custom_foods.portions: [0].amount: must be a number above 0 to 1000; got -1"
        )
        #expect(
            reason(.recipes, ["items": .string(#"[{"food_id":"999999999","grams":-5},7]"#)])
                == "recipes.items: [0].grams: must be a number from 0.1 to 5000; got -5"
        )
        #expect(
            reason(.profile, ["sex": .string("male"), "locked_goals": .string(#"{"deficit":{"kcal":1300,"protein_g":1,"carbs_g":1,"fat_g":1}}"#)])
                == "profile.locked_goals: deficit.kcal: must be at least 1500 for sex male; got 1300"
        )
        #expect(reason(.weightEntries, ["weight_kg": .number(72.55)]) == "weight_entries.weight_kg: must be in steps of 0.1; got 72.55")
    }

    @Test("an eating window carries its moments' names by place, each 1–30 characters or null; others are refused, naming the field")
    func momentNames() {
        func reason(_ names: String) -> String? {
            let window = #"{"start":"12:00","end":"18:00","moments":["12:00","15:00","18:00"],"names":"# + names + "}"
            return RowContract.violation(in: UnreadableRows.change(.profile, ["eating_window": .string(window)]), now: nil)?.description
        }
        let thirty = String(repeating: "x", count: 30)
        // accepted: names, nulls for the names by time, fewer names than moments, markup as text, no names
        for names in [#"["Brunch",null,"Abendbrot"]"#, #"["<script>"]"#, #"[null,"\#(thirty)"]"#, "[]", "null"] {
            #expect(reason(names) == nil, "\(names)")
        }
        #expect(reason(#"["Brunch","\#(thirty)x"]"#) == "profile.eating_window: names[1]: must be 1–30 characters; got 31")
        #expect(reason(#"[""]"#) == "profile.eating_window: names[0]: must be 1–30 characters; got 0")
        #expect(reason(#"["  "]"#) == "profile.eating_window: names[0]: must not be blank")
        #expect(reason(#"[5]"#) == "profile.eating_window: names[0]: must be text; got 5")
        #expect(reason(#""Brunch""#) == #"profile.eating_window: names: must be a JSON array; got "Brunch""#)
        #expect(reason(#"["a","b","c","d","e","f"]"#) == "profile.eating_window: names: must hold 0–5 items; got 6")
        #expect(reason(#"["a\u0007b"]"#) == "profile.eating_window: must not contain the control character U+0007")
    }

    @Test("a synced calendar address is http, https or webcal with a host; a file calendar's path is only a name")
    func calendarAddresses() {
        func refused(_ location: String, kind: String = "address") -> Bool {
            RowContract.violation(in: UnreadableRows.change(.calendarSources, ["kind": .string(kind), "location": .string(location)]), now: nil)
                != nil
        }
        for address in ["https://calendar.example.org/a.ics", "http://example.org:8080/x", "webcal://example.org/a", "https://[2001:db8::1]/a"] {
            #expect(!refused(address), "\(address)")
        }
        for location in [
            "/dev/stdin", "file:///etc/passwd", "ftp://example.org/a.ics", "https://", "https:///a.ics", "https://user:pw@example.org/a",
            "https://example.org/a b", "https://example.org/\u{2028}", "gopher://example.org", "",
        ] {
            #expect(refused(location), "\(location)")
        }
        // A file calendar names the file it was read from on the device that added it; no
        // other device reads that path, so any text is a name here.
        #expect(!refused("/Users/anna/Kalender/Arbeit.ics", kind: "file"))
    }
}
