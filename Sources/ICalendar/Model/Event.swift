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
        case needsAction = "NEEDS-ACTION", accepted = "ACCEPTED", declined = "DECLINED", tentative = "TENTATIVE", delegated = "DELEGATED"
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
        case tentative = "TENTATIVE", confirmed = "CONFIRMED", cancelled = "CANCELLED"
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
    public var rule: RecurrenceRule?
    public var extraDates: [EventTime]
    public var exceptionDates: [EventTime]
    /// For an override of one occurrence: the start of the occurrence it replaces.
    public var recurrenceID: EventTime?
    public var sequence: Int
    /// The line of BEGIN:VEVENT.
    public var line: Int

    public var isAllDay: Bool { start.isDate }
}
