import DietBriefing
import DietCore
import Foundation
import Hummingbird
import ReadyDay

/// The ReadyDay morning briefing from the stored calendars and WHOOP copy.
extension WebApp {
    func addBriefing(to router: Router<WebContext>) {
        router.get("/briefing") { [self] _, context in
            let l = localizer(context)
            let whoopConnected = FileManager.default.fileExists(atPath: configuration.databasePath + ".whoop.json")
            let stored = try StoredBriefing.make(store: store, day: today, today: today, now: clock.now(), timeZone: timeZone,
                                                 whoopConnected: whoopConnected)
            return renderer.page("briefing", BriefingValues(stored, timeZone: timeZone, localizer: l).values,
                                 title: l.text("web.briefing.title"), tab: .briefing, context: context)
        }
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
