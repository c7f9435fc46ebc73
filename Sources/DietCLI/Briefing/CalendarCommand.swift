import ArgumentParser
import DietBriefing
import DietCore
import DietStore
import Foundation
import ICalendar
import SyncProtocol

/// `wdiet calendar …`: the calendars the morning briefing reads.
struct CalendarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "Add, list, refresh or remove the calendars (.ics files or addresses) the briefing reads.",
        subcommands: [
            CalendarAddCommand.self, CalendarListCommand.self, CalendarRefreshCommand.self, CalendarRemoveCommand.self,
            CalendarLocalHostsCommand.self,
        ]
    )
}

/// Reads an .ics file or fetches an address for a command, a failure as the reason to show.
enum CalendarSourceReader {
    static func isURL(_ location: String) -> Bool { CalendarSource.isURL(location) }

    /// The file or address the user typed: an address within the store's host policy.
    static func read(_ location: String, store: AppDatabase) async -> Result<String, CalendarSource.Failure> {
        isURL(location)
            ? await CalendarSource.fetch(address: location, policy: CalendarSource.AddressPolicy(store: store))
            : CalendarSource.readFile(location)
    }

    /// A stored calendar again: an address, or the file this device added it from. A file
    /// calendar of another device is not read here (its path came with synced data).
    static func reread(_ calendar: StoredCalendar, store: AppDatabase) async -> Result<String, CalendarSource.Failure> {
        if calendar.isURL {
            return await CalendarSource.fetch(address: calendar.location, policy: CalendarSource.AddressPolicy(store: store))
        }
        guard let path = calendar.localPath else { return .failure(.otherDevice) }
        return CalendarSource.readFile(path)
    }
}

struct CalendarAddCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an .ics file or an http(s)/webcal address.")

    @Argument(help: "The .ics file or address.") var location: String
    @Option(help: "A name for the calendar (default: the file name or host).") var name: String?
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    struct Added: Encodable {
        let id: String
        let name: String
        let events: Int
        let problems: [String]
        /// Too long to sync: kept on this device only.
        let localOnly: Bool
    }

    func execute(_ context: CLIContext) async throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        let text: String
        switch await CalendarSourceReader.read(location, store: session.store) {
        case let .success(value): text = value
        case let .failure(error):
            throw CLIError(l.text("cli.calendar.error.read", ["location": .text(location), "reason": .text(error.localized(l))]))
        }
        let isURL = CalendarSourceReader.isURL(location)
        let stored = isURL ? location : URL(fileURLWithPath: location).standardizedFileURL.path
        let defaultName = isURL ? (URL(string: location)?.host ?? location) : URL(fileURLWithPath: location).deletingPathExtension().lastPathComponent
        let calendar: StoredCalendar
        let document: ICalendarDocument
        do {
            (calendar, document) = try session.run {
                try session.store.addCalendar(name: name ?? defaultName, location: stored, isURL: isURL, localPath: isURL ? nil : stored, ics: text)
            }
        } catch let error as ICalendarError {
            throw CLIError(l.text("cli.calendar.error.invalid", ["location": .text(location), "reason": .text(error.description)]))
        }
        if json {
            return try JSONOutput.encode(
                Added(
                    id: calendar.id.uuidString,
                    name: calendar.name,
                    events: document.events.count,
                    problems: document.problems.map(\.description),
                    localOnly: calendar.localOnly
                )
            )
        }
        var lines = [
            l.text(
                "cli.calendar.added",
                ["name": .text(calendar.name), "count": .integer(document.events.count)]
            )
        ]
        if !document.problems.isEmpty {
            lines.append(l.text("cli.calendar.problems", ["count": .integer(document.problems.count)]))
            lines += document.problems.prefix(10).map { "  \($0)" }
        }
        if calendar.localOnly {
            lines.append(l.text("cli.calendar.localOnly", ["name": .text(calendar.name), "limit": .integer(CalendarRow.maxICSCharacters)]))
        }
        return lines.joined(separator: "\n")
    }
}

struct CalendarListCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the calendars.")

    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    struct Item: Encodable {
        let id: String
        let name: String
        let location: String
        let events: Int
        let problems: Int
        let fetchedAt: Date
        let localOnly: Bool
    }

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let calendars = try session.run { try session.store.calendars() }
        let counts = try calendars.map { calendar in try session.run { try Self.counts(calendar, store: session.store) } }
        if json {
            return try JSONOutput.encode(
                zip(calendars, counts).map {
                    Item(
                        id: $0.id.uuidString,
                        name: $0.name,
                        location: $0.location,
                        events: $1.events,
                        problems: $1.problems,
                        fetchedAt: $0.fetchedAt,
                        localOnly: $0.localOnly
                    )
                }
            )
        }
        guard !calendars.isEmpty else { return session.localizer.text("cli.calendar.none") }
        let l = session.localizer
        let onlyHere = " · " + l.text("web.calendar.localOnly")
        return zip(calendars, counts).map { (calendar: StoredCalendar, counts: (events: Int, problems: Int)) -> String in
            let arguments: [String: Message.Argument] = [
                "id": .text(String(calendar.id.uuidString.lowercased().prefix(8))), "name": .text(calendar.name),
                "count": .integer(counts.events), "date": .date(LocalDate(calendar.fetchedAt, in: session.timeZone)),
                "time": .time(TimeOfDay(calendar.fetchedAt, in: session.timeZone)), "location": .text(calendar.location),
            ]
            let row = l.text("cli.calendar.row", arguments)
            return calendar.localOnly ? row + onlyHere : row
        }.joined(separator: "\n")
    }

    /// The calendar's counts; one that came from another device is counted here once.
    static func counts(_ calendar: StoredCalendar, store: AppDatabase) throws -> (events: Int, problems: Int) {
        if let events = calendar.eventCount, let problems = calendar.problemCount { return (events, problems) }
        guard let document = try? ICalendarDocument(parsing: calendar.ics) else { return (0, 0) }
        try store.setCalendarCounts(calendar.id, eventCount: document.events.count, problemCount: document.problems.count)
        return (document.events.count, document.problems.count)
    }
}

