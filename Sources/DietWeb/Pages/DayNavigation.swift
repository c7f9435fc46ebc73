import DietCore
import Foundation
import Hummingbird

/// The day a diary screen shows (docs/rules.md §4: every day is reachable): `?date=YYYY-MM-DD`
/// of a past day, else today. A date that is not one, or lies ahead, shows today.
struct ShownDay: Equatable {
    let date: LocalDate
    let today: LocalDate

    init(_ request: Request, today: LocalDate) {
        self.init(text: request.uri.queryParameters.get("date"), today: today)
    }

    init(text: String?, today: LocalDate) {
        self.today = today
        let asked = text.flatMap { LocalDate(iso: $0.trimmingCharacters(in: .whitespaces)) }
        date = asked.map { min($0, today) } ?? today
    }

    var isToday: Bool { date == today }

    /// "?date=2026-12-06" for a past day, "" for today: what a link keeps to stay on the day.
    var query: String { isToday ? "" : "?date=\(date.iso)" }

    /// "Heute", "Gestern", else "Mo., 30. Nov. 2026".
    func title(_ l: Localizer) -> String {
        switch today.dayNumber - date.dayNumber {
        case 0: l.text("web.day.today")
        case 1: l.text("web.day.yesterday")
        default: l.date(date)
        }
    }

    /// What a log form of a past day carries: its hidden `date`, the `?date=` its links keep and
    /// the line saying whose day it logs; nothing for today.
    func formValues(_ l: Localizer) -> [String: Any] {
        guard !isToday else { return [:] }
        return ["date": date.iso, "dateQuery": query, "forDay": l.text("web.log.forDay", ["day": .date(date)])]
    }

    /// The previous/next links and the date picker of `path` (`/` or `/meals`).
    func navigation(_ path: String, _ l: Localizer) -> [String: Any] {
        let previous = date.adding(days: -1)
        let next = date.adding(days: 1)
        var values: [String: Any] = [
            "action": path, "iso": date.iso, "todayIso": today.iso, "title": title(l),
            "spoken": l.text("web.day.shown", ["date": .date(date)]),
            "previousHref": path + "?date=\(previous.iso)",
            "previousLabel": l.text("web.day.previous", ["date": .date(previous)]),
        ]
        if !isToday {
            values["nextHref"] = next == today ? path : path + "?date=\(next.iso)"
            values["nextLabel"] = l.text("web.day.next", ["date": .date(next)])
            values["todayHref"] = path
        }
        return values
    }
}
