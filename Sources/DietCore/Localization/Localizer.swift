import Foundation

/// Renders `Message`s from the bundled string tables (`Resources/Strings/<language>.json`).
///
/// A key missing from a language falls back to English, then to the key itself, so a gap is
/// visible but never a crash. A test keeps the three tables' key sets identical.
///
/// A text that counts something has plural variants instead of one template: `key#one` and
/// `key#other` ("{count} entry" / "{count} entries"). `render` picks the variant by the
/// message's `count` argument as it is shown, by the language's plural rule (`PluralCategory`).
public struct Localizer: Sendable {
    public let language: Language
    private let table: [String: String]

    public init(_ language: Language) {
        self.language = language
        self.table = StringTables.table(language)
    }

    /// The template for `key`, without arguments filled in; for a key with plural variants, its
    /// `#other` variant.
    public func template(_ key: String) -> String {
        stored(key) ?? stored(key + "#" + PluralCategory.other.rawValue) ?? key
    }

    /// The template for `key` for a message counting `count`: the variant of the count's plural
    /// category as shown in this language ("1" → `key#one`, "2", "0" or "1,5" → `key#other`)
    /// where `key` has variants, else `key`'s one template.
    public func template(_ key: String, count: Message.Argument?) -> String {
        guard let count else { return template(key) }
        return stored(key + "#" + pluralCategory(count).rawValue) ?? template(key)
    }

    /// The text of exactly `key` in this language, else in English.
    private func stored(_ key: String) -> String? {
        table[key] ?? (language == .en ? nil : StringTables.table(.en)[key])
    }

    /// Whether the language's table has `key`, as one template or as plural variants.
    public func hasKey(_ key: String) -> Bool {
        table[key] != nil || table[key + "#" + PluralCategory.other.rawValue] != nil
    }

    /// The plural category of `count` as this language shows it: `.decimal(1, digits: 1)` shows
    /// "1.0", which is `.other` in English and German and `.one` in Spanish.
    public func pluralCategory(_ count: Message.Argument) -> PluralCategory {
        language.pluralCategory(ofShown: format(count))
    }

    /// The plural category of a number already formatted in this language ("1", "1,5").
    public func pluralCategory(ofShown number: String) -> PluralCategory {
        language.pluralCategory(ofShown: number)
    }

    public func render(_ message: Message) -> String {
        var output = ""
        var rest = Substring(template(message.key, count: message.arguments["count"]))
        while let open = rest.firstIndex(of: "{") {
            output += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            if let argument = message.arguments[name] {
                output += format(argument)
            } else {
                output += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return output + rest
    }

    /// Shorthand for rendering a key with arguments.
    public func text(_ key: String, _ arguments: [String: Message.Argument] = [:]) -> String {
        render(Message(key, arguments))
    }

    public func format(_ argument: Message.Argument) -> String {
        switch argument {
        case .integer(let value): number(Double(value), digits: 0)
        case .decimal(let value, let digits): number(value, digits: digits)
        case .text(let value): value
        case .date(let value): date(value)
        case .time(let value): value.formatted
        case .message(let value): render(value)
        }
    }

    /// A number with grouping and the language's decimal separator, halves rounded away from
    /// zero: 2,300.5 / 2.300,5.
    public func number(_ value: Double, digits: Int) -> String {
        value.formatted(
            .number
                .precision(.fractionLength(digits))
                .rounded(rule: .toNearestOrAwayFromZero)
                .grouping(.automatic)
                .locale(language.locale)
        )
    }

    /// An amount with as few decimals as it needs, at most two: 2, 1,5, 0,25 (German), 0.5625 →
    /// 0.56. For counts of portions and the bounds of a typed range.
    public func amount(_ value: Double) -> String {
        let digits = value.rounded() == value ? 0 : (value * 10).rounded() == value * 10 ? 1 : 2
        return number(value, digits: digits)
    }

    /// A short date with weekday, e.g. "Mon, Mar 2, 2026" / "Mo., 2. März 2026".
    public func date(_ value: LocalDate) -> String {
        let utc = TimeZone(identifier: "UTC") ?? .current
        let instant = value.instant(at: TimeOfDay(minutesSinceMidnight: 12 * 60), in: utc)
        var style = Date.FormatStyle(date: .abbreviated, time: .omitted, locale: language.locale, timeZone: utc)
        style = style.weekday(.abbreviated)
        return instant.formatted(style)
    }
}

/// The string tables, loaded once.
enum StringTables {
    /// The tables read so far: each is read on first use (a command in German reads only the
    /// German table, and English only if a key were missing).
    private static let lock = NSLock()
    nonisolated(unsafe) private static var loaded: [Language: [String: String]] = [:]

    static func table(_ language: Language) -> [String: String] {
        lock.lock()
        defer { lock.unlock() }
        if let table = loaded[language] { return table }
        let table = load(language)
        loaded[language] = table
        return table
    }

    /// A table as a flat JSON object of strings. `JSONSerialization` rather than `JSONDecoder`:
    /// the decoder's generic machinery cost a cold command about 10 ms before its first line.
    static func load(_ language: Language) -> [String: String] {
        guard let url = Bundle.module.url(forResource: language.rawValue, withExtension: "json", subdirectory: "Resources/Strings"),
            let data = try? Data(contentsOf: url),
            let table = try? JSONSerialization.jsonObject(with: data) as? [String: String]
        else { return [:] }
        return table
    }
}
