import Foundation

/// The daily eating window and the planned eating moments inside it (docs/rules.md §2).
///
/// A window may cross midnight (e.g. 20:00–02:00). It lasts 1–16 hours; 2–5 distinct eating
/// moments lie inside it.
public struct EatingWindow: Hashable, Sendable, Codable {
    public let start: TimeOfDay
    public let end: TimeOfDay
    public let moments: [TimeOfDay]
    /// The names the user gave the moments, by their place (nil: the default name by its time);
    /// as many as `moments` or fewer.
    public let names: [String?]

    public static let allowedHours = 1...16
    public static let allowedMoments = 2...5

    /// 12:00–18:00 with moments at 12:00, 15:00 and 18:00.
    public static let standard = EatingWindow(
        uncheckedStart: TimeOfDay(minutesSinceMidnight: 12 * 60),
        end: TimeOfDay(minutesSinceMidnight: 18 * 60),
        moments: [12 * 60, 15 * 60, 18 * 60].map { TimeOfDay(minutesSinceMidnight: $0) }
    )

    public init(start: TimeOfDay, end: TimeOfDay, moments: [TimeOfDay]? = nil, names: [String?] = []) throws(ValidationError) {
        let minutes = EatingWindow.length(from: start, to: end)
        guard minutes >= EatingWindow.allowedHours.lowerBound * 60, minutes <= EatingWindow.allowedHours.upperBound * 60 else {
            throw ValidationError(
                field: .eatingWindow,
                allowed: .range(min: 1, max: 16, digits: 0, unit: "h"),
                received: "\(start.formatted)–\(end.formatted)"
            )
        }
        let chosen = moments ?? EatingWindow.evenMoments(start: start, minutes: minutes, count: 3)
        let distinct = Array(Set(chosen)).sorted { EatingWindow.offset(of: $0, from: start) < EatingWindow.offset(of: $1, from: start) }
        guard EatingWindow.allowedMoments.contains(distinct.count), distinct.count == chosen.count else {
            throw ValidationError(
                field: .eatingMoments,
                allowed: .range(min: 2, max: 5, digits: 0, unit: nil),
                received: "\(chosen.count)" + (distinct.count == chosen.count ? "" : " (duplicates)")
            )
        }
        if let outside = distinct.first(where: { EatingWindow.offset(of: $0, from: start) > minutes }) {
            throw ValidationError(
                field: .eatingMoments,
                allowed: .rule(Message("allowed.insideWindow", ["start": .time(start), "end": .time(end)])),
                received: outside.formatted
            )
        }
        // names stay with their moments when the moments were given in another order
        let named = names.isEmpty ? [] : distinct.map { time in chosen.firstIndex(of: time).flatMap { names.indices.contains($0) ? names[$0] : nil } }
        var checked: [String?] = []
        for name in named { checked.append(try name.flatMap { name throws(ValidationError) in try EatingWindow.checkedName(name) }) }
        self.init(uncheckedStart: start, end: end, moments: distinct, names: checked)
    }

    private init(uncheckedStart start: TimeOfDay, end: TimeOfDay, moments: [TimeOfDay], names: [String?] = []) {
        self.start = start
        self.end = end
        self.moments = moments
        self.names = names.contains { $0 != nil } ? names : []
    }

    /// The characters of an eating moment's name.
    public static let nameLength = 1...30
    /// The code points of a name: 8 per character, as the row contract counts them.
    public static let nameCodePoints = 240

    /// A name the user typed for a moment: without control characters (a tab or line break
    /// inside reads as a space), trimmed, 1–30 characters; nil for an empty one (the default
    /// name). Every name the row contract accepts reads here (`Sources/SyncProtocol/JSONShape.swift`).
    public static func checkedName(_ text: String) throws(ValidationError) -> String? {
        try TextRules.check(text, field: .momentName)
        let name = text.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { return nil }
        guard nameLength.contains(name.count), name.unicodeScalars.count <= nameCodePoints else {
            throw ValidationError(
                field: .momentName,
                allowed: .length(min: nameLength.lowerBound, max: nameLength.upperBound),
                received: "\(name.count)"
            )
        }
        return name
    }

    /// The window with the moments named `names` by their place (nil or empty: the default).
    public func renamed(_ names: [String?]) throws(ValidationError) -> EatingWindow {
        var checked: [String?] = []
        for name in names.prefix(moments.count) {
            checked.append(try name.flatMap { name throws(ValidationError) in try EatingWindow.checkedName(name) })
        }
        return EatingWindow(uncheckedStart: start, end: end, moments: moments, names: checked)
    }

    enum CodingKeys: String, CodingKey {
        case start, end, moments, names
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            start: container.decode(TimeOfDay.self, forKey: .start),
            end: container.decode(TimeOfDay.self, forKey: .end),
            moments: container.decode([TimeOfDay].self, forKey: .moments),
            names: container.decodeIfPresent([String?].self, forKey: .names) ?? []
        )
    }

    // The names are written only when the user gave one, so a window encodes as before.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
        try container.encode(moments, forKey: .moments)
        if !names.isEmpty { try container.encode(names, forKey: .names) }
    }

    /// The window's length in minutes.
    public var minutes: Int { EatingWindow.length(from: start, to: end) }

    /// Whether a meal at `time` falls inside the window (both ends included).
    public func contains(_ time: TimeOfDay) -> Bool {
        EatingWindow.offset(of: time, from: start) <= minutes
    }

    private static func length(from start: TimeOfDay, to end: TimeOfDay) -> Int {
        offset(of: end, from: start)
    }

    private static func offset(of time: TimeOfDay, from start: TimeOfDay) -> Int {
        ((time.minutesSinceMidnight - start.minutesSinceMidnight) % 1440 + 1440) % 1440
    }

    private static func evenMoments(start: TimeOfDay, minutes: Int, count: Int) -> [TimeOfDay] {
        (0..<count).map { TimeOfDay(minutesSinceMidnight: start.minutesSinceMidnight + minutes * $0 / (count - 1)) }
    }
}
