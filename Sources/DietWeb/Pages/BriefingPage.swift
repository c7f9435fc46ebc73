import DietBriefing
import DietCore
import DietStore
import ICalendar
import Foundation
import Hummingbird
import ReadyDay

/// The ReadyDay morning briefing from the stored calendars and WHOOP copy.
extension WebApp {
    func addBriefing(to router: Router<WebContext>) {
        router.get("/briefing") { [self] _, context in
            try briefingPage(error: nil, context: context)
        }
        // a calendar from an uploaded .ics file or an address, kept on the device
        router.post("/briefing/calendars") { [self] _, context in
            let l = localizer(context)
            let form = context.form
            let text: String, location: String, name: String, isURL: Bool
            if let file = form.file("file"), !file.data.isEmpty {
                switch CalendarSource.text(file.data) {
                case .success(let value): text = value
                case .failure(let failure):
                    return try briefingPage(error: l.text("cli.calendar.error.read", ["location": .text(file.filename), "reason": .text(failure.description)]),
                                            context: context, status: .unprocessableContent)
                }
                (location, isURL) = (file.filename, false)
                name = form["name"] ?? URL(fileURLWithPath: file.filename).deletingPathExtension().lastPathComponent
            } else if let address = form["url"] {
                guard CalendarSource.isURL(address), URL(string: address)?.host != nil else {
                    return try briefingPage(error: l.text("web.calendar.badURL", ["value": .text(address)]), context: context,
                                            status: .unprocessableContent, typedURL: address)
                }
                switch await CalendarSource.read(address) {
                case .success(let value): text = value
                case .failure(let failure):
                    return try briefingPage(error: l.text("cli.calendar.error.read", ["location": .text(address), "reason": .text(failure.description)]),
                                            context: context, status: .unprocessableContent, typedURL: address)
                }
                (location, isURL) = (address, true)
                name = form["name"] ?? URL(string: address)?.host ?? address
            } else {
                return try briefingPage(error: l.text("web.calendar.nothing"), context: context, status: .unprocessableContent)
            }
            do {
                try store.addCalendar(name: String(name.prefix(80)), location: location, isURL: isURL, ics: text)
            } catch let error as ICalendarError {
                return try briefingPage(error: l.text("cli.calendar.error.invalid", ["location": .text(location), "reason": .text(error.description)]),
                                        context: context, status: .unprocessableContent, typedURL: isURL ? location : nil)
            }
            return redirect("/briefing", toast: .calendarAdded)
        }
        router.post("/briefing/calendars/:id/remove") { [self] _, context in
            guard let id = context.parameters.get("id"), UUID(uuidString: id) != nil else {
                throw HTTPError(.notFound, message: localizer(context).text("web.error.notFound"))
            }
            do {
                _ = try store.removeCalendar(idPrefix: id)
            } catch let error as StoreError {
                throw HTTPError(.notFound, message: error.message(localizer(context)))
            }
            return redirect("/briefing", toast: .calendarRemoved)
        }
    }

    private func briefingPage(error: String?, context: WebContext, status: HTTPResponse.Status = .ok, typedURL: String? = nil) throws -> Response {
        let l = localizer(context)
        let whoopConnected = FileManager.default.fileExists(atPath: configuration.databasePath + ".whoop.json")
        let stored = try StoredBriefing.make(store: store, day: today, today: today, now: clock.now(), timeZone: timeZone,
                                             whoopConnected: whoopConnected)
        var values = BriefingValues(stored, timeZone: timeZone, localizer: l).values
        values["calendars"] = try store.calendars().map { calendar -> [String: Any] in
            ["id": calendar.id.uuidString, "name": calendar.name,
             "detail": l.text(calendar.eventCount == 1 ? "web.calendar.detail.one" : "web.calendar.detail.other", [
                "events": .integer(calendar.eventCount), "date": .date(LocalDate(calendar.fetchedAt, in: timeZone)),
             ]) + (calendar.problemCount > 0 ? " · " + l.text("cli.calendar.problems", ["count": .integer(calendar.problemCount)]) : ""),
             "remove": l.text("web.calendar.remove", ["name": .text(calendar.name)])]
        }
        if let error { values["calendarError"] = error }
        values["typedURL"] = typedURL ?? ""
        return renderer.page("briefing", values, title: l.text("web.briefing.title"), tab: .briefing, context: context, status: status)
    }
}

struct BriefingValues {
    let values: [String: Any]

    init(_ stored: StoredBriefing, timeZone: TimeZone, localizer l: Localizer) {
        let briefing = stored.briefing
        func time(_ date: Date) -> String { TimeOfDay(date, in: timeZone).formatted }
        var values: [String: Any] = ["date": l.date(briefing.date), "zone": briefing.zone.rawValue,
                                     "zoneName": l.text("cli.briefing.zone.\(briefing.zone.rawValue)")]
        if let score = briefing.recovery?.score {
            values["recovery"] = l.text("cli.briefing.recovery", ["score": .integer(score), "zone": .text(l.text("cli.briefing.zone.\(briefing.zone.rawValue)"))])
        }
        if let sleep = briefing.sleep {
            values["sleep"] = sleep.need.map {
                l.text("cli.briefing.sleepNeed", ["hours": .decimal(sleep.hours, digits: 1), "need": .decimal($0 / 3600, digits: 1)])
            } ?? l.text("cli.briefing.sleep", ["hours": .decimal(sleep.hours, digits: 1)])
        }
        if let events = briefing.events {
            values["calendar"] = [
                "summary": events.isEmpty ? l.text("cli.briefing.free")
                    : l.text(events.count == 1 ? "cli.briefing.day.one" : "cli.briefing.day",
                             ["count": .integer(events.count), "load": .integer(Int((briefing.load ?? 0).rounded()))]),
                "events": events.map { item -> [String: Any] in
                    ["when": item.event.isAllDay ? l.text("cli.briefing.allDay") : "\(time(item.event.start))–\(time(item.event.end))",
                     "title": item.event.title, "demand": item.demand.rawValue,
                     "tag": item.event.blocksTime ? l.text("cli.briefing.demand.\(item.demand.rawValue)") : l.text("cli.briefing.free.note")]
                },
            ] as [String: Any]
        }
        values["recommendations"] = briefing.recommendations.map { ["title": l.render($0.title), "body": l.render($0.body)] }
        values["windows"] = briefing.workoutWindows.map {
            "\(time($0.start))–\(time($0.end)) (\(l.text("cli.briefing.intensity.\($0.intensity.rawValue)")))"
        }
        if let nutrition = briefing.nutrition { values["nutrition"] = l.render(nutrition.message) }
        values["alerts"] = briefing.alerts.map { l.text("cli.briefing.alert", ["time": .text(time($0.alertAt))]) + ": " + l.render($0.message) }
        var notes = briefing.notes.map(l.render)
        if let updated = stored.whoopUpdated {
            notes.append(l.text("cli.briefing.whoopUpdated", ["date": .date(LocalDate(updated, in: timeZone)), "time": .time(TimeOfDay(updated, in: timeZone))]))
        }
        if let updated = stored.calendarsUpdated {
            notes.append(l.text("cli.briefing.calendarsUpdated", ["date": .date(LocalDate(updated, in: timeZone)), "time": .time(TimeOfDay(updated, in: timeZone))]))
        }
        values["notes"] = notes
        self.values = values
    }
}
