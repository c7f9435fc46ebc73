import DietCore
import DietStore
import Foundation
import ICalendar
import ReadyDay
import SyncProtocol
import WhoopAPI

/// The morning briefing of a day from what the device has stored: its calendars, its copy of
/// the WHOOP records and today's MATADOR phase. Every surface (CLI, web) shows this one value.
public struct StoredBriefing: Sendable {
    public let briefing: DayBriefing
    /// When the oldest calendar was last fetched, nil without calendars.
    public let calendarsUpdated: Date?
    /// When WHOOP data was last copied, nil if never.
    public let whoopUpdated: Date?
    /// Whether WHOOP counts as connected here: this device holds WHOOP tokens, holds synced
    /// WHOOP records (another device or the account's server connection fetched them), or the
    /// account said it is connected.
    public let whoopConnected: Bool
    /// A connection through the account was started or confirmed, but no record has arrived
    /// yet: a surface says it is waiting for WHOOP.
    public let whoopWaiting: Bool

    /// Where the WHOOP tokens of the store at `databasePath` are kept (owner-only).
    public static func whoopTokensPath(databasePath: String) -> String { databasePath + ".whoop.json" }

    /// Whether the briefing has neither WHOOP nor a calendar to work from: then a surface
    /// says that one thing and offers both connections.
    public var hasNoSources: Bool { briefing.events == nil && !whoopConnected }

    /// - Parameter databasePath: the store's file, beside which the WHOOP tokens and the
    ///   account's WHOOP mark live (without them and without synced records, the briefing
    ///   notes that WHOOP is not connected).
    public static func make(
        store: AppDatabase,
        databasePath: String,
        day: LocalDate,
        today: LocalDate,
        now: Date,
        timeZone: TimeZone
    ) throws -> StoredBriefing {
        let hasRecords = try store.whoopRecordCount() > 0
        // The account's word counts until a disconnect (here or elsewhere) tombstoned its records.
        let mark = try WhoopAccountMark.load(databasePath: databasePath).flatMap {
            try store.whoopRecordsDeleted(after: $0.startedAt) ? nil : $0
        }
        let whoopConnected =
            FileManager.default.fileExists(atPath: whoopTokensPath(databasePath: databasePath))
            || hasRecords || mark?.connected == true
        let calendars = try store.calendars()
        let events: [CalendarEvent]? = calendars.isEmpty ? nil : Self.events(on: day, calendars: calendars, timeZone: timeZone)
        let phase = day == today ? try store.today(timeZone: timeZone)?.report.cycle?.phase : nil
        // The newest recovery and night's sleep (naps skipped) up to the day's end.
        let dayEnd = day.adding(days: 1).instant(at: TimeOfDay(minutesSinceMidnight: 0), in: timeZone)
        // A record this version cannot read (a newer format, or pushed damaged) is skipped for
        // the next one: it must not blind the briefing.
        let recovery = try store.latestWhoopRecords(.recovery, notAfter: dayEnd, limit: 8)
            .lazy.compactMap { try? WhoopSyncedRecord.decodeRecovery($0) }.first?.domain
        let sleep = try store.latestWhoopRecords(.sleep, notAfter: dayEnd, limit: 8)
            .lazy.compactMap { try? WhoopSyncedRecord.decodeSleep($0) }.first { !$0.nap }?.domain
        let whoopUpdated = try store.whoopSyncedAt()
        var input = BriefingInput(
            date: day,
            timeZone: timeZone,
            now: now,
            recovery: recovery,
            sleep: sleep,
            events: events,
            phase: phase,
            whoopUpdatedAt: whoopUpdated,
            whoopConnected: whoopConnected
        )
        input.recoveryMode = try store.settings()?.recoveryMode ?? false
        return StoredBriefing(
            briefing: BriefingGenerator.generate(input),
            calendarsUpdated: calendars.map(\.fetchedAt).min(),
            whoopUpdated: whoopUpdated,
            whoopConnected: whoopConnected,
            whoopWaiting: !hasRecords && mark?.isWaiting(now: now) == true
        )
    }

    /// The day's occurrences of every stored calendar, as ReadyDay events.
    public static func events(on day: LocalDate, calendars: [StoredCalendar], timeZone: TimeZone) -> [CalendarEvent] {
        let start = day.instant(at: TimeOfDay(minutesSinceMidnight: 0), in: timeZone)
        let end = day.adding(days: 1).instant(at: TimeOfDay(minutesSinceMidnight: 0), in: timeZone)
        return calendars.flatMap { calendar -> [CalendarEvent] in
            guard let document = try? ICalendarDocument(parsing: calendar.ics) else { return [] }
            return document.occurrences(in: DateInterval(start: start, end: end), floatingZone: timeZone).map { occurrence in
                CalendarEvent(
                    title: occurrence.summary,
                    start: occurrence.start,
                    end: occurrence.end,
                    attendeeCount: occurrence.attendees.filter(\.isPerson).count,
                    blocksTime: occurrence.blocksTime,
                    isAllDay: occurrence.isAllDay
                )
            }
        }.sorted { ($0.start, $0.title) < ($1.start, $1.title) }
    }
}

extension AppDatabase {
    /// Parses `ics` and keeps it for the briefing (the raw text, so a better parser later
    /// reads old calendars better too). Throws `ICalendarError` for text that is no calendar;
    /// then nothing is stored. Damaged parts are skipped and counted. `localPath`: the file
    /// it was read from on this device (the only path ever read again), nil for an upload.
    @discardableResult
    public func addCalendar(
        name: String,
        location: String,
        isURL: Bool,
        localPath: String? = nil,
        ics: String
    ) throws -> (StoredCalendar, ICalendarDocument) {
        let document = try ICalendarDocument(parsing: ics)
        let calendar = try addCalendar(
            name: name,
            location: location,
            isURL: isURL,
            localPath: localPath,
            ics: ics,
            eventCount: document.events.count,
            problemCount: document.problems.count
        )
        return (calendar, document)
    }

    /// Replaces a calendar's text after a fetch. Throws `ICalendarError` when the text is no
    /// calendar any more; then the kept copy stays.
    @discardableResult
    public func refreshCalendar(_ id: UUID, ics: String) throws -> ICalendarDocument {
        let document = try ICalendarDocument(parsing: ics)
        try refreshCalendar(id, ics: ics, eventCount: document.events.count, problemCount: document.problems.count)
        return document
    }
}
