import DietCore
import DietStore
import Foundation
import Hummingbird
import Testing

/// Offline-first (issue 16): the service worker's script, and the logging routes' `client_id`
/// and `logged_at`, which let a phone save what it kept offline exactly once and on its day.
/// The harness's clock: Monday 2026-01-05, 09:00 in Berlin.
@Suite("Offline-first: service worker and replayed entries")
struct OfflineTests {
    private static let today = LocalDate.ymd(2026, 1, 5)

    @Test("/sw.js is served as JavaScript, never cached without asking, with the asset version of the page's links")
    func serviceWorkerScript() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            // Given an onboarded app and its dashboard's asset links
            try await browser.onboard()
            let version = try #require(try await browser.get("/").first(#"app\.css\?v=([0-9a-z]+)""#))
            // When the worker's script is fetched
            let script = try await browser.get("/sw.js")
            // Then it is the worker, with this version on its first line, and no-cache
            #expect(script.status == .ok)
            #expect(script.headers[.contentType]?.hasPrefix("text/javascript") == true)
            #expect(script.headers[.cacheControl] == "no-cache")
            #expect(script.body.hasPrefix("const VERSION = \"\(version)\";\n"))
            #expect(script.body.contains("\"app.css\"") && script.body.contains("addEventListener(\"fetch\""))
        }
    }

    @Test("a meal posted twice with the same client_id is one meal with that id (quick add, a food's portion, log again)")
    func sameClientIDOnce() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let (quick, portion, again) = (UUID(), UUID(), UUID())
        try await harness.run { browser in
            try await browser.onboard()
            // Given each logging form sent twice with its client id (the first answer lost)
            for _ in 0..<2 {
                let first = try await browser.post("/log/manual", [("kcal", "300"), ("client_id", quick.uuidString)])
                #expect(first.status == .seeOther)
                let second = try await browser.post("/log/food/5062", [("amount", "150"), ("unit", "g"), ("client_id", portion.uuidString)])
                #expect(second.status == .seeOther)
                let third = try await browser.post("/meals/\(quick.uuidString)/again", [("client_id", again.uuidString)])
                #expect(third.status == .seeOther)
            }
        }
        // Then each is one meal, under the client's id
        let meals = try harness.store().meals(on: Self.today)
        #expect(Set(meals.map(\.id)) == [quick, portion, again])
    }

    @Test("a confirmed meal in words sent twice with one client_id is saved once, its first item under that id")
    func mealInWordsOnce() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let id = UUID()
        try await harness.run { browser in
            try await browser.onboard()
            // Given the confirmed meal in words kept offline, replayed after a lost answer
            for _ in 0..<2 {
                let saved = try await browser.post(
                    "/log/text",
                    [
                        ("text", "2 eggs and a slice of toast"), ("confirm", "yes"),
                        ("client_id", id.uuidString), ("logged_at", "2026-01-05T08:30"),
                    ]
                )
                #expect(saved.status == .seeOther)
            }
        }
        // Then its two items are there once, at the moment logged
        let meals = try harness.store().meals(on: Self.today)
        #expect(meals.count == 2)
        #expect(meals.map(\.id).contains(id))
        #expect(Set(meals.map(\.entry.localTime.formatted)) == ["08:30"])
    }

    @Test("replaying the client_id of a meal deleted since answers like a success and does not bring it back")
    func deletedNotResurrected() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let id = UUID()
        try await harness.run { browser in
            // Given a meal logged with a client id, then deleted
            try await browser.onboard()
            try await browser.post("/log/manual", [("kcal", "300"), ("client_id", id.uuidString)])
            #expect(try await browser.post("/meals/\(id.uuidString)/delete").status == .seeOther)
            // When the phone replays it
            let replay = try await browser.post("/log/manual", [("kcal", "300"), ("client_id", id.uuidString)])
            // Then the answer is a success and the meal stays deleted
            #expect(replay.status == .seeOther)
        }
        #expect(try harness.store().meals(on: Self.today).isEmpty)
    }

    @Test(
        "a bad client_id, or logged_at in the future, too old or malformed, is refused naming the field, and nothing is saved",
        arguments: [
            ("client_id", "not-a-uuid", "client_id"), ("logged_at", "2026-01-05T10:00", "logged_at"),
            ("logged_at", "2025-12-28T09:00", "logged_at"), ("logged_at", "yesterday", "logged_at"),
            ("logged_at", "2026-01-05T25:00", "logged_at"),
        ]
    )
    func refused(field: String, value: String, named: String) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            // When a meal and a weight arrive with the bad field
            let meal = try await browser.post("/log/manual", [("kcal", "300"), (field, value)])
            let weight = try await browser.post("/weight", [("weight", "70,5"), (field, value)])
            // Then both are refused with the field named and the value quoted
            for page in [meal, weight] {
                #expect(page.status == .unprocessableContent)
                #expect(page.body.contains(named) && page.shows(value), "\(page.body.prefix(300))")
            }
        }
        // And nothing was saved
        let store = try harness.store()
        #expect(try store.meals(on: Self.today).isEmpty)
        #expect(try store.weights(from: Self.today.adding(days: -10), through: Self.today).map(\.kg) == [70], "only onboarding's weigh-in")
    }

    @Test("logged_at within a few minutes of clock skew ahead is accepted")
    func skewAccepted() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            #expect(try await browser.post("/log/manual", [("kcal", "300"), ("logged_at", "2026-01-05T09:05:30")]).status == .seeOther)
        }
        #expect(try harness.store().meals(on: Self.today).map(\.entry.localTime.formatted) == ["09:05"])
    }

    @Test("logged_at sets the meal's day and time; a time typed in the form keeps its time on that day")
    func loggedAtSetsDayAndTime() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            // Given meals kept offline yesterday evening, one with a time typed
            try await browser.post("/log/manual", [("kcal", "300"), ("logged_at", "2026-01-04T19:30:12")])
            try await browser.post("/log/food/5062", [("amount", "150"), ("unit", "g"), ("time", "18:45"), ("logged_at", "2026-01-04T19:31")])
        }
        // Then both are yesterday's, at the moment logged and at the typed time; none today
        let store = try harness.store()
        let yesterday = try store.meals(on: Self.today.adding(days: -1))
        #expect(yesterday.map(\.entry.localTime.formatted) == ["18:45", "19:30"])
        #expect(try store.meals(on: Self.today).isEmpty)
    }

    @Test("the weight of an offline day lands on that day, and an older one does not replace a newer one of its day")
    func weightOnItsDay() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            // Given a weight kept offline yesterday, and today's logged now online
            #expect(try await browser.post("/weight", [("weight", "71,4"), ("logged_at", "2026-01-04T07:10")]).status == .seeOther)
            try await browser.post("/weight", [("weight", "71,0")])
            // When an earlier weight of today kept offline arrives after it
            #expect(try await browser.post("/weight", [("weight", "73,0"), ("logged_at", "2026-01-05T07:00")]).status == .seeOther)
        }
        // Then yesterday has its weight and today keeps the one logged later
        let weights = try harness.store().weights(from: Self.today.adding(days: -1), through: Self.today)
        #expect(weights.map(\.date) == [Self.today.adding(days: -1), Self.today])
        #expect(weights.map(\.kg) == [71.4, 71.0])
    }
}
