import SyncProtocol

/// RFC 4180 CSV: a header row, CRLF line ends, fields quoted when they hold a comma, a quote
/// or a line break, quotes doubled.
enum CSV {
    static func render(columns: [String], rows: [[String: JSONValue]]) -> String {
        var lines = [columns.map(field).joined(separator: ",")]
        for row in rows {
            lines.append(columns.map { field(text(row[$0] ?? .null)) }.joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func field(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
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
