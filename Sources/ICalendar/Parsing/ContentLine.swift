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

enum ContentLines {
    /// Unfolds the text into logical lines with their first physical line number. Accepts
    /// CRLF, LF or CR, a leading byte-order mark, and folds with a space or a tab.
    static func unfold(_ text: String) -> [(line: Int, text: String)] {
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        var result: [(Int, String)] = []
        var number = 0
        var current: String?
        var currentLine = 0
        var physical = body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
        if physical.last?.isEmpty == true { physical.removeLast() }
        for raw in physical {
            number += 1
            if let first = raw.first, first == " " || first == "\t", current != nil {
                current?.append(contentsOf: raw.dropFirst())
                continue
            }
            if let finished = current, !finished.isEmpty { result.append((currentLine, finished)) }
            current = String(raw)
            currentLine = number
        }
        if let finished = current, !finished.isEmpty { result.append((currentLine, finished)) }
        return result
    }

    /// Parses one unfolded line; throws with the line number when it has no name or no colon.
    static func parse(_ text: String, line: Int) throws(ICalendarError) -> ContentLine {
        let characters = Array(text)
        var index = 0
        var name = ""
        while index < characters.count, characters[index] != ";", characters[index] != ":" {
            name.append(characters[index])
            index += 1
        }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            throw .invalidLine(line: line, "“\(text.prefix(40))” has no property name")
        }
        var parameters: [String: [String]] = [:]
        while index < characters.count, characters[index] == ";" {
            index += 1
            var parameterName = ""
            while index < characters.count, characters[index] != "=" {
                parameterName.append(characters[index])
                index += 1
            }
            guard index < characters.count else { throw .invalidLine(line: line, "parameter “\(parameterName)” has no value") }
            index += 1 // "="
            var values: [String] = []
            while true {
                var value = ""
                if index < characters.count, characters[index] == "\"" {
                    index += 1
                    while index < characters.count, characters[index] != "\"" {
                        value.append(characters[index])
                        index += 1
                    }
                    guard index < characters.count else { throw .invalidLine(line: line, "a quoted parameter value is not closed") }
                    index += 1
                } else {
                    while index < characters.count, ![";", ":", ","].contains(characters[index]) {
                        value.append(characters[index])
                        index += 1
                    }
                }
                values.append(decodeCarets(value))
                if index < characters.count, characters[index] == "," {
                    index += 1
                    continue
                }
                break
            }
            parameters[parameterName.uppercased(), default: []] += values
        }
        guard index < characters.count, characters[index] == ":" else {
            throw .invalidLine(line: line, "“\(name)” has no “:” before its value")
        }
        return ContentLine(name: name.uppercased(), parameters: parameters, value: String(characters[(index + 1)...]), line: line)
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
                default: result.append("^"); result.append(character)
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

    func first(_ name: String) -> ContentLine? {
        properties.first { $0.name == name }
    }

    func all(_ name: String) -> [ContentLine] {
        properties.filter { $0.name == name }
    }
}
