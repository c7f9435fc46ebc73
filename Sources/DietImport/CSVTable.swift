import DietCore
import Foundation

/// An RFC 4180 CSV file read whole (diaries are small): a header and rows, each with the line
/// it starts on. Quoted fields may hold commas, doubled quotes and line breaks; a UTF-8 byte
/// order mark and CRLF line ends are accepted.
struct CSVTable {
    struct Row {
        let line: Int
        let fields: [String]
    }

    let header: [String]
    let rows: [Row]
    /// The file's decimal separator, from the numbers that can only be read one way ("72,4",
    /// "0.125", "1.234,5"): "." when none says otherwise, nil when the file uses both.
    let decimalSeparator: Character?

    /// The header's names trimmed and lowercased, for finding columns.
    var normalizedHeader: [String] { header.map(Self.normalized) }

    static func normalized(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    init(_ data: Data) throws(ImportError) {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var records: [Row] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var index = 0
        var quoted = false
        var quoteLine = 1
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0].trimmingCharacters(in: .whitespaces).isEmpty) {
                records.append(Row(line: recordLine, fields: fields))
            }
            fields.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if quoted {
                if byte == 0x22 {
                    if index < bytes.count, bytes[index] == 0x22 {
                        field.append(0x22)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if byte == 0x0A { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case 0x22 where field.isEmpty:
                quoted = true
                quoteLine = line
            case 0x2C: endField()
            case 0x0D where index < bytes.count && bytes[index] == 0x0A: continue
            case 0x0A, 0x0D:
                endRecord()
                line += 1
                recordLine = line
            default: field.append(byte)
            }
        }
        if quoted { throw ImportError(line: quoteLine, .csvQuote) }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        guard let first = records.first else { throw ImportError(line: nil, .empty) }
        header = first.fields
        rows = Array(records.dropFirst())
        decimalSeparator = CSVValues.decimalSeparator(evidence: rows.lazy.flatMap(\.fields))
    }

    /// The index of the first column named one of `names` (compared trimmed, case ignored).
    func column(_ names: String...) -> Int? {
        let normalized = normalizedHeader
        for name in names {
            if let index = normalized.firstIndex(of: name) { return index }
        }
        return nil
    }

    /// Like `column`, but the file is refused without it.
    func require(_ name: String) throws(ImportError) -> Int {
        guard let index = column(name.lowercased()) else { throw ImportError(line: 1, .missingColumn(name)) }
        return index
    }

    /// Every row must have the header's number of fields.
    func checkWidths() throws(ImportError) {
        for row in rows where row.fields.count != header.count {
            throw ImportError(line: row.line, .csvColumns(expected: header.count, got: row.fields.count))
        }
    }
}

/// Reading the values of diary rows: numbers with a decimal point or comma, ISO or US dates,
/// 24-hour or AM/PM times.
enum CSVValues {
    /// Empty → nil; otherwise a finite number or the row is refused. A number is read as
    /// written, never as another: "1.234,5" and "1,234.5" are 1234.5 (the last separator is the
    /// decimal one, the other groups thousands in threes); "72,4" and "72.4" are 72.4; "1,234"
    /// and "1.234", which could be either, follow the file's `decimal` separator, and are
    /// refused as ambiguous when the file has none.
    static func number(_ text: String, column: String, decimal: Character?) throws(ImportError) -> Double? {
        let cleaned = text.trimmingCharacters(in: .whitespaces)
        if cleaned.isEmpty { return nil }
        let refused = ImportError(line: nil, .badNumber(column: column, value: text))
        let separators = cleaned.filter { $0 == "," || $0 == "." }
        guard let last = separators.last else {
            guard let value = Double(cleaned), value.isFinite, !cleaned.contains("e"), !cleaned.contains("E") else { throw refused }
            return value
        }
        let kinds = Set(separators)
        var decimalMark: Character? = kinds.count == 2 ? last : nil
        if kinds.count == 1 {
            let fraction = cleaned.split(separator: last, omittingEmptySubsequences: false).last ?? ""
            let whole = cleaned.split(separator: last, omittingEmptySubsequences: false).first ?? ""
            if separators.count > 1 {
                decimalMark = nil  // "1,234,567": grouping only
            } else if fraction.count != 3 || ["", "0", "-0", "+0"].contains(whole) {
                decimalMark = last
            } else {
                guard let decimal else { throw ImportError(line: nil, .ambiguousNumber(column: column, value: text)) }
                decimalMark = decimal == last ? last : nil
            }
        }
        let parts = cleaned.split(separator: decimalMark ?? "\u{0}", omittingEmptySubsequences: false)
        guard parts.count <= 2, let integer = parts.first else { throw refused }
        let grouping: Character = decimalMark.map { $0 == "," ? "." : "," } ?? last
        let groups = integer.split(separator: grouping, omittingEmptySubsequences: false)
        // grouped thousands: 1–3 digits first (after a sign), then threes
        let leading = groups.first?.drop { $0 == "-" || $0 == "+" }.count ?? 0
        if groups.count > 1, !(groups.dropFirst().allSatisfy { $0.count == 3 } && (1...3).contains(leading)) { throw refused }
        let plain = groups.joined() + (parts.count == 2 ? "." + parts[1] : "")
        guard !plain.contains(","), !plain.contains("e"), !plain.contains("E"), let value = Double(plain), value.isFinite else { throw refused }
        return value
    }

