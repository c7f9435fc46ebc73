import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

/// docs/rules.md §4 (issue 30: "Copy yesterday at 07:20 also logged lunch and dinner at future
/// times (893 kcal), with no choice and no undo").
@Suite("Copy a day: the meals chosen, none ahead of now unasked, one Undo")
struct CopyMealsTests {
    /// Tuesday 2026-01-06, 06:20 UTC: 07:20 in Berlin.
    static let now = Date(timeIntervalSince1970: 1_767_680_400)
    static let today = LocalDate.ymd(2026, 1, 6)
    static let yesterday = LocalDate.ymd(2026, 1, 5)

    /// A German user at 07:20 whose yesterday had breakfast (07:00), lunch (12:00) and dinner (19:00).
    func withYesterday(_ body: @Sendable (Browser, AppDatabase, [UUID]) async throws -> Void) async throws {
        let harness = try WebHarness(now: Self.now)
        defer { harness.remove() }
        let zone = harness.timeZone
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            let store = try harness.store()
            let ids = try [("Müsli", 7, 300), ("Linsensuppe", 12, 520), ("Nudeln", 19, 373)].map { name, hour, kcal in
                try store.logMeal(
                    try MealEntry(name: name, kcal: kcal, at: Self.yesterday.instant(at: TimeOfDay(hour: hour)!, in: zone), in: zone)
                ).id
            }
            try await body(browser, store, ids)
        }
    }

    @Test("at 07:20 copying yesterday offers all three meals, only breakfast ticked; lunch and dinner come only when ticked")
    func choose() async throws {
        try await withYesterday { browser, store, ids in
            let page = try await browser.get("/log/copy")
            #expect(page.status == .ok && page.shows("Müsli") && page.shows("Linsensuppe") && page.shows("Nudeln"))
            #expect(page.body.contains("value=\"\(ids[0].uuidString)\" checked"))
            #expect(!page.body.contains("value=\"\(ids[1].uuidString)\" checked") && !page.body.contains("value=\"\(ids[2].uuidString)\" checked"))
            #expect(page.shows(Localizer(.de).text("web.copy.later")))
            // the ticks as offered: breakfast only, at its time
            let copied = try await browser.post("/log/copy-day", [("from", Self.yesterday.iso), ("picking", "yes"), ("meal", ids[0].uuidString)])
            #expect(copied.location == "/")
            #expect(try store.meals(on: Self.today).map(\.entry.name) == ["Müsli"])
            // nothing ticked: said so, nothing copied
            let none = try await browser.post("/log/copy-day", [("from", Self.yesterday.iso), ("picking", "yes")])
            #expect(none.status == .unprocessableContent && none.shows(Localizer(.de).text("web.copy.nothingChosen")))
            #expect(try store.meals(on: Self.today).count == 1)
        }
    }

    @Test("one Undo removes the whole copy, and the toast offers it")
    func undo() async throws {
        try await withYesterday { browser, store, ids in
            let copied = try await browser.post(
                "/log/copy-day",
                [("from", Self.yesterday.iso), ("picking", "yes"), ("meal", ids[0].uuidString), ("meal", ids[2].uuidString)]
            )
            #expect(try store.meals(on: Self.today).map(\.entry.name) == ["Müsli", "Nudeln"], "\(copied.status) \(copied.body.prefix(3000))")
            let dashboard = try await browser.get(try #require(copied.location))
            let action = try #require(
                dashboard.body.components(separatedBy: "action=\"/log/copy/").dropFirst().first?.components(separatedBy: "\"").first
            )
            #expect(action.hasSuffix("/undo"))
            let undone = try await browser.post("/log/copy/" + action)
            #expect(undone.status == .seeOther)
            #expect(try store.meals(on: Self.today).isEmpty)
            // yesterday is untouched
            #expect(try store.meals(on: Self.yesterday).count == 3)
        }
    }

    @Test("a copy goes into the day the log screen shows, from the day before it")
    func intoPastDay() async throws {
        try await withYesterday { browser, _, _ in
            // into yesterday from the day before it: empty there
            let empty = try await browser.get("/log/copy?date=2026-01-05")
            #expect(empty.shows(Localizer(.de).text("web.copy.none", ["date": .date(.ymd(2026, 1, 4))])))
            // into the 7th... no: a day ahead is today; into yesterday from today's empty day is refused as the same day
            let refused = try await browser.post("/log/copy-day", [("from", "2026-01-05"), ("date", "2026-01-05")])
            #expect(refused.status == .unprocessableContent)
        }
    }
}
