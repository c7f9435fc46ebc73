import Foundation
import SyncProtocol
import Testing

@testable import DietServer

/// The push body reader takes exactly what `JSONDecoder` takes, with the same result; what it
/// declines, `JSONDecoder` still reads or refuses with its own message.
@Suite("Push body reader")
struct PushBodyReaderTests {
    static let hlc = "0001763800000000-0000-phone"

    /// A body as clients send it (JSONEncoder.api), with rows that use every JSON type.
    static var encodedBody: Data {
        let changes = [
            Change(
                table: .mealLogs,
                id: UUID(),
                hlc: HLC(wallMs: 1_763_800_000_000, counter: 1, deviceID: "phone"),
                deleted: false,
                row: .object([
                    "name": .string("Döner mit Pommes \"groß\" \\ / 🥙\n\t"), "grams": .number(350.5), "kcal": .number(-0.0),
                    "tiny": .number(1e-7), "huge": .number(1.5e300), "whole": .number(12_345_678), "ok": .bool(true),
                    "note": .null, "tags": .array([.string("a"), .number(1), .bool(false), .null, .object([:]), .array([])]),
                    "nested": .object(["deeper": .object(["x": .array([.array([.number(0.1)])])])]),
                ])
            ),
            Change(
                table: .weightEntries,
                id: UUID(),
                hlc: HLC(wallMs: 1_763_800_000_001, counter: 0xFFFF, deviceID: "laptop2"),
                deleted: true,
                row: .null
            ),
            Change(
                table: .profile,
                id: UUID(),
                hlc: HLC(wallMs: 1_763_800_000_002, counter: 0, deviceID: "web"),
                deleted: false,
                row: .object(["language": .string("de"), "empty": .string("")])
            ),
        ]
        // The encoder cannot fail for these values.
        return (try? JSONEncoder.api.encode(PushRequest(deviceID: "phone", changes: changes))) ?? Data()
    }

