import Foundation
import SyncProtocol
import Testing

/// The wire contract is pinned by decoding literal JSON (docs/style.md, "One wire contract, pinned").
@Suite("Sync wire types")
struct WireTests {
    @Test("a push request decodes from literal JSON")
    func push() throws {
        let json = """
            {"device_id":"3f2a","changes":[{"table":"meal_logs","id":"6F1C1C3A-1B4E-4C53-9C1F-3C1D5E7A9B21",
            "hlc":"0001763800000000-0001-3f2a","deleted":false,
            "row":{"name":"Porridge","kcal":420,"protein_g":null,"local_date":"2026-11-22"}}]}
            """
        let request = try JSONDecoder().decode(PushRequest.self, from: Data(json.utf8))
        let change = try #require(request.changes.first)
        #expect(request.deviceID == "3f2a")
        #expect(change.table == .mealLogs)
        #expect(change.hlc == HLC(wallMs: 1_763_800_000_000, counter: 1, deviceID: "3f2a"))
        #expect(change.row["name"]?.stringValue == "Porridge")
        #expect(change.row["kcal"]?.doubleValue == 420)
        #expect(change.row["protein_g"] == .null)
    }

    @Test("a pull response decodes from literal JSON, tombstones included")
    func pull() throws {
        let json = """
            {"changes":[{"table":"weight_entries","id":"0B6D7A7E-0000-8000-8000-000000000001",
            "hlc":"0001763800000123-0000-b2","deleted":true,"row":{}}],"next_cursor":42,"has_more":false}
            """
        let response = try JSONDecoder().decode(PullResponse.self, from: Data(json.utf8))
        #expect(response.nextCursor == 42 && !response.hasMore)
        #expect(response.changes.first?.deleted == true)
        #expect(response.changes.first?.row == .object([:]))
    }

    @Test("a push response round-trips with its statuses")
    func pushResponse() throws {
        let json = """
            {"results":[{"id":"6F1C1C3A-1B4E-4C53-9C1F-3C1D5E7A9B21","table":"meal_logs","status":"ignored"},
            {"id":"6F1C1C3A-1B4E-4C53-9C1F-3C1D5E7A9B22","table":"meal_logs","status":"rejected","message":"kcal must be 1–9999"}]}
            """
        let response = try JSONDecoder().decode(PushResponse.self, from: Data(json.utf8))
        #expect(response.results.map(\.status) == [.ignored, .rejected])
        #expect(response.results[1].message == "kcal must be 1–9999")
        let again = try JSONDecoder().decode(PushResponse.self, from: JSONEncoder().encode(response))
        #expect(again == response)
    }

    @Test("an unknown table or a bad stamp is a decoding error, not a crash")
    func badInput() {
        let badTable = #"{"table":"passwords","id":"6F1C1C3A-1B4E-4C53-9C1F-3C1D5E7A9B21","hlc":"0001763800000000-0001-a","deleted":false,"row":{}}"#
        let badStamp = #"{"table":"meal_logs","id":"6F1C1C3A-1B4E-4C53-9C1F-3C1D5E7A9B21","hlc":"yesterday","deleted":false,"row":{}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Change.self, from: Data(badTable.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Change.self, from: Data(badStamp.utf8)) }
    }
}
