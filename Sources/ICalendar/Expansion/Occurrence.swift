import Foundation

/// One concrete happening of an event, in absolute time.
public struct Occurrence: Hashable, Sendable {
    public let uid: String
    public let summary: String
    public let location: String?
    public let start: Date
    public let end: Date
    public let isAllDay: Bool
    public let status: Event.Status
    public let isTransparent: Bool
    public let attendees: [Attendee]
    public let organizer: String?
    /// The original start of this occurrence in its series (nil for a single event).
    public let recurrenceStart: Date?

    /// Cancelled and free (transparent) events do not take up time.
    public var blocksTime: Bool { status != .cancelled && !isTransparent }

    public var duration: TimeInterval { end.timeIntervalSince(start) }
}
