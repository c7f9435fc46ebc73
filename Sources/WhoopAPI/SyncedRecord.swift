import Foundation

/// One WHOOP record as a `whoop_records` sync row carries it: its kind, WHOOP's id for it, the
/// instant it is filed under and the v2 record as JSON text (the DTO's own keys, so a reader
/// decodes it back with `decodeRecovery` and the like).
///
/// `whoopID` is the cycle id for a recovery and a cycle (decimal), the UUID for a sleep and a
/// workout. `recordedAt` is a recovery's `created_at`, a sleep's and a workout's `end`, a
/// cycle's `start`.
public struct WhoopSyncedRecord: Sendable, Hashable {
    /// The four kinds of the row contract.
    public enum Kind {
        public static let recovery = "recovery"
        public static let sleep = "sleep"
        public static let cycle = "cycle"
        public static let workout = "workout"
    }

    public let kind: String
    public let whoopID: String
    public let recordedAt: Date
    public let json: String

    /// A record as read back from a row.
    public init(kind: String, whoopID: String, recordedAt: Date, json: String) {
        self.kind = kind
        self.whoopID = whoopID
        self.recordedAt = recordedAt
        self.json = json
    }

    public init(_ recovery: WhoopRecovery) throws {
        self.init(kind: Kind.recovery, whoopID: String(recovery.cycleID), recordedAt: recovery.createdAt, json: try Self.encode(recovery))
    }

    public init(_ sleep: WhoopSleep) throws {
        self.init(kind: Kind.sleep, whoopID: sleep.id, recordedAt: sleep.end, json: try Self.encode(sleep))
    }

    public init(_ cycle: WhoopCycle) throws {
        self.init(kind: Kind.cycle, whoopID: String(cycle.id), recordedAt: cycle.start, json: try Self.encode(cycle))
    }

    public init(_ workout: WhoopWorkout) throws {
        self.init(kind: Kind.workout, whoopID: workout.id, recordedAt: workout.end, json: try Self.encode(workout))
    }

    public static func decodeRecovery(_ json: String) throws -> WhoopRecovery { try decode(json) }
    public static func decodeSleep(_ json: String) throws -> WhoopSleep { try decode(json) }
    public static func decodeCycle(_ json: String) throws -> WhoopCycle { try decode(json) }
    public static func decodeWorkout(_ json: String) throws -> WhoopWorkout { try decode(json) }

    /// Sorted keys and millisecond ISO 8601 dates: the same record gives the same text on every
    /// side, and WHOOP's milliseconds survive the round trip.
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(instant(date))
        }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ`, rounded to the millisecond. The format style's fractional
    /// seconds truncate, so a parsed `.002` (a hair under it as a binary fraction) came out `.001`.
    static func instant(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        // Floor division, so an instant before 1970 keeps a fraction in 0...999.
        let fraction = (milliseconds % 1000 + 1000) % 1000
        let seconds = (milliseconds - fraction) / 1000
        let whole = Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(Date.ISO8601FormatStyle())
        let digits = String(fraction)
        return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    static func decode<T: Decodable>(_ json: String) throws -> T {
        try JSONDecoder.whoop.decode(T.self, from: Data(json.utf8))
    }
}
