import DietBriefing
import DietCore
import DietStore
import ICalendar
import Foundation
import Hummingbird
import ReadyDay

/// The ReadyDay morning briefing from the stored calendars and WHOOP copy.
struct BriefingController: Controller {
    let app: WebApp

    func register(on router: Router<WebContext>) {
        router.get("/briefing") { _, context in try briefingPage(error: nil, context: context) }
        router.post("/briefing/calendars", use: addCalendar)
        router.post("/briefing/calendars/:id/remove", use: removeCalendar)
    }

    /// A calendar from an uploaded .ics file or an address, kept on the device.
    func addCalendar(_ request: Request, context: WebContext) async throws -> Response {
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

    func removeCalendar(_ request: Request, context: WebContext) async throws -> Response {
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

    private func briefingPage(error: String?, context: WebContext, status: HTTPResponse.Status = .ok, typedURL: String? = nil) throws -> Response {
        let l = localizer(context)
        let stored = try StoredBriefing.make(store: store, databasePath: configuration.databasePath, day: today, today: today,
                                             now: clock.now(), timeZone: timeZone)
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

/// The briefing's shared text as template values.
struct BriefingValues {
    let values: [String: Any]

    init(_ stored: StoredBriefing, timeZone: TimeZone, localizer l: Localizer) {
        let text = BriefingText(stored, timeZone: timeZone, localizer: l)
        let zone = stored.briefing.zone
        var values: [String: Any] = [
            "date": text.date, "zone": zone.rawValue, "zoneName": l.text("cli.briefing.zone.\(zone.rawValue)"),
            "recommendations": text.recommendations.map { ["title": $0.title, "body": $0.body] },
            "windows": text.windows, "alerts": text.alerts, "notes": text.notes,
        ]
        if let recovery = text.recovery { values["recovery"] = recovery }
        if let sleep = text.sleep { values["sleep"] = sleep }
        if let nutrition = text.nutrition { values["nutrition"] = nutrition }
        if let summary = text.calendarSummary {
            values["calendar"] = ["summary": summary, "events": text.events.map {
                ["when": $0.when, "title": $0.title, "demand": $0.demand.rawValue, "tag": $0.tag]
            }] as [String: Any]
        }
        self.values = values
    }
}