    /// The decimal separator the file's unambiguous numbers use: "." when none decides, nil when
    /// some use "," and others ".".
    static func decimalSeparator(evidence fields: some Sequence<String>) -> Character? {
        var seen: Set<Character> = []
        for field in fields {
            let text = field.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "," || $0 == "." || $0 == "-") }) else { continue }
            let separators = text.filter { $0 == "," || $0 == "." }
            guard let last = separators.last else { continue }
            if Set(separators).count == 2 {
                seen.insert(last)
            } else if separators.count == 1 {
                let halves = text.split(separator: last, omittingEmptySubsequences: false)
                if halves[1].count != 3 || ["", "0", "-0"].contains(halves[0]) { seen.insert(last) }
            }
        }
        return seen.count > 1 ? nil : seen.first ?? "."
    }

    /// `2024-01-05`, or the US `1/5/2024` MyFitnessPal uses in some regions.
    static func date(_ text: String) throws(ImportError) -> LocalDate {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: trimmed.contains("/") ? "/" : "-", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let a = parts[0], let b = parts[1], let c = parts[2] else { throw ImportError(line: nil, .badDate(text)) }
        let (year, month, day) = trimmed.contains("/") ? (c, a, b) : (a, b, c)
        guard year >= 1900, year <= 9999, let date = LocalDate(year: year, month: month, day: day) else {
            throw ImportError(line: nil, .badDate(text))
        }
        return date
    }

    /// `08:30`, `8:30:15`, `8:30 AM`, `12:05 pm` → hour and minute; empty → nil.
    static func time(_ text: String) throws(ImportError) -> (hour: Int, minute: Int)? {
        var trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.isEmpty { return nil }
        var shift: Int?
        for (suffix, value) in [("am", 0), ("pm", 12)] where trimmed.hasSuffix(suffix) {
            shift = value
            trimmed = String(trimmed.dropLast(2)).trimmingCharacters(in: .whitespaces)
        }
        let parts = trimmed.split(separator: ":").map { Int($0) }
        guard (2...3).contains(parts.count), var hour = parts[0], let minute = parts[1], (0..<60).contains(minute) else {
            throw ImportError(line: nil, .badTime(text))
        }
        if let shift {
            guard (1...12).contains(hour) else { throw ImportError(line: nil, .badTime(text)) }
            hour = hour % 12 + shift
        }
        guard (0..<24).contains(hour) else { throw ImportError(line: nil, .badTime(text)) }
        return (hour, minute)
    }
}
