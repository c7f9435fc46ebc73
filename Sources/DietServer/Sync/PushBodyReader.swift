import Foundation
import SyncProtocol

/// Reads a push body straight from its bytes, for the common case: a well-formed body with
/// the expected keys and types. It answers nil for anything else (invalid JSON, a missing or
/// repeated key, a wrong type, an unknown table, a number beyond `Double`, invalid UTF-8,
/// deep nesting), and the caller then decodes the body with `JSONDecoder`, which finds the
/// same fault and names it. So the reader only has to be right about what it accepts: the
/// same `PushRequest` `JSONDecoder` makes from those bytes (`PushBodyReaderTests` compares the
/// two over valid bodies and every truncation and many corruptions of them).
///
/// Why: decoding a row through `Decoder` boxes every value and tries types in turn; for a
/// push of 500 meals that was the largest part of the server's own time in the push.
struct PushBodyReader {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var depth = 0

    /// Nesting deeper than this is left to `JSONDecoder`, which has its own limit.
    private static let maxDepth = 64

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The body, or nil when the reader leaves it to `JSONDecoder`.
    static func read(_ data: some ContiguousBytes) -> PushRequest? {
        data.withUnsafeBytes { raw in
            var reader = PushBodyReader(raw)
            guard let body = reader.body() else { return nil }
            reader.skipWhitespace()
            return reader.index == raw.count ? body : nil
        }
    }

    private struct Bail: Error {}

    private mutating func body() -> PushRequest? {
        var deviceID: String?
        var changes: [Change]?
        do {
            try beginObject()
            var first = true
            while let key = try nextKey(&first) {
                switch key {
                case "device_id":
                    guard deviceID == nil else { throw Bail() }
                    deviceID = try string()
                case "changes":
                    guard changes == nil else { throw Bail() }
                    var list: [Change] = []
                    try beginArray()
                    var firstChange = true
                    while try nextElement(&firstChange) { list.append(try change()) }
                    changes = list
                default:
                    _ = try value()
                }
            }
        } catch {
            return nil
        }
        guard let deviceID, let changes else { return nil }
        return PushRequest(deviceID: deviceID, changes: changes)
    }

    private mutating func change() throws -> Change {
        var table: SyncTable?
        var id: UUID?
        var hlc: HLC?
        var deleted: Bool?
        var row: JSONValue?
        try beginObject()
        var first = true
        while let key = try nextKey(&first) {
            switch key {
            case "table":
                guard table == nil, let value = SyncTable(rawValue: try string()) else { throw Bail() }
                table = value
            case "id":
                guard id == nil, let value = UUID(uuidString: try string()) else { throw Bail() }
                id = value
            case "hlc":
                guard hlc == nil, let value = HLC(try string()) else { throw Bail() }
                hlc = value
            case "deleted":
                guard deleted == nil, case .bool(let value) = try value() else { throw Bail() }
                deleted = value
            case "row":
                guard row == nil else { throw Bail() }
                row = try value()
            default:
                _ = try value()
            }
        }
        guard let table, let id, let hlc, let deleted, let row else { throw Bail() }
        return Change(table: table, id: id, hlc: hlc, deleted: deleted, row: row)
    }

    // MARK: - JSON (RFC 8259)

    private mutating func value() throws -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw Bail() }
        switch bytes[index] {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "{"):
            var fields: [String: JSONValue] = [:]
            try beginObject()
            var first = true
            while let key = try nextKey(&first) {
                guard fields.updateValue(try value(), forKey: key) == nil else { throw Bail() }
            }
            return .object(fields)
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            try beginArray()
            var first = true
            while try nextElement(&first) { elements.append(try value()) }
            return .array(elements)
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default: return .number(try number())
        }
    }

    /// Consumes `{` (after whitespace); read its fields with `nextKey`.
    private mutating func beginObject() throws {
        skipWhitespace()
        try expect(UInt8(ascii: "{"))
        depth += 1
        guard depth <= Self.maxDepth else { throw Bail() }
    }

    /// The next key of the object begun, positioned at its value; nil after the closing `}`.
    private mutating func nextKey(_ first: inout Bool) throws -> String? {
        skipWhitespace()
        if first {
            first = false
            if peek() == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return nil
            }
        } else if peek() == UInt8(ascii: ",") {
            index += 1
        } else {
            try expect(UInt8(ascii: "}"))
            depth -= 1
            return nil
        }
        let key = try string()
        skipWhitespace()
        try expect(UInt8(ascii: ":"))
        return key
    }

    /// Consumes `[` (after whitespace); read its elements while `nextElement` says so.
    private mutating func beginArray() throws {
        skipWhitespace()
        try expect(UInt8(ascii: "["))
        depth += 1
        guard depth <= Self.maxDepth else { throw Bail() }
    }

    /// Whether another element of the array begun follows; false after the closing `]`.
    private mutating func nextElement(_ first: inout Bool) throws -> Bool {
        skipWhitespace()
        if first {
            first = false
            if peek() == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return false
            }
            return true
        }
        if peek() == UInt8(ascii: ",") {
            index += 1
            return true
        }
        try expect(UInt8(ascii: "]"))
        depth -= 1
        return false
    }

    private mutating func string() throws -> String {
        skipWhitespace()
        try expect(UInt8(ascii: "\""))
        let start = index
        // The common case: no escapes, so the text is the bytes between the quotes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                guard let text else { throw Bail() }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw Bail() }
            index += 1
        }
        var scalars = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: scalars, as: UTF8.self) else { throw Bail() }
                return text
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw Bail() }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escaped)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        // A high surrogate must be followed by an escaped low one.
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { throw Bail() }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw Bail() }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw Bail()
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw Bail() }
                    UTF8.encode(scalar) { scalars.append($0) }
                default: throw Bail()
                }
            default:
                guard byte >= 0x20 else { throw Bail() }
                scalars.append(byte)
            }
        }
        throw Bail()
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw Bail() }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Bail()
            }
            code = code << 4 | UInt32(digit)
        }
        return code
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, finite as a `Double`.
    private mutating func number() throws -> Double {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { throw Bail() }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw Bail() }
        }
        let hasExponent = peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E")
        if hasExponent {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw Bail() }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(text), number.isFinite else { throw Bail() }
        // JSONDecoder refuses a number that underflows ("1e-400") and a zero with an exponent
        // ("0e1"); the reader leaves every zero written with more than zeros to it.
        if number == 0, hasExponent || text.utf8.contains(where: { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }) { throw Bail() }
        return number
    }

    private mutating func digits() -> Int {
        let start = index
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw Bail() }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw Bail() }
        index += count
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard peek() == byte else { throw Bail() }
        index += 1
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }
}
