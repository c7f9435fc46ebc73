import DietBriefing
import DietCore
import DietStore
import DietWeb
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@Suite("Calendars of the briefing, added in the browser")
struct CalendarRouteTests {
    static let ics = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//w-diet//test//EN\r
        BEGIN:VEVENT\r
        UID:review-1\r
        DTSTART;TZID=Europe/Berlin:20260105T100000\r
        DTEND;TZID=Europe/Berlin:20260105T113000\r
        SUMMARY:Quarterly review\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test("an uploaded .ics shows its events in today's briefing; a broken one is refused; removing works", arguments: Language.allCases)
    func upload(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(language)
        try await harness.run { browser in
            try await browser.onboard(language: language)
            let empty = try await browser.get("/briefing")
            #expect(empty.shows(l.text("web.calendar.none")) && empty.missingStrings.isEmpty)
            let broken = try await browser.upload("/briefing/calendars", file: Data("Dear diary, today I ate well.".utf8), filename: "broken.ics")
            #expect(broken.status == .unprocessableContent)
            #expect(broken.body.contains("broken.ics") && broken.body.contains("role=\"alert\""))
            // damaged parts are skipped and counted, the rest is kept
            let damaged = try await browser.upload(
                "/briefing/calendars",
                file: Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:nonsense\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8),
                filename: "damaged.ics"
            )
            #expect(damaged.status == .seeOther)
            let withDamage = try await browser.get("/briefing")
            #expect(withDamage.shows(l.text("cli.calendar.problems", ["count": .integer(1)])), "\(withDamage.body)")
            let damagedID = try #require(withDamage.first(#"action="/briefing/calendars/([0-9A-F-]{36})/remove""#))
            #expect(try await browser.post("/briefing/calendars/\(damagedID)/remove").status == .seeOther)
            let nothing = try await browser.post("/briefing/calendars")
            #expect(nothing.status == .unprocessableContent && nothing.shows(l.text("web.calendar.nothing")))
            let added = try await browser.upload("/briefing/calendars", file: Data(Self.ics.utf8), filename: "work.ics")
            #expect(added.status == .seeOther)
            let briefing = try await browser.get("/briefing")
            #expect(briefing.body.contains("Quarterly review") && briefing.body.contains("10:00–11:30"))
            #expect(briefing.shows(l.text("web.toast.calendar_added")))
            #expect(briefing.missingStrings.isEmpty)
            let id = try #require(briefing.first(#"action="/briefing/calendars/([0-9A-F-]{36})/remove""#))
            #expect(try await browser.post("/briefing/calendars/\(id)/remove").status == .seeOther)
            #expect(!(try await browser.get("/briefing").body.contains("Quarterly review")))
            #expect(try await browser.post("/briefing/calendars/\(id)/remove").status == .notFound)
        }
        #expect(try harness.store().calendars().isEmpty)
    }

    @Test("a calendar address is fetched (here from a local server speaking plain HTTP); a bad address is explained")
    func address() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let router = Router()
        router.get("/work.ics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/calendar"], body: .init(byteBuffer: ByteBuffer(string: Self.ics)))
        }
        router.get("/gone.ics") { _, _ in Response(status: .notFound) }
        let calendarServer = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await calendarServer.test(.live) { client in
            let port = try #require(client.port)
            try await harness.run { browser in
                try await browser.onboard()
                let bad = try await browser.post("/briefing/calendars", [("url", "ftp://example.org/cal.ics")])
                #expect(bad.status == .unprocessableContent && bad.body.contains("value=\"ftp://example.org/cal.ics\""))
                // This machine is refused until the household allows it, in the same words for
                // an open and a closed port (and whatever else answers there).
                let closed = Loopback.freePort()
                for address in ["http://127.0.0.1:\(port)/work.ics", "http://127.0.0.1:\(closed)/work.ics", "http://127.0.0.1:\(port)/metrics"] {
                    let refused = try await browser.post("/briefing/calendars", [("url", address)])
                    #expect(refused.status == .unprocessableContent, "\(address)")
                    #expect(refused.shows(Localizer(.en).text("web.calendar.reason.notPublic")), "\(address)")
                    #expect(!refused.body.contains("refused the connection") && !refused.body.contains("HTTP 404"), "\(address)")
                }
                let hostile = try await browser.post("/briefing/calendars/local-hosts", [("hosts", "127.0.0.1, http://evil.example")])
                #expect(
                    hostile.status == .unprocessableContent
                        && hostile.shows(Localizer(.en).text("web.calendar.hosts.bad", ["value": .text("http://evil.example")]))
                )
                #expect(try harness.store().calendarLocalHosts().isEmpty)
                #expect(try await browser.post("/briefing/calendars/local-hosts", [("hosts", "127.0.0.1")]).status == .seeOther)
                #expect(try await browser.get("/briefing").body.contains(#"value="127.0.0.1""#))
                let gone = try await browser.post("/briefing/calendars", [("url", "http://127.0.0.1:\(port)/gone.ics")])
                #expect(gone.status == .unprocessableContent && gone.body.contains("HTTP 404"))
                let added = try await browser.post("/briefing/calendars", [("url", "http://127.0.0.1:\(port)/work.ics"), ("name", "Work")])
                #expect(added.status == .seeOther)
                let briefing = try await browser.get("/briefing")
                #expect(briefing.body.contains("<strong>Work</strong>") && briefing.body.contains("Quarterly review"))
            }
        }
        let calendars = try harness.store().calendars()
        #expect(calendars.count == 1 && calendars.first?.isURL == true)
    }

    @Test(
        "a stored address that is a FIFO (as a synced row could once set) is never opened: /briefing answers again and again",
        .timeLimit(.minutes(5))
    )
    func hostileStoredAddress() async throws {
        let harness = try WebHarness(environment: [:])  // online: each opening refreshes stale addresses
        defer { harness.remove() }
        let fifo = harness.folder.appendingPathComponent("calendar.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        try await harness.run { browser in
            try await browser.onboard()
            // Given an address row whose location is a FIFO nobody writes to, read two hours ago
            try await DatabaseQueue(path: harness.databasePath).write { db in
                try db.execute(
                    sql: """
                        INSERT INTO calendar_sources (id, name, kind, location, added_at, fetched_at, ics, updated_hlc, deleted)
                        VALUES (?, 'Trap', 'address', ?, '2026-01-05T05:00:00.000Z', '2026-01-05T05:00:00.000Z',
                                'BEGIN:VCALENDAR\nEND:VCALENDAR\n', '0001767585600000-0000-phone', 0)
                        """,
                    arguments: [UUID().uuidString, fifo]
                )
            }
            // When the briefing is opened again and again (each opening refreshes stale addresses)
            for _ in 0..<4 {
                let page = try await browser.get("/briefing")
                // Then it answers every time, and the app goes on serving
                #expect(page.status == .ok)
                #expect(page.body.contains("<strong>Trap</strong>"))
            }
            #expect(try await browser.get("/").status == .ok)
        }
    }
}
