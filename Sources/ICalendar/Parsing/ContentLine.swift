/// One unfolded content line: `NAME;PARAM=VALUE:value` (RFC 5545 §3.1).
public struct ContentLine: Hashable, Sendable {
    /// Upper-cased.
    public let name: String
    /// Parameter names upper-cased; values unquoted, with RFC 6868 caret escapes decoded.
    public let parameters: [String: [String]]
    /// The raw value (TEXT escapes are undone by `text`).
    public let value: String
    /// The physical line (1-based) where the content line starts.
    public let line: Int

    public func parameter(_ name: String) -> String? {
        parameters[name]?.first
    }

    /// The value read as TEXT: `\n` → newline, `\,` `\;` `\\` → the character.
    public var text: String {
        var result = ""
        var escaped = false
        for character in value {
            if escaped {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// One logical line: its first physical line number and its bytes, folds removed.
struct UnfoldedLine {
    let line: Int
    let bytes: [UInt8]
    /// Longer than `Limits.lineBytes`: the bytes are cut there and the line must be skipped.
    let isTooLong: Bool
}

/// The logical lines of a calendar's UTF-8 text, one at a time (a 20 MB calendar is never
/// held twice as lines). Accepts CRLF, LF or CR, a leading byte-order mark, and folds with a
/// space or a tab; empty lines are dropped.
struct UnfoldedLines: IteratorProtocol, Sequence {
    private let bytes: [UInt8]
    private var index = 0
    private var physical = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    mutating func next() -> UnfoldedLine? {
        while index < bytes.count {
            let first = physical + 1
            var line = readPhysicalLine()
            var isTooLong = false
            // Continuation lines (starting with a space or a tab) belong to this one.
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 {
                index += 1
                let continuation = readPhysicalLine()
                if line.count + continuation.count > Limits.lineBytes {
                    isTooLong = true
                } else if !isTooLong {
                    line += continuation
                }
            }
            if line.count > Limits.lineBytes {
                isTooLong = true
                line.removeSubrange(Limits.lineBytes...)
            }
            if !line.isEmpty || isTooLong { return UnfoldedLine(line: first, bytes: line, isTooLong: isTooLong) }
        }
        return nil
    }

    /// The bytes up to the next line break, which is consumed (CRLF counts as one).
    private mutating func readPhysicalLine() -> [UInt8] {
        physical += 1
        let start = index
        while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
        let end = index
        if index < bytes.count {
            index += bytes[index] == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
        }
        return Array(bytes[start..<Swift.min(end, start + Limits.lineBytes + 1)])
    }
}

enum ContentLines {
    /// Unfolds the text into logical lines with their first physical line number.
    static func unfold(_ text: String) -> [(line: Int, text: String)] {
        UnfoldedLines(text).map { ($0.line, String(decoding: $0.bytes, as: UTF8.self)) }
    }

    /// Parses one unfolded line; throws with the line number when it has no name or no colon.
    static func parse(_ text: String, line: Int) throws(ICalendarError) -> ContentLine {
        try parse(Array(text.utf8), line: line)
    }

    /// Parses one unfolded line of UTF-8 bytes (the delimiters are all ASCII).
    static func parse(_ bytes: [UInt8], line: Int) throws(ICalendarError) -> ContentLine {
        let semicolon: UInt8 = 0x3B
        let colon: UInt8 = 0x3A
        let comma: UInt8 = 0x2C
        let quote: UInt8 = 0x22
        let equals: UInt8 = 0x3D
        var index = 0
        while index < bytes.count, bytes[index] != semicolon, bytes[index] != colon { index += 1 }
        let name = String(decoding: bytes[0..<index], as: UTF8.self)
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            throw .invalidLine(line: line, "“\(String(decoding: bytes.prefix(160), as: UTF8.self).prefix(40))” has no property name")
        }
        var parameters: [String: [String]] = [:]
        while index < bytes.count, bytes[index] == semicolon {
            index += 1
            let nameStart = index
            while index < bytes.count, bytes[index] != equals { index += 1 }
            let parameterName = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            guard index < bytes.count else { throw .invalidLine(line: line, "parameter “\(parameterName.prefix(40))” has no value") }
            index += 1  // "="
            var values: [String] = []
            while true {
                let value: String
                if index < bytes.count, bytes[index] == quote {
                    let valueStart = index + 1
                    index = valueStart
                    while index < bytes.count, bytes[index] != quote { index += 1 }
                    guard index < bytes.count else { throw .invalidLine(line: line, "a quoted parameter value is not closed") }
                    value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                    index += 1
                } else {
                    let valueStart = index
                    while index < bytes.count, bytes[index] != semicolon, bytes[index] != colon, bytes[index] != comma { index += 1 }
                    value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                }
                values.append(decodeCarets(value))
                if index < bytes.count, bytes[index] == comma {
                    index += 1
                    continue
                }
                break
            }
            parameters[parameterName.uppercased(), default: []] += values
        }
        guard index < bytes.count, bytes[index] == colon else {
            throw .invalidLine(line: line, "“\(name)” has no “:” before its value")
        }
        return ContentLine(
            name: name.uppercased(),
            parameters: parameters,
            value: String(decoding: bytes[(index + 1)...], as: UTF8.self),
            line: line
        )
    }

    /// RFC 6868: `^n` newline, `^'` double quote, `^^` caret.
    private static func decodeCarets(_ value: String) -> String {
        guard value.contains("^") else { return value }
        var result = ""
        var caret = false
        for character in value {
            if caret {
                switch character {
                case "n": result.append("\n")
                case "'": result.append("\"")
                case "^": result.append("^")
                default:
                    result.append("^")
                    result.append(character)
                }
                caret = false
            } else if character == "^" {
                caret = true
            } else {
                result.append(character)
            }
        }
        if caret { result.append("^") }
        return result
    }
}

/// A component (`BEGIN:VEVENT` … `END:VEVENT`) with its properties and sub-components.
struct Component {
    let name: String
    let line: Int
    var properties: [ContentLine] = []
    var children: [Component] = []
    /// Properties beyond `Limits.propertiesPerComponent` were dropped (reported once).
    var isFull = false

    func first(_ name: String) -> ContentLine? {
        properties.first { $0.name == name }
    }

    func all(_ name: String) -> [ContentLine] {
        properties.filter { $0.name == name }
    }
}
