import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

@testable import DietCLI

/// Calendars through the account, end to end: two devices' CLIs, the real server
/// (PostgreSQL) and a calendar address served on loopback that only one device reaches.
@Suite("wdiet calendars sync between two devices through the real server", .serialized)
struct CalendarSyncCLITests {
    static let password = "correct horse battery"
    static let now = "2026-01-05T07:00"

    static func ics(_ summary: String, uid: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTART:20260105T090000Z\r\n"
            + "DTEND:20260105T100000Z\r\nSUMMARY:\(summary)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    static func device(_ server: URL, signUp: Bool) async throws -> CLIHarness {
        let harness = CLIHarness(environment: ["WDIET_PASSWORD": password])
        try await harness.onboardAlice()
        let command = signUp ? "signup" : "login"
        _ = try await harness.run(["account", command, "--server", server.absoluteString, "--email", "cal@example.org"], now: Self.now)
        return harness
    }

    /// Serves `text`'s current value at `/work.ics` while `body` runs.
    static func serveCalendar(_ text: ServedText, _ body: @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        router.get("/work.ics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/calendar"], body: .init(byteBuffer: ByteBuffer(string: text.value)))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await body("http://127.0.0.1:\(try #require(client.port))")
        }
    }

    @Test(
        "wdiet briefing reads an address older than an hour again first (not a fresh one, not offline); one out of reach keeps its copy and says so"
    )
    func briefingRefreshesStaleAddresses() async throws {
        let harness = CLIHarness()
        try await harness.onboardAlice()
        let served = ServedText(Self.ics("Stand-up", uid: "work"))
        try await Self.serveCalendar(served) { base in
            _ = try await harness.run(["calendar", "local-hosts", "127.0.0.1"], now: "2026-01-05T07:00")
            _ = try await harness.run(["calendar", "add", base + "/work.ics", "--name", "Work"], now: "2026-01-05T07:00")
            served.value = Self.ics("Planning", uid: "work")
            // Half an hour later the copy is fresh: the briefing answers from it.
            #expect(try await harness.run(["briefing"], now: "2026-01-05T07:30").contains("Stand-up"))
            // Offline nothing is read, stale or not.
            let offline = try await harness.run(["briefing"], now: "2026-01-05T08:30", environment: ["WDIET_OFFLINE": "1"])
            #expect(offline.contains("Stand-up"))
            // An hour and a half after the add, the address is read again before the answer.
            let later = try await harness.run(["briefing"], now: "2026-01-05T08:31")
            #expect(later.contains("Planning") && !later.contains("Stand-up"))
            // The new text is a new version waiting to sync to the other devices.
            #expect(try await harness.run(["calendar", "list"], now: "2026-01-05T08:31").contains("updated Mon, Jan 5, 2026, 08:31"))
        }
        // The address gone: two hours later the briefing answers from its copy and says so.
        let gone = try await harness.run(["briefing"], now: "2026-01-05T10:40")
        #expect(gone.contains("Planning") && gone.contains("“Work” kept from"), "\(gone)")
    }

    @Test("a file and an address added on the laptop brief on the phone; the laptop's refresh reaches the offline phone; removal reaches both")
    func twoDevices() async throws {
        try await ServerHarness.withLiveServer(configure: { $0.bcryptCost = 4 }) { _, server in
            // Given two devices of one account
            let laptop = try await Self.device(server, signUp: true)
            let phone = try await Self.device(server, signUp: false)
            let file = laptop.folder.appendingPathComponent("gym.ics")
            try Self.ics("Spin class", uid: "gym").write(to: file, atomically: true, encoding: .utf8)
            let served = ServedText(Self.ics("Stand-up", uid: "work"))

            try await Self.serveCalendar(served) { base in
                // When the laptop adds a file and an address and both devices sync
                _ = try await laptop.run(["calendar", "local-hosts", "127.0.0.1"], now: Self.now)
                _ = try await laptop.run(["calendar", "add", file.path], now: Self.now)
                _ = try await laptop.run(["calendar", "add", base + "/work.ics", "--name", "Work"], now: Self.now)
                _ = try await laptop.run(["sync"], now: Self.now)
                _ = try await phone.run(["sync"], now: Self.now)
                // Then the phone's briefing shows the events of both
                let briefing = try await phone.run(["briefing"], now: Self.now)
                #expect(briefing.contains("Spin class") && briefing.contains("Stand-up"))

                // When the address changes and the laptop refreshes and syncs
                served.value = Self.ics("Planning", uid: "work")
                let refreshed = try await laptop.run(["calendar", "refresh"], now: Self.now)
                #expect(refreshed.contains("“Work” updated") && refreshed.contains("“gym” unchanged"))
                _ = try await laptop.run(["sync"], now: Self.now)
            }

            // Then the phone, which cannot reach the address any more, keeps its copy on refresh…
            let failed = try await phone.run(["calendar", "refresh"], now: Self.now)
            #expect(failed.contains("“Work” kept from"))
            // …and never reads the laptop's file path: it is the laptop's to refresh
            #expect(failed.contains("“gym” kept from") && failed.contains("added from a file on another device"), "\(failed)")
            // …and after a sync briefs from the laptop's newer copy
            _ = try await phone.run(["sync"], now: Self.now)
            let later = try await phone.run(["briefing"], now: Self.now)
            #expect(later.contains("Planning") && !later.contains("Stand-up") && later.contains("Spin class"))

            // When the phone removes the file calendar and both sync
            let list = try await phone.run(["calendar", "list"], now: Self.now)
            let gym = try #require(list.split(separator: "\n").first { $0.contains("gym") }?.prefix(8))
            #expect(try await phone.run(["calendar", "remove", String(gym)], now: Self.now).contains("Removed “gym”"))
            _ = try await phone.run(["sync"], now: Self.now)
            _ = try await laptop.run(["sync"], now: Self.now)
            // Then it is gone on both
            for device in [laptop, phone] {
                #expect(!(try await device.run(["calendar", "list"], now: Self.now)).contains("gym"))
                #expect(!(try await device.run(["briefing"], now: Self.now)).contains("Spin class"))
            }
        }
    }

    @Test("the devices of the own network whose calendars may be read are this device's setting: shown, set, checked, cleared")
    func localHosts() async throws {
        let harness = CLIHarness()
        try await harness.onboardAlice()
        let served = ServedText(Self.ics("Stand-up", uid: "work"))
        try await Self.serveCalendar(served) { base in
            // This machine is not a public host: refused, in words that say how to allow it
            let refused = await failure { try await harness.run(["calendar", "add", base + "/work.ics"], now: Self.now) }
            #expect(refused?.contains("it is on this device or a private network. To read calendars from there") == true, "\(refused ?? "")")
            #expect(try await harness.run(["calendar", "local-hosts"], now: Self.now).contains("read only from public hosts"))
            let bad = await failure { try await harness.run(["calendar", "local-hosts", "nas.local", "http://x"], now: Self.now) }
            #expect(bad == "“http://x” is not a host name or IP address (at most 20). Nothing was changed.")
            let set = try await harness.run(["calendar", "local-hosts", "127.0.0.1", "NAS.local"], now: Self.now)
            #expect(set.hasSuffix("127.0.0.1, nas.local"), "\(set)")
            #expect(try await harness.run(["calendar", "add", base + "/work.ics"], now: Self.now).contains("1 event"))
            #expect(try await harness.run(["calendar", "local-hosts", "--none"], now: Self.now).contains("read only from public hosts"))
            let again = try await harness.run(["calendar", "refresh"], now: Self.now)
            #expect(again.contains("kept from") && again.contains("wdiet calendar local-hosts"), "\(again)")
        }
    }

    @Test(
        "a stored address that is a FIFO or a local path (as a synced row could once set) is never opened: briefing and refresh answer at once",
        .timeLimit(.minutes(5))
    )
    func hostileStoredLocations() async throws {
        let harness = CLIHarness()
        try await harness.onboardAlice()
        let fifo = harness.folder.appendingPathComponent("calendar.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Given address rows (and a file row from "another device") naming a FIFO and standard input, read hours ago
        try await DatabaseQueue(path: harness.database).write { db in
            for (kind, location) in [("address", fifo), ("address", "/dev/stdin"), ("file", fifo)] {
                try db.execute(
                    sql: """
                        INSERT INTO calendar_sources (id, name, kind, location, added_at, fetched_at, ics, updated_hlc, deleted)
                        VALUES (?, 'Trap', ?, ?, '2026-01-05T05:00:00.000Z', '2026-01-05T05:00:00.000Z',
                                'BEGIN:VCALENDAR\nEND:VCALENDAR\n', '0001767585600000-0000-phone', 0)
                        """,
                    arguments: [UUID().uuidString, kind, location]
                )
            }
        }
        // When the briefing and a refresh run
        let briefing = try await harness.run(["briefing"], now: "2026-01-05T09:00")
        let refresh = try await harness.run(["calendar", "refresh"], now: "2026-01-05T09:00")
        // Then they answer from the copies, saying why nothing was read
        #expect(briefing.contains("kept from"), "\(briefing)")
        #expect(refresh.components(separatedBy: "kept from").count == 4, "\(refresh)")
        #expect(refresh.contains("must be an http, https or webcal address") && refresh.contains("added from a file on another device"))
    }

    @Test("a file calendar too long to sync is added on this device only, and the CLI says so")
    func tooLongStaysHere() async throws {
        let harness = CLIHarness()
        try await harness.onboardAlice()
        let file = harness.folder.appendingPathComponent("huge.ics")
        let filler = String(repeating: "X-FILLER:" + String(repeating: "x", count: 70) + "\n", count: 1_000_000 / 80 + 10)
        try (Self.ics("Huge", uid: "huge").replacingOccurrences(of: "END:VCALENDAR\r\n", with: "") + filler + "END:VCALENDAR\n")
            .write(to: file, atomically: true, encoding: .utf8)
        let added = try await harness.run(["calendar", "add", file.path], now: Self.now)
        #expect(added.contains("stays on this device only"))
        #expect(try await harness.run(["calendar", "list"], now: Self.now).contains("on this device only"))
        #expect(try await harness.run(["calendar", "add", file.path, "--json"], now: Self.now).contains("\"localOnly\" : true"))
    }
}

/// The text the test's calendar address serves, changed by the test while the server runs.
final class ServedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text: String

    init(_ text: String) {
        self.text = text
    }

    var value: String {
        get { lock.withLock { text } }
        set { lock.withLock { text = newValue } }
    }
}
