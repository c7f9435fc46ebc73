import DietCore
import DietStore
import Foundation
import ICalendar

/// Calendar addresses read more than an hour ago (by any device: the time of the last read
/// syncs) are read again by the device that shows the briefing: the web page in the
/// background, `wdiet briefing` before it answers. A changed text is a new version that syncs,
/// so the device that has the network refreshes for the others.
public enum StaleCalendars {
    /// How old an address's copy may be before the briefing reads it again.
    public static let maximumAge: TimeInterval = 3600

    /// One address that could not be read again: its copy stays.
    public struct Failure: Sendable {
        public let calendar: StoredCalendar
        /// Why, for the caller's own sentence (`CalendarSource.Failure.localized`).
        public let failure: CalendarSource.Failure
    }

    /// What a refresh did.
    public struct Outcome: Sendable {
        /// A stored text changed: a new version waits to sync.
        public var changed = false
        public var failures: [Failure] = []
    }

    /// The address calendars of `store` whose copy is older than `maximumAge` at `now`; none
    /// when `environment` says offline (`WDIET_OFFLINE`).
    public static func due(in store: AppDatabase, now: Date, environment: [String: String]) -> [StoredCalendar] {
        guard !OfflineSetting.isOffline(environment) else { return [] }
        let cutoff = now.addingTimeInterval(-maximumAge)
        return ((try? store.calendars()) ?? []).filter { $0.isURL && $0.fetchedAt < cutoff }
    }

    /// Reads `due` (from `due(in:now:)`) again, all at once, each within `timeLimit` (so a
    /// briefing waits at most that long, however many there are), and stores what came.
    public static func refresh(_ due: [StoredCalendar], in store: AppDatabase, timeLimit: Duration) async -> Outcome {
        let policy = CalendarSource.AddressPolicy(store: store)
        let texts = await withTaskGroup(of: (UUID, Result<String, CalendarSource.Failure>).self) { group in
            for calendar in due where calendar.isURL {
                group.addTask {
                    (calendar.id, await CalendarSource.fetch(address: calendar.location, policy: policy, limits: .init(timeLimit: timeLimit)))
                }
            }
            var texts: [UUID: Result<String, CalendarSource.Failure>] = [:]
            for await (id, text) in group { texts[id] = text }
            return texts
        }
        var outcome = Outcome()
        for calendar in due {
            switch texts[calendar.id] {
            case nil: continue
            case let .failure(failure):
                outcome.failures.append(Failure(calendar: calendar, failure: failure))
            case let .success(text):
                guard let document = try? ICalendarDocument(parsing: text) else {
                    outcome.failures.append(Failure(calendar: calendar, failure: CalendarSource.Failure("not a calendar any more")))
                    continue
                }
                do {
                    let refresh = try store.refreshCalendar(
                        calendar.id,
                        ics: text,
                        eventCount: document.events.count,
                        problemCount: document.problems.count
                    )
                    outcome.changed = outcome.changed || refresh == .changed
                } catch {
                    outcome.failures.append(Failure(calendar: calendar, failure: CalendarSource.Failure("it could not be stored")))
                }
            }
        }
        return outcome
    }
}

extension CalendarSource.AddressPolicy {
    /// The hosts of the user's own network that the device of `store` may fetch calendars
    /// from (its own setting, never synced); public hosts only when it cannot be read.
    public init(store: AppDatabase) {
        self.init(localHosts: (try? store.calendarLocalHosts()) ?? [])
    }
}
