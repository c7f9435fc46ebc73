import DietCore
import Foundation

/// An RFC 4180 CSV file read record by record from a `ByteSource` in chunks, so a diary of any
/// length needs the memory of one record: each record, with the line it starts on, is handed to
/// the caller and forgotten. Quoted fields may hold commas, doubled quotes and line breaks; a
/// UTF-8 byte order mark and CRLF line ends are accepted; blank lines are skipped.
struct CSVReader {
    /// One record: valid during the call it is handed to. Fields are kept as bytes; only the
    /// fields the caller asks for become strings.
    struct Record {
        let line: Int
        fileprivate var bytes: [UInt8] = []
        /// Where each field ends in `bytes` (it starts where the one before ended).
        fileprivate var ends: [Int] = []

        init(line: Int) {
            self.line = line
        }

        var count: Int { ends.count }

        func field(_ index: Int) -> String {
            String(decoding: bytes[range(index)], as: UTF8.self)
        }

        func fieldBytes(_ index: Int) -> ArraySlice<UInt8> { bytes[range(index)] }

        var fields: [String] { (0..<count).map(field) }

        private func range(_ index: Int) -> Range<Int> { (index == 0 ? 0 : ends[index - 1])..<ends[index] }

        /// A line with nothing but white space.
        var isBlank: Bool { count == 1 && field(0).trimmingCharacters(in: .whitespaces).isEmpty }
    }

    let source: ByteSource

    /// Calls `body` with every record, in order. Throws `csvQuote` (with the line the quote
    /// opened on) when the file ends inside quotes, after the records before it were handed over.
    func read(_ body: (Record) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var record = Record(line: 1)
        var fieldStart = 0
        var line = 1
        var quoted = false
        var quoteLine = 1
        /// A quote inside quotes: a doubled quote or the closing one, as the next byte says.
        var quoteInQuotes = false
        /// A CR outside quotes: the end of a line, with or without the LF that may follow.
        var carriageReturn = false
        var atStart = true
        var bom: [UInt8] = []

        func endField() {
            record.ends.append(record.bytes.count)
            fieldStart = record.bytes.count
        }
        func endRecord() throws {
            endField()
            if !record.isBlank { try body(record) }
            record.bytes.removeAll(keepingCapacity: true)
            record.ends.removeAll(keepingCapacity: true)
            fieldStart = 0
        }
        func newLine() throws {
            try endRecord()
            line += 1
            record = Record(line: line, reusing: record)
        }
        func take(_ byte: UInt8) throws {
            if carriageReturn {
                carriageReturn = false
                try newLine()
                if byte == 0x0A { return }
            }
            if quoteInQuotes {
                quoteInQuotes = false
                if byte == 0x22 {
                    record.bytes.append(0x22)
                    return
                }
                quoted = false
            }
            if quoted {
                if byte == 0x22 {
                    quoteInQuotes = true
                } else {
                    if byte == 0x0A { line += 1 }
                    record.bytes.append(byte)
                }
                return
            }
            switch byte {
            case 0x22 where record.bytes.count == fieldStart:
                quoted = true
                quoteLine = line
            case 0x2C: endField()
            case 0x0D: carriageReturn = true
            case 0x0A: try newLine()
            default: record.bytes.append(byte)
            }
        }

        while true {
            let got = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if got == 0 { break }
            var index = 0
            if atStart {
                // a byte order mark (possibly split across reads) is dropped
                while index < got, bom.count < 3, buffer[index] == [0xEF, 0xBB, 0xBF][bom.count] {
                    bom.append(buffer[index])
                    index += 1
                }
                if bom.count == 3 || index < got {
                    atStart = false
                    if bom.count < 3 { for byte in bom { try take(byte) } }
                }
            }
            while index < got {
                try take(buffer[index])
                index += 1
            }
        }
        if atStart { for byte in bom { try take(byte) } }
        if carriageReturn {
            carriageReturn = false
            try newLine()
        }
        if quoteInQuotes {
            quoteInQuotes = false
            quoted = false
        }
        if quoted { throw ImportError(line: quoteLine, .csvQuote) }
        if !record.bytes.isEmpty || !record.ends.isEmpty { try endRecord() }
    }

    static func normalized(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}

extension CSVReader.Record {
    /// A new record starting on `line` that keeps the storage of `old`.
    fileprivate init(line: Int, reusing old: CSVReader.Record) {
        self.line = line
        bytes = old.bytes
        ends = old.ends
    }
}

/// A diary's header: its column names and where to find them.
struct CSVHeader {
    let names: [String]

