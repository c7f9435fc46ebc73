import Foundation

/// A hybrid logical clock timestamp `(wall ms, counter, device id)` (docs/architecture.md, "Sync").
///
/// Ordered by wall time, then counter, then device id, so two devices never produce equal
/// stamps and last-writer-wins has one answer everywhere. Its text form sorts like the value
/// (fixed-width fields), so databases can compare stamps as strings.
public struct HLC: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970 of the physical clock that produced (or last caught up with) it.
    public let wallMs: Int64
    /// Orders events within one millisecond.
    public let counter: Int
    /// The device that wrote the change; lower-case, no separators inside.
    public let deviceID: String

    public static let maxCounter = 0xFFFF

    public init(wallMs: Int64, counter: Int, deviceID: String) {
        self.wallMs = wallMs
        self.counter = counter
        self.deviceID = deviceID
    }

    public static func < (lhs: HLC, rhs: HLC) -> Bool {
        (lhs.wallMs, lhs.counter, lhs.deviceID) < (rhs.wallMs, rhs.counter, rhs.deviceID)
    }

    /// `0001763800000000-0000-<device>`: 16 decimal digits of ms, 4 hex digits of counter.
    public var description: String {
        let wall = String(wallMs)
        let counterHex = String(counter, radix: 16)
        return String(repeating: "0", count: max(0, 16 - wall.count)) + wall + "-"
            + String(repeating: "0", count: max(0, 4 - counterHex.count)) + counterHex + "-" + deviceID
    }

    /// Parses the text form; nil when it is not one.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 16, parts[1].count == 4, !parts[2].isEmpty,
            parts[0].allSatisfy(\.isASCII), let wall = Int64(parts[0]), wall >= 0,
            let counter = Int(parts[1], radix: 16), counter >= 0,
            parts[2].allSatisfy({ $0.isLetter || $0.isNumber })
        else { return nil }
        self.init(wallMs: wall, counter: counter, deviceID: String(parts[2]))
    }
}

extension HLC: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = HLC(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a hybrid logical clock stamp: \(text)")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// The clock a device keeps: monotonic across restarts (persist `last`) and immune to a
/// physical clock that jumps back or lags another device's.
public struct HybridLogicalClock: Hashable, Sendable {
    public let deviceID: String
    /// The newest stamp issued or seen; persist it after each use.
    public private(set) var last: HLC

    /// - Parameter last: the stamp persisted by the previous run, if any.
    public init(deviceID: String, last: HLC? = nil) {
        self.deviceID = deviceID
        self.last = last ?? HLC(wallMs: 0, counter: 0, deviceID: deviceID)
    }

    /// A stamp for a local change at physical time `now`; always greater than every stamp
    /// issued or received before.
    public mutating func tick(now: Date) -> HLC {
        advance(physical: Self.milliseconds(now), seen: nil)
    }

    /// Takes a remote stamp into account, so later local stamps sort after it.
    @discardableResult
    public mutating func receive(_ remote: HLC, now: Date) -> HLC {
        advance(physical: Self.milliseconds(now), seen: remote)
    }

    private mutating func advance(physical: Int64, seen remote: HLC?) -> HLC {
        let wall = max(physical, last.wallMs, remote?.wallMs ?? 0)
        var counter = 0
        if wall == last.wallMs { counter = max(counter, last.counter + 1) }
        if let remote, wall == remote.wallMs { counter = max(counter, remote.counter + 1) }
        // A counter overflow borrows the next millisecond instead of wrapping.
        let stamp =
            counter > HLC.maxCounter
            ? HLC(wallMs: wall + 1, counter: 0, deviceID: deviceID)
            : HLC(wallMs: wall, counter: counter, deviceID: deviceID)
        last = stamp
        return stamp
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
