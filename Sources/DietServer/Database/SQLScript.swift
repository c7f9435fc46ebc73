import Foundation

/// Splits a SQL script into statements at top-level semicolons, respecting quoted strings,
/// quoted identifiers, dollar-quoted bodies and comments. PostgreSQL's extended protocol,
/// which binds values, runs one statement at a time.
enum SQLScript {
    static func statements(_ script: String) -> [String] {
        let chars = Array(script.unicodeScalars)
        var statements: [String] = []
        var current = String.UnicodeScalarView()
        var index = 0

        func flush() {
            let text = String(current).trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { statements.append(text) }
            current = String.UnicodeScalarView()
        }
        func copy(until end: [Unicode.Scalar]) {
            while index < chars.count {
                if Array(chars[index..<min(chars.count, index + end.count)]) == end {
                    current.append(contentsOf: end)
                    index += end.count
                    return
                }
                current.append(chars[index])
                index += 1
            }
        }

        while index < chars.count {
            let char = chars[index]
            let next: Unicode.Scalar? = index + 1 < chars.count ? chars[index + 1] : nil
            switch char {
            case "'", "\"":
                current.append(char)
                index += 1
                copy(until: [char])
            case "-" where next == "-":
                while index < chars.count, chars[index] != "\n" { index += 1 }
            case "/" where next == "*":
                index += 2
                while index < chars.count, !(chars[index] == "*" && index + 1 < chars.count && chars[index + 1] == "/") { index += 1 }
                index += 2
            case "$":
                // A dollar quote: $$ or $tag$, copied through its closing twin.
                var end = index + 1
                while end < chars.count, chars[end] == "_" || chars[end].properties.isAlphabetic { end += 1 }
                if end < chars.count, chars[end] == "$" {
                    let tag = Array(chars[index...end])
                    current.append(contentsOf: tag)
                    index = end + 1
                    copy(until: tag)
                } else {
                    current.append(char)
                    index += 1
                }
            case ";":
                flush()
                index += 1
            default:
                current.append(char)
                index += 1
            }
        }
        flush()
        return statements
    }
}
