import DietCore
import DietStore
import Foundation
import TestSupport
import Testing

@testable import DietWeb

/// Issue 17: badges and points in the browser, and the triple roar where a badge is earned.
@Suite("Badges in the browser")
struct BadgesRouteTests {
    static func today(_ harness: WebHarness) -> LocalDate { LocalDate(WebHarness.now, in: harness.timeZone) }

    /// A meal at noon on each of the six days before today: the next active day completes a
    /// 7-day streak.
    static func seedSixDays(_ harness: WebHarness) throws {
        let store = try harness.store()
        for offset in 1...6 {
            let instant = today(harness).adding(days: -offset).instant(at: TimeOfDay(hour: 12)!, in: harness.timeZone)
            _ = try store.logMeal(try MealEntry(name: "Soup", kcal: 300, at: instant, in: harness.timeZone))
        }
    }

    /// 49 meals on seven earlier days, never two days in a row (no streak badge): one meal
    /// short of the milestone badge.
    static func seedMeals(_ harness: WebHarness, count: Int = 49) throws {
        let store = try harness.store()
        for index in 0..<count {
            let day = today(harness).adding(days: -2 * (1 + index / 7))
            let instant = day.instant(at: TimeOfDay(hour: 12)!, in: harness.timeZone)
            _ = try store.logMeal(
                try MealEntry(
                    name: "Soup",
                    kcal: 300,
                    proteinG: 10,
                    carbsG: 30,
                    fatG: 5,
                    at: instant,
                    in: harness.timeZone
                )
            )
        }
    }

