import Foundation
import SyncProtocol

/// A `PushRequest` as the server reads it: the same keys and the same values, but each row's
/// JSON values are decoded by trying the likely type first. `JSONValue`'s own decoding tries
/// Bool, then Double, then String, and a failed try builds a `DecodingError` (its coding path
/// and description): a meal row cost about twenty of them, and decoding the body was a third
/// of the server's time in a push. The scalar types are exclusive (a JSON string never
/// decodes as a number or a Bool), so the order changes the speed only; arrays are still
/// tried before objects, so an invalid row fails with the same message as before.
struct PushBody: Decodable {
    let deviceID: String
    let changes: [Change]

    enum CodingKeys: String, CodingKey {
        case changes
        case deviceID = "device_id"
    }

    init(deviceID: String, changes: [Change]) {
        self.deviceID = deviceID
        self.changes = changes
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // In the order of the synthesized decoding, so a body missing both names the same one.
        deviceID = try container.decode(String.self, forKey: .deviceID)
        changes = try container.decode([PushedChange].self, forKey: .changes).map(\.change)
    }
}

/// One `Change` with the keys of its synthesized `Codable`.
private struct PushedChange: Decodable {
    let change: Change

    enum CodingKeys: String, CodingKey {
        case table, id, hlc, deleted, row
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        change = Change(
            table: try container.decode(SyncTable.self, forKey: .table),
            id: try container.decode(UUID.self, forKey: .id),
            hlc: try container.decode(HLC.self, forKey: .hlc),
            deleted: try container.decode(Bool.self, forKey: .deleted),
            row: try container.decode(RowValue.self, forKey: .row).value
        )
    }
}

/// A `JSONValue`, decoded strings first.
private struct RowValue: Decodable {
    let value: JSONValue

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let text = try? container.decode(String.self) {
            value = .string(text)
        } else if let number = try? container.decode(Double.self) {
            value = .number(number)
        } else if let flag = try? container.decode(Bool.self) {
            value = .bool(flag)
        } else if let elements = try? container.decode([RowValue].self) {
            value = .array(elements.map(\.value))
        } else {
            value = .object(try container.decode([String: RowValue].self).mapValues(\.value))
        }
    }
}