    /// The names trimmed and lowercased, for finding columns.
    var normalized: [String] { names.map(CSVReader.normalized) }

    /// The index of the first column named one of `names` (compared trimmed, case ignored).
    func column(_ candidates: String...) -> Int? {
        let normalized = normalized
        for name in candidates {
            if let index = normalized.firstIndex(of: name) { return index }
        }
        return nil
    }

    /// Like `column`, but the file is refused without it.
    func require(_ name: String) throws(ImportError) -> Int {
        guard let index = column(name.lowercased()) else { throw ImportError(line: 1, .missingColumn(name)) }
        return index
    }
}

/// The first pass over a diary: its header, that every row has the header's number of fields,
/// and the evidence of its decimal separator (which decides how "1,234" is read in every row,
/// so it must be known before the first row is read). Keeps nothing per row.
struct CSVSurvey {
    let header: CSVHeader
    let rows: Int
    /// See `CSVValues.decimalSeparator(evidence:)`.
    let decimalSeparator: Character?

    init(_ source: ByteSource) throws {
        var header: [String]?
        var rows = 0
        var width: ImportError?
        var evidence = DecimalEvidence()
        try CSVReader(source: source).read { record in
            guard let names = header else {
                header = record.fields
                return
            }
            rows += 1
            if width == nil, record.count != names.count {
                width = ImportError(line: record.line, .csvColumns(expected: names.count, got: record.count))
            }
            for index in 0..<record.count { evidence.add(record.fieldBytes(index)) }
        }
        guard let header else { throw ImportError(line: nil, .empty) }
        if let width { throw width }
        self.header = CSVHeader(names: header)
        self.rows = rows
        decimalSeparator = evidence.separator
    }
}

/// The decimal separators a file's numbers show (`CSVValues.decimalSeparator(evidence:)`), a
/// field at a time, in bytes: a plain ASCII field is looked at without making a string.
struct DecimalEvidence {
    private(set) var seen: Set<Character> = []

    /// "." when none decides, nil when some use "," and others ".".
    var separator: Character? { seen.count > 1 ? nil : seen.first ?? "." }

    mutating func add(_ field: ArraySlice<UInt8>) {
        guard seen.count < 2 else { return }
        var bytes = field
        if bytes.contains(where: { $0 >= 0x80 }) {
            // not ASCII: the white space around it may be any of Unicode's
            if let found = CSVValues.decimalSeparator(in: String(decoding: bytes, as: UTF8.self)) { seen.insert(found) }
            return
        }
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        guard !bytes.isEmpty else { return }
        var last: UInt8?
        var kinds: (comma: Bool, point: Bool) = (false, false)
        var separators = 0
        var lastIndex = bytes.startIndex
        for index in bytes.indices {
            let byte = bytes[index]
            switch byte {
            case 0x30...0x39, 0x2D: continue
            case 0x2C: kinds.comma = true
            case 0x2E: kinds.point = true
            default: return
            }
            separators += 1
            last = byte
            lastIndex = index
        }
        guard let last else { return }
        let mark: Character = last == 0x2C ? "," : "."
        if kinds.comma && kinds.point {
            seen.insert(mark)
        } else if separators == 1 {
            let whole = bytes[bytes.startIndex..<lastIndex]
            let fraction = bytes.distance(from: lastIndex, to: bytes.endIndex) - 1
            if fraction != 3 || whole.isEmpty || whole.elementsEqual([0x30]) || whole.elementsEqual([0x2D, 0x30]) { seen.insert(mark) }
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
            if let found = decimalSeparator(in: field) { seen.insert(found) }
        }
        return seen.count > 1 ? nil : seen.first ?? "."
    }

    /// The decimal separator one field shows, if it can only be read one way.
    static func decimalSeparator(in field: String) -> Character? {
        let text = field.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "," || $0 == "." || $0 == "-") }) else { return nil }
        let separators = text.filter { $0 == "," || $0 == "." }
        guard let last = separators.last else { return nil }
        if Set(separators).count == 2 { return last }
        if separators.count == 1 {
            let halves = text.split(separator: last, omittingEmptySubsequences: false)
            if halves[1].count != 3 || ["", "0", "-0"].contains(halves[0]) { return last }
        }
        return nil
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
