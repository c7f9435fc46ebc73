import Foundation

/// When something happens: a whole day, or a wall time that is UTC, floating (the viewer's
/// zone) or in a named zone.
public enum EventTime: Hashable, Sendable {
    case date(CivilDateTime)
    case utc(CivilDateTime)
    case floating(CivilDateTime)
    case zoned(CivilDateTime, ZoneID)

    public var civil: CivilDateTime {
        switch self {
        case let .date(value), let .utc(value), let .floating(value), let .zoned(value, _): value
        }
    }

    public var isDate: Bool {
        if case .date = self { return true }
        return false
    }
}

/// A zone an event time refers to: resolved once per calendar.
public struct ZoneID: Hashable, Sendable {
    /// The TZID as written in the file.
    public let tzid: String
}

public struct Attendee: Hashable, Sendable {
    public enum Participation: String, Sendable {
        case needsAction = "NEEDS-ACTION"
        case accepted = "ACCEPTED"
        case declined = "DECLINED"
        case tentative = "TENTATIVE"
        case delegated = "DELEGATED"
    }

    public let address: String
    public let name: String?
    public let participation: Participation
    /// INDIVIDUAL, GROUP, RESOURCE, ROOM or UNKNOWN.
    public let userType: String

    /// A room or a resource is not a person at the meeting.
    public var isPerson: Bool { userType != "ROOM" && userType != "RESOURCE" }
}

/// A VEVENT as written (before recurrence expansion).
public struct Event: Hashable, Sendable {
    public enum Status: String, Sendable {
        case tentative = "TENTATIVE"
        case confirmed = "CONFIRMED"
        case cancelled = "CANCELLED"
    }

    public var uid: String
    public var summary: String
    public var location: String?
    public var description: String?
    public var start: EventTime
    /// DTEND, or nil when the length comes from DURATION or the defaults.
    public var end: EventTime?
    /// DURATION in seconds.
    public var duration: Int?
    public var status: Status
    /// TRANSP:TRANSPARENT: the event does not block time.
    public var isTransparent: Bool
    public var attendees: [Attendee]
    public var organizer: String?
    /// Every valid RRULE (RFC 2445 allowed several, and peers still write them): the series
    /// is the union of their sets. A damaged RRULE is left out and reported.
    public var rules: [RecurrenceRule]
    public var extraDates: [EventTime]
    /// RDATE;VALUE=PERIOD values: the start of each period (as in `extraDates`) → its end.
    /// That occurrence lasts as long as its period, not as long as the event.
    public var periodEnds: [EventTime: PeriodEnd]
    public var exceptionDates: [EventTime]
    /// For an override of one occurrence: the start of the occurrence it replaces.
    public var recurrenceID: EventTime?
    /// RECURRENCE-ID;RANGE=THISANDFUTURE: the override also changes every later occurrence
    /// (the same shift of the start, its length and its other properties).
    public var isThisAndFuture: Bool
    public var sequence: Int
    /// DTSTAMP and LAST-MODIFIED (UTC wall times): of two copies of one event with the same
    /// SEQUENCE, the one changed later wins.
    public var stamp: CivilDateTime?
    public var lastModified: CivilDateTime?
    /// The line of BEGIN:VEVENT.
    public var line: Int

    /// The first RRULE; setting it replaces all of them.
    public var rule: RecurrenceRule? {
        get { rules.first }
        set { rules = newValue.map { [$0] } ?? [] }
    }

    public var isAllDay: Bool { start.isDate }

    /// Whether this copy replaces `other`, a copy of the same event or of the same override:
    /// the higher SEQUENCE, then the later LAST-MODIFIED (else DTSTAMP), then the later in the file.
    public func supersedes(_ other: Event) -> Bool {
        let changed = lastModified ?? stamp
        let otherChanged = other.lastModified ?? other.stamp
        if sequence != other.sequence { return sequence > other.sequence }
        switch (changed, otherChanged) {
        case let (mine?, theirs?) where mine != theirs: return mine > theirs
        case (_?, nil): return true
        case (nil, _?): return false
        default: return line > other.line
        }
    }
}

/// The end of an RDATE period: a time (`19960403T020000Z/19960403T040000Z`) or a length
/// (`19960404T010000Z/PT3H`).
public enum PeriodEnd: Hashable, Sendable {
    case end(EventTime)
    /// Seconds.
    case duration(Int)
}
