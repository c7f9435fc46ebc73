import DietCore
import DietStore
import DietWeb
import Foundation
import ServerTestSupport
import Testing
import WhoopTestSupport

/// What the briefing page says: one clear thing without sources, why each workout window was
/// chosen, and the nutrition emphasis in recovery mode.
@Suite("The briefing page", .serialized)
struct BriefingPageTests {
    /// 11:00–12:00 Berlin on the harness's day (2026-01-05).
    static let review = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//w-diet tests//EN\r
        BEGIN:VEVENT\r
        UID:review-1@w-diet.test\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20260105T100000Z\r
        DTEND:20260105T110000Z\r
        SUMMARY:Design review\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test("with neither WHOOP nor a calendar the page says one thing and offers both; a calendar brings the day back")
    func nothingConnected() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            // Given nothing connected
            let empty = try await browser.get("/briefing")
            // Then one clear sentence, and the two ways to connect
            #expect(empty.shows("Nothing to brief yet"))
            #expect(empty.shows("Connect WHOOP or add a calendar, and the briefing plans your day"))
            #expect(
                !empty.shows("Workout windows") && !empty.shows("Recommendations") && !empty.shows("No WHOOP connected")
                    && !empty.shows("No calendar added") && !empty.shows("No recovery data")
            )
            #expect(empty.body.contains("id=\"whoop\"") && empty.shows("this server needs a WHOOP developer account"))
            #expect(empty.body.contains("action=\"/briefing/calendars\"") && empty.shows("Add calendar"))
            #expect(empty.missingStrings.isEmpty, "\(empty.missingStrings)")
            // When a calendar is added
            let added = try await browser.upload("/briefing/calendars", file: Data(Self.review.utf8), filename: "work.ics")
            #expect(added.status == .seeOther)
            let day = try await browser.get("/briefing")
            #expect(!day.shows("Nothing to brief yet"))
            #expect(day.shows("Workout windows") && day.shows("Design review"))
        }
    }

    @Test("each workout window says why: the gap, the preparation, the preferred hours and the recovery behind the intensity")
    func windowReasons() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try await browser.upload("/briefing/calendars", file: Data(Self.review.utf8), filename: "work.ics")
            let page = try await browser.get("/briefing")
            // now is 09:00 in Berlin: the first window starts now, the second after the review and 30 minutes
            #expect(page.shows("09:00–11:00"))
            #expect(
                page.shows(
                    "the free time before “Design review”, from now on, in your preferred hours 06:00–21:00; moderate, as there is no recovery score today"
                )
            )
            #expect(page.shows("12:30–21:00"))
            #expect(
                page.shows(
                    "the free time after “Design review”, the longest of the day, after your 30-minute preparation, in your preferred hours 06:00–21:00"
                )
            )
        }
    }

    @Test("recovery mode: the nutrition emphasis has no deficit, target or protein goal; WHOOP's recovery still shows")
    func recoveryMode() async throws {
        let fake = FakeWhoop(recoveryCount: 3, base: WebHarness.now.addingTimeInterval(-3600))
        try await FakeWhoop.serve(fake) { base in
            let harness = try WebHarness(environment: BriefingWhoopTests.environment(base))
            defer { harness.remove() }
            try await harness.run { browser in
                try await browser.onboard()
                _ = try await browser.get(try await BriefingWhoopTests.consent(browser))
                let counting = try await browser.get("/briefing")
                let nutrition = try #require(counting.first(#"<p class="nutrition">(?:<svg.*?</svg>)?\s*([^<]*)</p>"#))
                #expect(["deficit", "target"].contains { nutrition.contains($0) }, "\(nutrition)")
                // When recovery mode is turned on
                try harness.store().setRecoveryMode(true, timeZone: harness.timeZone)
                let calm = try await browser.get("/briefing")
                // Then words only
                let words = try #require(calm.first(#"<p class="nutrition">(?:<svg.*?</svg>)?\s*([^<]*)</p>"#))
                #expect(words == "Eat at your usual moments and notice how hungry and how full you feel.")
                for hidden in ["deficit", "target", "protein", "calorie", "kcal", "macro"] {
                    #expect(!calm.body.lowercased().contains(hidden), "\(hidden)")
                }
                #expect(calm.shows("Recovery 40 % (yellow)"))
            }
        }
    }
}
