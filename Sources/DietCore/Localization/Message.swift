import Foundation

/// A user-facing text as data: a key into the string tables plus named arguments.
///
/// Domain rules return `Message`s, never finished strings, so every surface renders them in
/// the user's language with `Localizer`. A template refers to an argument as `{name}`.
public struct Message: Hashable, Sendable, Codable {
    public let key: String
    public let arguments: [String: Argument]

    public init(_ key: String, _ arguments: [String: Argument] = [:]) {
        self.key = key
        self.arguments = arguments
    }

    /// A value inserted into a template, formatted for the language it is rendered in.
    public indirect enum Argument: Hashable, Sendable, Codable {
        case integer(Int)
        /// A number shown with exactly `digits` fraction digits.
        case decimal(Double, digits: Int)
        case text(String)
        case date(LocalDate)
        case time(TimeOfDay)
        /// Another message, rendered in the same language (e.g. a phase name).
        case message(Message)
    }
}

extension Message.Argument: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(stringLiteral value: String) { self = .text(value) }
}