    /// Bodies a client might write by hand: other key orders, spacing, escapes, number forms,
    /// unknown keys, and faults the reader must leave to JSONDecoder.
    static let handWritten: [String] = [
        #"{"device_id":"p","changes":[]}"#,
        " \n\t{ \"changes\" : [ ] , \"device_id\" : \"p\" } \r\n",
        #"{"device_id":"p","extra":{"a":[1,2,{"b":null}]},"changes":[{"row":{"a":"\u00e9\ud83d\ude00\/\b\f\r"},"deleted":false,"hlc":"HLC","id":"7C9E6679-7425-40DE-944B-E07FC1F90AE7","table":"meal_logs","more":1}]}"#,
        #"{"device_id":"p","changes":[{"table":"meal_logs","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","hlc":"HLC","deleted":false,"row":{"n":[-0,0.5,1E3,1e+2,2e-2,-12.5e-1,123456789012345678901234567890]}}]}"#,
        #"{"device_id":"p","changes":[{"table":"meal_logs","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","hlc":"HLC","deleted":false,"row":{"n":1e400}}]}"#,
        #"{"device_id":"p","changes":[{"table":"meal_logs","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","hlc":"HLC","deleted":false,"row":{"n":1e-400}}]}"#,
        #"{"device_id":"p","changes":[{"table":"meal_logs","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","hlc":"HLC","deleted":false,"row":{"n":01}}]}"#,
        #"{"device_id":"p","changes":[{"table":"meal_logs","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","hlc":"HLC","deleted":false,"row":{"n":[0e1,-0.0e0,0.0,-0.0,0]}}]}"#,
        #"{"device_id":"p","changes":[{"table":"meal_logs","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","hlc":"HLC","deleted":false,"row":{"n":[1e-310]}}]}"#,
        #"{"device_id":"p","changes":[{"table":"meal_logs","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","hlc":"HLC","deleted":false,"row":{"n":[4.9e-324]}}]}"#,
        "{\"device_id\":\"p\",\"changes\":[{\"table\":\"meal_logs\",\"id\":\"7c9e6679-7425-40de-944b-e07fc1f90ae7\",\"hlc\":\"HLC\",\"deleted\":false,\"row\":{\"n\":[0."
            + String(repeating: "0", count: 400) + "1]}}]}",
        #"{"device_id":"p","changes":[{"table":"meal_logs","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","hlc":"HLC","deleted":false,"row":{"n":[2.2250738585072014e-308,1.7976931348623157e308]}}]}"#,
        #"{"device_id":"p","changes":[{"table":"meal_logs","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","hlc":"HLC","deleted":false,"row":{"a":1,"a":2}}]}"#,
        #"{"device_id":"p","device_id":"q","changes":[]}"#,
        #"{"device_id":"p","changes":[{"table":"nope","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","hlc":"HLC","deleted":false,"row":null}]}"#,
        #"{"device_id":"p","changes":[{"table":"meal_logs","id":"not-a-uuid","hlc":"HLC","deleted":false,"row":null}]}"#,
        #"{"device_id":"p","changes":[{"table":"meal_logs","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","hlc":"yesterday","deleted":false,"row":null}]}"#,
        #"{"device_id":"p","changes":[{"table":"meal_logs","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","hlc":"HLC","deleted":0,"row":null}]}"#,
        #"{"device_id":"p","changes":[{"table":"meal_logs","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","hlc":"HLC","deleted":false}]}"#,
        #"{"device_id":"p","changes":[{"table":"meal_logs","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","hlc":"HLC","deleted":false,"row":"\ud83d"}]}"#,
        #"{"device_id":"p","changes":[{"table":"meal_logs","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","hlc":"HLC","deleted":false,"row":"\u0000\u001f"}]}"#,
        #"{"device_id":"p","changes":[{"table":"meal_logs","id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","hlc":"HLC","deleted":false,"row":"\x"}]}"#,
        #"{"device_id":"p","changes":[]} {}"#,
        #"{"device_id":7,"changes":[]}"#,
        #"{"changes":[]}"#,
        #"[]"#,
        "",
        "{\"device_id\":\"p\",\"changes\":[{\"table\":\"meal_logs\",\"id\":\"7c9e6679-7425-40de-944b-e07fc1f90ae7\",\"hlc\":\"HLC\",\"deleted\":false,\"row\":"
            + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "}]}",
        "{\"device_id\":\"p\",\"changes\":[{\"table\":\"meal_logs\",\"id\":\"7c9e6679-7425-40de-944b-e07fc1f90ae7\",\"hlc\":\"HLC\",\"deleted\":false,\"row\":"
            + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}]}",
    ].map { $0.replacingOccurrences(of: "\"HLC\"", with: "\"\(hlc)\"") }

    /// What JSONDecoder makes of `data` (the path every body took before), or nil if it refuses it.
    static func decoded(_ data: Data) -> PushRequest? {
        try? JSONDecoder.api.decode(PushRequest.self, from: data)
    }

    /// The reader agrees with JSONDecoder on `data`: whatever it reads, JSONDecoder reads the same.
    /// Returns whether the reader took it.
    @discardableResult
    static func expectAgreement(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let fast = PushBodyReader.read(data) else { return false }
        let slow = decoded(data)
        #expect(slow?.deviceID == fast.deviceID, "device id differs for \(String(decoding: data, as: UTF8.self))", sourceLocation: sourceLocation)
        #expect(slow?.changes == fast.changes, "changes differ for \(String(decoding: data, as: UTF8.self))", sourceLocation: sourceLocation)
        return true
    }

    @Test("a client's body is read as JSONDecoder reads it")
    func clientBody() throws {
        let data = Self.encodedBody
        #expect(Self.expectAgreement(data), "the reader declined a body JSONEncoder wrote")
        #expect(PushBodyReader.read(data)?.changes.count == 3)
    }

    @Test("hand-written bodies: what the reader takes JSONDecoder takes alike, and it takes every valid one it should")
    func handWritten() {
        var taken = 0
        for text in Self.handWritten {
            let data = Data(text.utf8)
            if Self.expectAgreement(data) { taken += 1 }
            // Everything JSONDecoder reads except the deep nesting (left to JSONDecoder's own
            // limit) and duplicate keys (its rule, not ours) the reader reads too.
            if Self.decoded(data) != nil, !text.contains(String(repeating: "[", count: 100)), !text.contains(#""a":1,"a":2"#),
                !text.contains(#""device_id":"p","device_id""#)
            {
                #expect(PushBodyReader.read(data) != nil, "declined a valid body: \(text)")
            }
        }
        #expect(taken >= 5)
    }

    @Test("every truncation, deletion and corruption of a body: the reader never takes what JSONDecoder refuses or reads it otherwise")
    func mutations() {
        let base = Array(Self.encodedBody)
        let replacements: [UInt8] = [0x22, 0x5C, 0x2C, 0x7D, 0x5D, 0x7B, 0x5B, 0x3A, 0x30, 0x2D, 0x65, 0x78, 0x20, 0x00, 0x1F, 0xFF, 0xC3]
        var taken = 0
        var tried = 0
        for end in 0..<base.count {
            tried += 1
            if Self.expectAgreement(Data(base[..<end])) { taken += 1 }
        }
        for position in base.indices {
            var without = base
            without.remove(at: position)
            tried += 1
            if Self.expectAgreement(Data(without)) { taken += 1 }
            for byte in replacements where byte != base[position] {
                var changed = base
                changed[position] = byte
                tried += 1
                if Self.expectAgreement(Data(changed)) { taken += 1 }
            }
        }
        // Corruptions inside strings and numbers leave valid bodies, which the reader takes.
        #expect(taken > 100, "the reader took \(taken) of \(tried)")
    }
}
