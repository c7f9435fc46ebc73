import Foundation
import SyncProtocol

/// A row's JSON text for the database, written directly from its `JSONValue`: the push path
/// writes every pushed row once, and `JSONEncoder` spent more time setting itself up and
/// boxing each value than writing it. PostgreSQL parses the text into `jsonb`, so key order
/// and spacing do not matter; the text's UTF-8 length is what the quota counts.
enum RowJSON {
    struct NotFinite: Error {}

    /// The JSON text of `value`. Throws for a number that JSON cannot hold (NaN, infinity),
    /// as `JSONEncoder` does.
    static func text(_ value: JSONValue) throws -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        try write(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func write(_ value: JSONValue, to bytes: inout [UInt8]) throws {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): try write(number, to: &bytes)
        case .string(let text): write(text, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try write(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let fields):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for (key, field) in fields {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                write(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                try write(field, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Whole numbers as integers (as `JSONEncoder` writes them), others in Swift's shortest
    /// form that reads back as the same `Double` ("0.1", "1e-05", "1.5e+300"), valid JSON.
    private static func write(_ number: Double, to bytes: inout [UInt8]) throws {
        guard number.isFinite else { throw NotFinite() }
        if number == number.rounded(.towardZero), abs(number) < 1e15 {
            bytes.append(contentsOf: String(Int64(number)).utf8)
        } else {
            bytes.append(contentsOf: number.description.utf8)
        }
    }

    /// A string with `"`, `\` and the control characters escaped; everything else as UTF-8.
    private static func write(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hexDigit(byte >> 4))
                bytes.append(hexDigit(byte & 0x0F))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
