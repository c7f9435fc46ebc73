import SyncProtocol

/// RFC 4180 CSV: a header row, CRLF line ends, fields quoted when they hold a comma, a quote
/// or a line break, quotes doubled. A cell a spreadsheet would run as a formula is written
/// with a leading `'` (`neutralised`).
enum CSV {
    static func render(columns: [String], rows: [[String: JSONValue]]) -> String {
        var lines = [columns.map(field).joined(separator: ",")]
        for row in rows {
            lines.append(columns.map { field(neutralised(text(row[$0] ?? .null))) }.joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func field(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A cell as a spreadsheet may open it safely (OWASP's rule against CSV injection): a cell
    /// starting with `=`, `+`, `-`, `@`, a tab or a carriage return (also after leading spaces)
    /// gets a `'` in front, which spreadsheets read as "text, not a formula" and do not show.
    /// A plain number (`-12`, `-0.5`, `-1e-05`) is left alone, so a negative value stays a
    /// number in its column; whatever the column, only a cell that is not a plain number is
    /// changed. The JSON export is never changed: it is the one restored.
    static func neutralised(_ cell: String) -> String {
        guard let first = cell.unicodeScalars.first(where: { $0 != " " }), formulaStarts.contains(first), !isPlainNumber(cell) else {
            return cell
        }
        return "'" + cell
    }

    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `-?digits(.digits)?(e[+-]?digits)?`: how `text` writes a number.
    static func isPlainNumber(_ cell: String) -> Bool {
        cell.wholeMatch(of: /-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/) != nil
    }

    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: ""
        case .bool(let flag): flag ? "1" : "0"
        case .number(let number): number.rounded() == number && abs(number) < 9e15 ? String(Int64(number)) : String(number)
        case .string(let text): text
        case .array, .object: ""
        }
    }
}
