import Foundation

/// A rule of the row contract that a change breaks: the table, the field (nil for the change as
/// a whole) and the reason, in plain English for logs, API bodies and `sync --status`.
public struct ContractViolation: Error, Hashable, Sendable, CustomStringConvertible {
    public let table: SyncTable
    public let field: String?
    public let reason: String

    public init(table: SyncTable, field: String?, reason: String) {
        self.table = table
        self.field = field
        self.reason = reason
    }

    public var description: String {
        guard let field else { return "\(table.rawValue): \(reason)" }
        return "\(table.rawValue).\(field): \(reason)"
    }
}

/// The one contract every synced row follows (docs/architecture.md, "The row contract"): the
/// fields of each table with their types, ranges, lengths and formats, the ids of rows unique
/// by a natural key, and the clock stamp. The server checks it on push, the device on pull
/// and import, so no row can reach a store that would refuse it or an app that cannot read it.
public enum RowContract {
    /// How far a stamp may run ahead of the checking side's clock: a device whose clock is set
    /// years ahead would otherwise win every later edit.
    public static let maxClockLead: TimeInterval = 24 * 3600
    /// The longest device id inside a stamp.
    public static let maxDeviceIDLength = 64

    /// The first rule `change` breaks, or nil when it is valid. `now` checks the stamp against
    /// a clock (the server's, or the importing device's); nil skips that check (a pulled row,
    /// which the server already checked against its own clock).
    public static func violation(in change: Change, now: Date?) -> ContractViolation? {
        if let problem = stampProblem(change.hlc, now: now) {
            return ContractViolation(table: change.table, field: nil, reason: problem)
        }
        guard let schema = TableSchema.of(change.table) else {
            return ContractViolation(table: change.table, field: nil, reason: "rows of this table do not sync in this version")
        }
        guard case let .object(fields) = change.row else {
            return ContractViolation(table: change.table, field: nil, reason: "the row must be a JSON object")
        }
        if let problem = schema.violation(in: fields) {
            return ContractViolation(table: change.table, field: problem.field, reason: problem.reason)
        }
        if let key = schema.naturalKey, let expected = key(fields), expected != change.id {
            return ContractViolation(
                table: change.table,
                field: "id",
                reason: "must be \(expected.uuidString) for this row (one row per natural key); got \(change.id.uuidString)"
            )
        }
        return nil
    }

    /// Why a stamp is unacceptable, or nil.
    static func stampProblem(_ hlc: HLC, now: Date?) -> String? {
        if hlc.deviceID.count > maxDeviceIDLength || !hlc.deviceID.unicodeScalars.allSatisfy(\.isASCIIAlphanumeric) {
            return "the clock stamp's device id must be 1–\(maxDeviceIDLength) ASCII letters or digits"
        }
        if hlc.counter > HLC.maxCounter { return "the clock stamp's counter is out of range" }
        if let now, hlc.wallMs > Int64((now.timeIntervalSince1970 + maxClockLead) * 1000) {
            return "its clock stamp is more than a day ahead; check the device's date and time"
        }
        return nil
    }

    /// The first control character in `text` other than tab and newline (C0, DEL, C1), or nil.
    /// Such characters are refused in every stored text: NUL cuts text short in SQLite and is
    /// refused by PostgreSQL, and escape sequences could take over a terminal.
    public static func forbiddenControlCharacter(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" }
    }

    /// A received value as messages show it: short, quoted, control characters named.
    public static func shown(_ value: JSONValue) -> String {
        FieldRule.shown(value)
    }

    /// `U+001B`, the way a refused character is named in a message.
    public static func name(of scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

extension Unicode.Scalar {
    var isASCIIAlphanumeric: Bool {
        switch value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: false
        }
    }
}
