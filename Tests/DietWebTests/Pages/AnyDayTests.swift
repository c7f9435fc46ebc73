import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

/// docs/rules.md §4: every day is reachable (issue 30: "the web app shows and logs today only:
/// /meals?date= is ignored, the log forms have no date").
@Suite("Any day: the diary of a past day, and logging into it")
struct AnyDayTests {
    /// Wednesday 2026-01-07, 08:00 UTC (09:00 in Berlin).
    static let now = Date(timeIntervalSince1970: 1_767_772_800)
    static let today = LocalDate.ymd(2026, 1, 7)
    static let yesterday = LocalDate.ymd(2026, 1, 6)

    @Test("yesterday's forgotten dinner: logged from yesterday's diary, at its moment's time, shown there and not today")
    func forgottenDinner() async throws {
        let harness = try WebHarness(now: Self.now)
        defer { harness.remove() }
        let l = Localizer(.de)
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            // Given yesterday's diary, reached from the dashboard's previous-day link
            let dashboard = try await browser.get("/")
            #expect(dashboard.body.contains("href=\"/?date=2026-01-06\""))
            let diary = try await browser.get("/?date=2026-01-06")
            #expect(diary.shows(l.text("web.day.yesterday")))
            #expect(diary.body.contains("href=\"/log?date=2026-01-06\""))
            // a past day has a next day, and no coach speaking of today
            #expect(diary.body.contains("rel=\"next\"") && !diary.body.contains("data-coach"))
            // When the dinner is logged from yesterday's log screen (a quick add, no time typed)
            let log = try await browser.get("/log?date=2026-01-06")
            #expect(log.body.components(separatedBy: "name=\"date\" value=\"2026-01-06\"").count - 1 >= 3)
            #expect(log.shows(l.text("web.log.forDay", ["day": .text("Gestern, " + l.date(Self.yesterday))])))
            let saved = try await browser.post("/log/manual", [("name", "Spaghetti"), ("kcal", "650"), ("moment", "3"), ("date", "2026-01-06")])
            // Then it goes to yesterday at the dinner moment's time, and the answer shows yesterday
            #expect(saved.location == "/?date=2026-01-06")
            let store = try harness.store()
            let meal = try #require(try store.meals(on: Self.yesterday).first)
            #expect(meal.entry.name == "Spaghetti" && meal.entry.localTime == TimeOfDay(hour: 18)!)
            #expect(try store.meals(on: Self.today).isEmpty)
            let after = try await browser.get("/?date=2026-01-06")
            #expect(after.shows("Spaghetti") && after.shows("650"))
            #expect(!(try await browser.get("/")).shows("Spaghetti"))
            // and the list of that day shows it, today's does not
            #expect(try await browser.get("/meals?date=2026-01-06").shows("Spaghetti"))
            #expect(!(try await browser.get("/meals")).shows("Spaghetti"))
        }
    }

    @Test("a food and a meal in words go to the shown day too; search results keep the day")
    func foodAndWords() async throws {
        let harness = try WebHarness(now: Self.now)
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            let store = try harness.store()
            let food = try #require(try store.searchFoods("Apfel", language: .de, timeZone: harness.timeZone, limit: 1).first).food
            let results = try await browser.get("/foods/search?q=Apfel&date=2026-01-05")
            #expect(results.body.contains("/log/food/\(food.id)?date=2026-01-05"))
            let portion = try await browser.get("/log/food/\(food.id)?date=2026-01-05")
            #expect(portion.body.contains("name=\"date\" value=\"2026-01-05\""))
            let saved = try await browser.post("/log/food/\(food.id)", [("amount", "150"), ("unit", "g"), ("date", "2026-01-05"), ("time", "10:15")])
            #expect(saved.location == "/?date=2026-01-05")
            #expect(try store.meals(on: .ymd(2026, 1, 5)).count == 1)
            // a meal in words: the confirm screen keeps the day, the save goes to it
            let confirm = try await browser.post("/log/text", [("text", "2 Eier"), ("date", "2026-01-06")])
            #expect(confirm.body.contains("name=\"date\" value=\"2026-01-06\""))
            let logged = try await browser.post(
                "/log/text",
                [("text", "2 Eier"), ("date", "2026-01-06"), ("confirm", "yes"), ("moment", "1")]
            )
            #expect(logged.location == "/?date=2026-01-06")
            #expect(try store.meals(on: Self.yesterday).count == 1)
        }
    }

    @Test("a date that is not one, or lies ahead, shows today; a future date in a form is refused")
    func oddDates() async throws {
        let harness = try WebHarness(now: Self.now)
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            for query in ["2026-13-45", "gestern", "2027-01-01", "<script>", ""] {
                let page = try await browser.get("/meals?date=\(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
                #expect(page.status == .ok && page.body.contains("value=\"2026-01-07\""), "\(query)")
                #expect(!page.body.contains("rel=\"next\"") && !page.body.contains("<script>"))
            }
            let refused = try await browser.post("/log/manual", [("kcal", "100"), ("date", "2026-01-09")])
            #expect(refused.status == .unprocessableContent)
            #expect(try harness.store().meals(on: .ymd(2026, 1, 9)).isEmpty)
        }
    }
}
