/// The rule for every text a person types or a device receives: no control characters
/// except tab and line feed. A NUL cuts a text short in SQLite and is refused by PostgreSQL;
/// an escape sequence takes over a terminal. Every surface checks input with this rule and
/// shows stored text through `visible(_:)`.
public enum TextRules {
    /// Whether `scalar` may not appear in text: C0 controls (U+0000–U+001F) other than tab and
    /// line feed, DEL (U+007F) and C1 controls (U+0080–U+009F). A carriage return counts: a
    /// form's CRLF line breaks are normalised to line feeds before they reach this rule.
    public static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }

    /// The first control character of `text` that is not allowed, or nil when there is none.
    public static func forbiddenControlCharacter(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: isForbidden)
    }

    /// Refuses `text` if it holds a forbidden control character, naming `field`. The error
    /// shows the text with its control characters made visible, or, for a `secret` such as a
    /// password, only the character's code point.
    public static func check(_ text: String, field: ValidationError.Field, secret: Bool = false) throws(ValidationError) {
        guard let scalar = forbiddenControlCharacter(in: text) else { return }
        throw ValidationError(field: field, allowed: .noControlCharacters, received: secret ? codePoint(scalar) : quoted(text))
    }

    /// The characters a name (of a meal, food or recipe) may have, docs/rules.md §4.
    public static let nameLength = 1...80
    /// The store counts code points (SQLite's `length`): 8 per character leaves room for any
    /// real script, and the row contract holds names to the same.
    public static let nameCodePoints = 640

    /// A typed name as it is stored: without control characters, trimmed, 1–80 characters and
    /// at most 640 code points; otherwise the error names `field`.
    public static func name(_ text: String, field: ValidationError.Field) throws(ValidationError) -> String {
        try check(text, field: field)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard nameLength.contains(trimmed.count) else {
            throw ValidationError(
                field: field,
                allowed: .length(min: nameLength.lowerBound, max: nameLength.upperBound),
                received: "\(trimmed.count)"
            )
        }
        guard trimmed.unicodeScalars.count <= nameCodePoints else {
            throw ValidationError(
                field: field,
                allowed: .rule(Message("allowed.nameCodePoints", ["max": .integer(nameCodePoints)])),
                received: "\(trimmed.unicodeScalars.count)"
            )
        }
        return trimmed
    }

    /// `text` with every forbidden control character written as a JSON-style escape
    /// (`\u001B`), so it can be shown anywhere, also inside a JSON string, and never acts on a
    /// terminal. Text without one comes back unchanged.
    public static func visible(_ text: String) -> String {
        guard forbiddenControlCharacter(in: text) != nil else { return text }
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isForbidden(scalar) {
                output.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// `\u001B` for ESC.
    public static func escape(_ scalar: Unicode.Scalar) -> String {
        "\\u" + hex(scalar.value)
    }

    /// `U+001B` for ESC.
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        "U+" + hex(scalar.value)
    }

    /// The text as received, visible and in quotes, cut after 60 characters.
    public static func quoted(_ text: String) -> String {
        let shown = visible(text)
        return "\"" + (shown.count > 60 ? String(shown.prefix(60)) + "…" : shown) + "\""
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
