import Foundation

/// Input that breaks a rule of the product: names the field, what is allowed and what was
/// received, so every surface can say exactly what to fix.
public struct ValidationError: Error, Hashable, Sendable {
    public let field: Field
    public let allowed: Allowed
    public let received: String

    public init(field: Field, allowed: Allowed, received: String) {
        self.field = field
        self.allowed = allowed
        self.received = received
    }

    /// The name of a validated input. Modules add their own fields as static constants.
    public struct Field: RawRepresentable, Hashable, Sendable, Codable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }

    /// What the field accepts.
    public enum Allowed: Hashable, Sendable {
        /// `min`–`max`, shown with `digits` fraction digits and an optional unit.
        case range(min: Double, max: Double, digits: Int, unit: String?)
        /// Text of `min`–`max` characters; `received` is the count typed.
        case length(min: Int, max: Int)
        /// `min`–`max` in steps of `step`.
        case steps(min: Double, max: Double, step: Double, digits: Int, unit: String?)
        /// One of these values.
        case oneOf([String])
        /// A textual format such as `HH:MM`.
        case format(String)
        /// Text without control characters (tab and line feed are fine), see `TextRules`.
        case noControlCharacters
        /// Any other rule, as a localizable message.
        case rule(Message)
    }

    /// The localizable message in plain words: "Weight must be 30.0–200.0 kg in steps of
    /// 0.1 kg; you entered 250." A length names its unit ("0 characters"); empty input reads
    /// "nothing".
    public var message: Message {
        let shown: Message.Argument =
            if received.isEmpty {
                .message(Message("received.nothing"))
            } else if case .length = allowed, let count = Int(received) {
                .message(Message("received.characters", ["count": .integer(count)]))
            } else {
                .text(received)
            }
        return Message(
            "error.validation",
            [
                "field": .message(Message("field.\(field.rawValue)")),
                "allowed": .message(allowed.message),
                "received": shown,
            ]
        )
    }
}

extension ValidationError.Allowed {
    public var message: Message {
        switch self {
        case let .range(min, max, digits, unit):
            Message(
                unit == nil ? "allowed.range" : "allowed.range.unit",
                [
                    "min": .decimal(min, digits: digits), "max": .decimal(max, digits: digits), "unit": .text(unit ?? ""),
                ]
            )
        case let .steps(min, max, step, digits, unit):
            Message(
                "allowed.steps",
                [
                    "min": .decimal(min, digits: digits), "max": .decimal(max, digits: digits),
                    "step": .decimal(step, digits: digits), "unit": .text(unit ?? ""),
                ]
            )
        case let .length(min, max):
            Message("allowed.length", ["min": .integer(min), "max": .integer(max)])
        case let .oneOf(values):
            Message("allowed.oneOf", ["values": .text(values.joined(separator: ", "))])
        case let .format(format):
            Message("allowed.format", ["format": .text(format)])
        case .noControlCharacters:
            Message("allowed.noControlCharacters")
        case let .rule(message):
            message
        }
    }
}

extension ValidationError: LocalizedError, CustomStringConvertible {
    /// English text, for logs and for callers without a language.
    public var description: String { Localizer(.en).render(message) }
    public var errorDescription: String? { description }
}

extension ValidationError.Field {
    public static let sex = Self("sex")
    public static let age = Self("age")
    public static let birthDate = Self("birthDate")
    public static let height = Self("height")
    public static let weight = Self("weight")
    public static let goalWeight = Self("goalWeight")
    public static let activityLevel = Self("activityLevel")
    public static let goal = Self("goal")
    public static let eatingWindowStart = Self("eatingWindowStart")
    public static let eatingWindowEnd = Self("eatingWindowEnd")
    public static let eatingWindow = Self("eatingWindow")
    public static let eatingMoments = Self("eatingMoments")
    public static let momentName = Self("momentName")
    public static let eatingMoment = Self("eatingMoment")
    public static let language = Self("language")
    public static let deficit = Self("deficit")
    public static let lockedCalories = Self("lockedCalories")
    public static let lockedProtein = Self("lockedProtein")
    public static let lockedCarbs = Self("lockedCarbs")
    public static let lockedFat = Self("lockedFat")
    public static let mealName = Self("mealName")
    public static let calories = Self("calories")
    public static let protein = Self("protein")
    public static let carbs = Self("carbs")
    public static let fat = Self("fat")
    public static let fiber = Self("fiber")
    public static let date = Self("date")
    public static let time = Self("time")
    public static let email = Self("email")
    public static let password = Self("password")
    public static let deviceName = Self("deviceName")
    public static let calendarName = Self("calendarName")
    public static let calendarAddress = Self("calendarAddress")
    public static let server = Self("server")
    public static let search = Self("search")
    public static let fileName = Self("fileName")
}
