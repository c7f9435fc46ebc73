import DietCore
import DietStore
import DietWeb
import Foundation
import Hummingbird
import HummingbirdTesting
import SyncProtocol
import TestSupport
import Testing

@Suite("Synced calendars in the browser")
struct CalendarSyncWebTests {
    static let ics =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:r1\r\nDTSTART:20260105T090000Z\r\nDTEND:20260105T100000Z\r\n"
        + "SUMMARY:Quarterly review\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

    @Test("an uploaded calendar too long to sync is kept and the list says it stays on this device only")
    func tooLongSaysSo() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(.en)
        try await harness.run { browser in
            try await browser.onboard(language: .en)
            // Given an .ics longer than the synced limit
            let filler = String(repeating: "X-FILLER:" + String(repeating: "x", count: 70) + "\r\n", count: CalendarRow.maxICSCharacters / 80 + 10)
            let huge = Self.ics.replacingOccurrences(of: "END:VCALENDAR\r\n", with: "") + filler + "END:VCALENDAR\r\n"
            // When it is uploaded
            _ = try await browser.upload("/briefing/calendars", file: Data(huge.utf8), filename: "huge.ics")
            // Then the briefing shows its event and the list says it stays here
            let page = try await browser.get("/briefing")
            #expect(page.shows("Quarterly review"))
            #expect(page.shows(l.text("web.calendar.localOnly")))
        }
    }

    @Test("a calendar that came from another device is counted when the page shows it")
    func pulledIsCounted() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: .en)
            // Given a calendar merged from another device (no counts of this device yet)
            let phone = try AppDatabase.inMemory(clock: harness.clock, deviceID: "phone")
            try phone.addCalendar(name: "Team", location: "https://example.org/t.ics", isURL: true, ics: Self.ics, eventCount: 1, problemCount: 0)
            let change = try #require(try phone.pendingChanges(limit: 100).first { $0.table == .calendarSources })
            let store = try harness.store()
            try store.merge(PullResponse(changes: [change], nextCursor: 1, hasMore: false))
            #expect(try store.calendars().first?.eventCount == nil)
            // When the briefing page shows it
            let page = try await browser.get("/briefing")
            // Then its events are counted and kept
            #expect(page.shows(Localizer(.en).text("web.calendar.detail", ["count": 1, "date": .date(.ymd(2026, 1, 5))])))
            #expect(try store.calendars().first?.eventCount == 1)
        }
    }

    @Test("the briefing page refreshes an address fetched over an hour ago in the background, a new version only when it changed")
    func briefingRefreshesStaleAddress() async throws {
        // Given an address calendar fetched two hours ago whose server now has a new text
        let router = Router()
        router.get("/team.ics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/calendar"],
                body: .init(byteBuffer: ByteBuffer(string: Self.ics.replacingOccurrences(of: "Quarterly review", with: "Offsite")))
            )
        }
        let calendarServer = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await calendarServer.test(.live) { client in
            let address = "http://127.0.0.1:\(try #require(client.port))/team.ics"
            let harness = try WebHarness(environment: [:])
            defer { harness.remove() }
            try await harness.run { browser in
                try await browser.onboard(language: .en)
                let store = try harness.store()
                try store.setCalendarLocalHosts(["127.0.0.1"])  // the test server's host
                try store.addCalendar(name: "Team", location: address, isURL: true, ics: Self.ics, eventCount: 1, problemCount: 0)
                let queued = try store.pendingChanges(limit: 100).filter { $0.table == .calendarSources }.count
                harness.clock.advance(by: 2 * 3600)
                // When the briefing page is shown
                let page = try await browser.get("/briefing")
                // Then it shows the stored copy at once, and the new text arrives in the background as a new version
                #expect(page.shows("Quarterly review"))
                #expect(await eventually(within: 20) { (try? store.calendars().first?.ics.contains("Offsite")) == true })
                let pending = try store.pendingChanges(limit: 100).filter { $0.table == .calendarSources }
                #expect(pending.count == queued && pending.first?.row["ics"]?.stringValue?.contains("Offsite") == true)
                #expect(try await browser.get("/briefing").shows("Offsite"))
            }
        }
    }
}
