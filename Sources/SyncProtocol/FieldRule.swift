import Foundation

/// What one field of a synced row accepts.
enum FieldRule: Sendable {
    /// Text of `characters` length, not blank, with no control character but tab and newline.
    case text(ClosedRange<Int>)
    /// Text that may be empty, at most `maxCharacters` long, with no control character but tab and newline.
    case freeText(maxCharacters: Int)
    /// ASCII letters, digits and `_ - . :`, such as an event name or a food's id.
    case identifier(maxLength: Int)
    case choice(Set<String>)
    case integer(ClosedRange<Int64>)
    /// A number in `range`; `positive` also excludes zero; `step` (0.1 for a weight) is the
    /// grid it must lie on.
    case number(ClosedRange<Double>, positive: Bool = false, step: Double? = nil)
    /// `YYYY-MM-DD`, a real calendar date.
    case date
    /// `HH:MM`, 00:00–23:59.
    case time
    /// `YYYY-MM-DDTHH:MM:SS.sssZ`, the store's UTC instant.
    case instant
    /// An IANA time-zone name this system knows.
    case timeZone
    /// Only digits, of one of these lengths (a barcode).
    case digits(lengths: Set<Int>)
    /// Text holding JSON of `shape` in at most `maxBytes`, its strings free of control
    /// characters.
    case json(JSONShape, maxBytes: Int)

    /// Why `value` breaks the rule, or nil.
    func problem(_ value: JSONValue) -> String? {
        switch self {
        case .integer(let range):
            guard let number = value.doubleValue, number.rounded() == number, abs(number) < 9e15,
                range.contains(Int64(number))
            else {
                return "must be a whole number from \(range.lowerBound) to \(range.upperBound); got \(Self.shown(value))"
            }
            return nil
        case let .number(range, positive, step):
            guard let number = value.doubleValue, number.isFinite, range.contains(number), !positive || number > 0 else {
                let lower = positive ? "above \(Self.shown(range.lowerBound))" : "from \(Self.shown(range.lowerBound))"
                return "must be a number \(lower) to \(Self.shown(range.upperBound)); got \(Self.shown(value))"
            }
            if let step, abs(number / step - (number / step).rounded()) > 1e-6 {
                return "must be in steps of \(Self.shown(step)); got \(Self.shown(value))"
            }
            return nil
        default:
            guard let text = value.stringValue else { return "must be text; got \(Self.shown(value))" }
            return problem(text)
        }
    }

    private func problem(_ text: String) -> String? {
        if let scalar = RowContract.forbiddenControlCharacter(in: text) {
            return "must not contain the control character \(RowContract.name(of: scalar))"
        }
        switch self {
        case .text(let range):
            guard range.contains(text.count) else {
                return "must be \(range.lowerBound)–\(range.upperBound) characters; got \(text.count)"
            }
            // The store counts code points: 8 per character leaves room for any real script.
            guard text.unicodeScalars.count <= range.upperBound * 8 else {
                return "must be at most \(range.upperBound * 8) code points; got \(text.unicodeScalars.count)"
            }
            return text.allSatisfy(\.isWhitespace) && !text.isEmpty ? "must not be blank" : nil
        case .freeText(let maximum):
            return text.count <= maximum ? nil : "must be at most \(maximum) characters; got \(text.count)"
        case .identifier(let maximum):
            let allowed =
                !text.isEmpty && text.utf8.count <= maximum
                && text.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || "_-.:".unicodeScalars.contains($0) }
            return allowed ? nil : "must be 1–\(maximum) ASCII letters, digits, '_', '-', '.' or ':'; got \(Self.shown(text))"
        case .choice(let values):
            return values.contains(text) ? nil : "must be one of \(values.sorted().joined(separator: ", ")); got \(Self.shown(text))"
        case .date:
            return CivilText.isDate(text) ? nil : "must be a real date as YYYY-MM-DD; got \(Self.shown(text))"
        case .time:
            return CivilText.isTime(text) ? nil : "must be a time as HH:MM from 00:00 to 23:59; got \(Self.shown(text))"
        case .instant:
            return CivilText.isInstant(text) ? nil : "must be a UTC instant as YYYY-MM-DDTHH:MM:SS.sssZ; got \(Self.shown(text))"
        case .timeZone:
            return text.utf8.count <= 64 && TimeZone(identifier: text) != nil
                ? nil : "must be a known time-zone name such as Europe/Berlin; got \(Self.shown(text))"
        case .digits(let lengths):
            let valid = lengths.contains(text.count) && text.unicodeScalars.allSatisfy { (0x30...0x39).contains($0.value) }
            return valid ? nil : "must be \(lengths.sorted().map(String.init).joined(separator: " or ")) digits; got \(Self.shown(text))"
        case let .json(shape, maxBytes):
            return Self.jsonProblem(text, shape: shape, maxBytes: maxBytes)
        case .integer, .number:
            return nil
        }
    }

    private static func jsonProblem(_ text: String, shape: JSONShape, maxBytes: Int) -> String? {
        guard text.utf8.count <= maxBytes else { return "must be at most \(maxBytes) bytes of JSON; got \(text.utf8.count)" }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { return "must be valid JSON" }
        if let scalar = value.strings.lazy.compactMap({ RowContract.forbiddenControlCharacter(in: $0) }).first {
            return "must not contain the control character \(RowContract.name(of: scalar))"
        }
        return shape.problem(value)
    }

    /// A received value as a message shows it: short, and with control characters named.
    static func shown(_ value: JSONValue) -> String {
        switch value {
        case .null: "nothing"
        case .bool(let flag): String(flag)
        case .number(let number): shown(number)
        case .string(let text): shown(text)
        case .array: "a list"
        case .object: "an object"
        }
    }

    static func shown(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    static func shown(_ text: String) -> String {
        let visible = text.unicodeScalars.prefix(40).map { scalar in
            scalar.properties.generalCategory == .control ? RowContract.name(of: scalar) : String(scalar)
        }.joined()
        return "\"" + visible + (text.unicodeScalars.count > 40 ? "…" : "") + "\""
    }
}

extension JSONValue {
    /// Every string inside, keys included.
    var strings: [String] {
        switch self {
        case .string(let text): [text]
        case .array(let items): items.flatMap(\.strings)
        case .object(let fields): fields.flatMap { [$0.key] + $0.value.strings }
        case .null, .bool, .number: []
        }
    }
}

/// The store's text forms of civil values, checked without a calendar object (the same on
/// every platform).
enum CivilText {
    static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D,
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            (1900...2999).contains(year), (1...12).contains(month)
        else { return false }
        return (1...daysIn(month: month, year: year)).contains(day)
    }

    static func isTime(_ text: String) -> Bool {
        minutes(text) != nil
    }

    /// The minutes since midnight of an `HH:MM` time, or nil.
    static func minutes(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == 0x3A, let hour = number(bytes[0..<2]), let minute = number(bytes[3..<5]),
            hour < 24, minute < 60
        else { return nil }
        return hour * 60 + minute
    }

    static func isInstant(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[10] == 0x54, bytes[19] == 0x2E, bytes[23] == 0x5A,
            isDate(String(decoding: bytes[0..<10], as: UTF8.self)),
            isTime(String(decoding: bytes[11..<16], as: UTF8.self)), bytes[16] == 0x3A,
            let second = number(bytes[17..<19]), second < 60, number(bytes[20..<23]) != nil
        else { return false }
        return true
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