struct CalendarRefreshCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "refresh", abstract: "Fetch the calendars again (files and addresses).")

    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    struct Outcome: Encodable {
        let id: String
        let name: String
        /// The text was fetched and kept.
        let updated: Bool
        /// It differed from the stored one: a new version, synced to the other devices.
        let changed: Bool
        let message: String
    }

    func execute(_ context: CLIContext) async throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        let calendars = try session.run { try session.store.calendars() }
        guard !calendars.isEmpty else { return json ? "[]" : l.text("cli.calendar.none") }
        var outcomes: [Outcome] = []
        for calendar in calendars {
            let failed = { (reason: String) in
                l.text(
                    "cli.calendar.refreshFailed",
                    [
                        "name": .text(calendar.name), "reason": .text(reason),
                        "date": .date(LocalDate(calendar.fetchedAt, in: session.timeZone)),
                        "time": .time(TimeOfDay(calendar.fetchedAt, in: session.timeZone)),
                    ]
                )
            }
            let id = calendar.id.uuidString
            switch await CalendarSourceReader.reread(calendar, store: session.store) {
            case let .failure(error):
                outcomes.append(Outcome(id: id, name: calendar.name, updated: false, changed: false, message: failed(error.localized(l))))
            case let .success(text):
                guard let document = try? ICalendarDocument(parsing: text) else {
                    outcomes.append(Outcome(id: id, name: calendar.name, updated: false, changed: false, message: failed("not a calendar any more")))
                    continue
                }
                // a new version (synced to the other devices) only when the text changed
                let refresh = try session.run {
                    try session.store.refreshCalendar(
                        calendar.id,
                        ics: text,
                        eventCount: document.events.count,
                        problemCount: document.problems.count
                    )
                }
                let name: [String: Message.Argument] = ["name": .text(calendar.name), "count": .integer(document.events.count)]
                let message =
                    switch refresh {
                    case .changed: l.text("cli.calendar.refreshed", name)
                    case .unchanged: l.text("cli.calendar.unchanged", name)
                    case .localOnly: l.text("cli.calendar.refreshedLocal", name)
                    }
                outcomes.append(Outcome(id: id, name: calendar.name, updated: true, changed: refresh != .unchanged, message: message))
            }
        }
        return json ? try JSONOutput.encode(outcomes) : outcomes.map(\.message).joined(separator: "\n")
    }
}

struct CalendarRemoveCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a calendar by the id “calendar list” shows.")

    @Argument(help: "The calendar's id (its first 8 characters are enough).") var id: String
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let removed = try session.run { try session.store.removeCalendar(idPrefix: id) }
        if json { return try JSONOutput.encode(["removed": removed.id.uuidString]) }
        return session.localizer.text("cli.calendar.removed", ["name": .text(removed.name)])
    }
}

/// `wdiet calendar local-hosts`: the devices of the user's own network (or this machine) whose
/// calendar addresses may be read; every other address must be public. A setting of this
/// device alone: it never syncs.
struct CalendarLocalHostsCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "local-hosts",
        abstract: "Show or set the devices of your own network whose calendars may be read (host names or IP addresses)."
    )

    @Argument(help: "Host names or IP addresses; they replace the list.") var hosts: [String] = []
    @Flag(help: "Allow none: public addresses only.") var none = false
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        if none || !hosts.isEmpty {
            guard !(none && !hosts.isEmpty) else { throw CLIError(l.text("cli.calendar.hosts.both")) }
            switch CalendarSource.AddressPolicy.parse(hosts.joined(separator: " ")) {
            case .success(let parsed) where parsed.isEmpty && !none:
                // an empty argument is no way to clear the list: that is --none
                throw CLIError(l.text("cli.calendar.hosts.bad", ["value": .text("")]))
            case .success(let parsed): try session.run { try session.store.setCalendarLocalHosts(parsed) }
            case .failure(let problem): throw CLIError(l.text("cli.calendar.hosts.bad", ["value": .text(String(problem.entry.prefix(80)))]))
            }
        }
        let current = try session.run { try session.store.calendarLocalHosts() }
        if json { return try JSONOutput.encode(["localHosts": current]) }
        return current.isEmpty
            ? l.text("cli.calendar.hosts.none") : l.text("cli.calendar.hosts.list", ["hosts": .text(current.joined(separator: ", "))])
    }
}