    @Test("the 50th meal shows the triple roar and the new badge once; the badges page shows its medal", arguments: Language.allCases)
    func milestone(language: Language) async throws {
        // Given 49 meals logged
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(language)
        try await harness.run { browser in
            try await browser.onboard(language: language)
            try Self.seedMeals(harness)
            // When the 50th is logged
            let saved = try await browser.post("/log/manual", [("name", "Soup"), ("kcal", "300")])
            #expect(saved.status == .seeOther && saved.location == "/")
            // Then the flash names the badge and the triple roar
            let flash = saved.headers[values: .setCookie].first { $0.hasPrefix("wdiet_flash=") }
            #expect(flash?.hasPrefix("wdiet_flash=badge_earned.3.milestone-bronze;") == true)
            // and the dashboard roars three times and names the badge
            let dashboard = try await browser.get("/")
            #expect(dashboard.body.contains("data-roar=\"3\""))
            #expect(dashboard.shows(l.render(Badge(.milestone, .bronze).unlockedMessage)))
            // and the next meal roars as usual, without a badge
            try await browser.post("/log/manual", [("name", "Tea"), ("kcal", "20")])
            let next = try await browser.get("/")
            #expect(!next.body.contains("data-roar=\"3\""))
            #expect(!next.shows(l.text("web.toast.badge_earned")))
            // and the badges page shows the bronze medal, the next one with its bar, the points
            let page = try await browser.get("/badges")
            #expect(page.status == .ok)
            #expect(page.body.contains("class=\"medal medal-bronze\" data-badge=\"milestone-bronze\""))
            #expect(page.shows(l.render(Badge(.milestone, .bronze).nameMessage)))
            #expect(page.body.contains("<progress class=\"next-bar\" value=\"51.0\" max=\"200.0\""))
            #expect(page.shows(l.render(Badge(.milestone, .silver).nameMessage)))
            #expect(page.shows(l.text("points.decayRule")))
            // today: 10 for the meals, 2 for using the app, nothing decayed
            let today = Self.today(harness).iso
            let meals = l.text("points.earnedItem", ["reason": .message(PointsLedger.Reason.mealLogged.message), "points": .integer(10)])
            #expect(
                page.body.contains(
                    "<tr data-date=\"\(today)\"><td class=\"points-date\">\(l.date(Self.today(harness)))</td><td><span class=\"points-item\">\(escaped(meals))</span>"
                )
            )
            #expect(page.body.contains("href=\"/badges\" aria-current=\"page\""))
            #expect(!page.body.contains("[[missing"))
        }
        // and the badge is stored, announced
        #expect(try harness.store().rewards(timeZone: harness.timeZone).earned.map(\.badge) == [Badge(.milestone, .bronze)])
    }

    @Test("the weight that completes a 7-day streak earns the badge with the triple roar")
    func weightBadge() async throws {
        // Given meals on the six days before today
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try Self.seedSixDays(harness)
            // When today's weight is saved
            let saved = try await browser.post("/weight", [("weight", "70.0")])
            #expect(saved.status == .seeOther)
            // Then the dashboard roars three times with the new badge
            let dashboard = try await browser.get("/")
            #expect(dashboard.body.contains("data-roar=\"3\""))
            #expect(dashboard.shows(Localizer(.en).render(Badge(.streak, .bronze).unlockedMessage)))
            // and a second weight today says only that it was logged
            try await browser.post("/weight", [("weight", "69.8")])
            #expect(try await browser.get("/").shows(Localizer(.en).text("web.toast.weight_saved")))
        }
        #expect(try harness.store().rewards(timeZone: harness.timeZone).earned.map(\.badge) == [Badge(.streak, .bronze)])
    }

    @Test("copying yesterday that completes a 7-day streak earns the badge with the triple roar")
    func copyDayBadge() async throws {
        // Given meals on the six days before today
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try Self.seedSixDays(harness)
            // When yesterday is copied to today, its meals ticked (they are later in the day than now)
            let yesterday = LocalDate(WebHarness.now, in: harness.timeZone).adding(days: -1)
            let ids = try harness.store().meals(on: yesterday).map { ("meal", $0.id.uuidString) }
            let copied = try await browser.post("/log/copy-day", [("from", ""), ("picking", "yes")] + ids)
            #expect(copied.status == .seeOther && copied.location == "/")
            // Then the dashboard roars three times and names the badge
            let dashboard = try await browser.get("/")
            #expect(dashboard.body.contains("data-roar=\"3\""))
            #expect(dashboard.shows(Localizer(.en).render(Badge(.streak, .bronze).unlockedMessage)))
        }
    }

    @Test("the badge flash names each badge, is read back in the user's language, and old readers still find toast and roar")
    func flashFormat() throws {
        let badges = [Badge(.milestone, .bronze), Badge(.weightProgress, .silver)]
        let flash = "badge_earned.3." + WebApp.badgeFlash(badges)
        #expect(flash == "badge_earned.3.milestone-bronze+weight_progress-silver")
        #expect(WebApp.badgeToastText(flash: flash, Localizer(.en)) == "New badge: Bronze: 50 meals logged New badge: Silver: 5 % progress")
        #expect(WebApp.badgeToastText(flash: "badge_earned.3", Localizer(.en)) == nil)
        #expect(WebApp.badgeToastText(flash: "meal_saved.1", Localizer(.en)) == nil)
        #expect(WebApp.badges(fromFlash: "streak-bronze+nonsense+milestone-wood") == [Badge(.streak, .bronze)])
        // the layout's reader takes the first two parts: the toast and the roar
        let parts = flash.split(separator: ".")
        #expect(parts[0] == "badge_earned" && parts[1] == "3")
    }

    @Test("an empty history shows no medals, the first badges to earn and no points yet")
    func empty() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(.en)
        try await harness.run { browser in
            try await browser.onboard()
            let page = try await browser.get("/badges")
            #expect(page.shows(l.text("badges.none")))
            #expect(!page.body.contains("class=\"medal "))
            #expect(page.shows(l.render(Badge(.streak, .bronze).nameMessage)))
            #expect(page.shows(l.render(Badge(.adherence, .bronze).nameMessage)))
            #expect(!page.body.contains("[[missing"))
        }
    }

    @Test("in recovery mode the page rests: no points, counts or thresholds, and no badge is announced")
    func recovery() async throws {
        // Given 49 meals and recovery mode on
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(.en)
        try await harness.run { browser in
            try await browser.onboard()
            try Self.seedMeals(harness)
            try harness.store().setRecoveryMode(true, timeZone: harness.timeZone)
            // When the 50th meal is logged, mindfully
            let saved = try await browser.post(
                "/log/text",
                [
                    ("mindful", "yes"), ("confirm", "yes"), ("name", "Soup"),
                    ("hunger", "2"), ("fullness", "4"),
                ]
            )
            #expect(saved.status == .seeOther)
            // Then no badge is announced
            let dashboard = try await browser.get("/")
            #expect(!dashboard.shows(l.text("web.toast.badge_earned")))
            #expect(!dashboard.body.contains("data-roar=\"3\""))
            // and the badges page says calmly that rewards rest, with no number of points or progress
            let page = try await browser.get("/badges")
            #expect(page.shows(l.text("badges.rest")))
            let main = try #require(page.body.components(separatedBy: "<main").last)
            #expect(!main.contains("<progress") && !main.contains("medal-bronze"))
            #expect(!main.contains("50") && !main.contains(l.text("web.badges.points")))
        }
        // and nothing was announced later either
        #expect(try harness.store().claimNewBadges(timeZone: harness.timeZone).isEmpty)
    }
}
