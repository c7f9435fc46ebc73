import DietCore
import DietStore
import Foundation
import ServerTestSupport
import SyncProtocol
import TestSupport
import Testing

@testable import DietSync

/// Calendars between two devices through the real server (PostgreSQL), and pushes that stay
/// under the server's body limit however large the rows.
@Suite("Calendars sync between devices", .serialized)
struct CalendarSyncTests {
    static func ics(_ summary: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:\(summary)\r\nDTSTART:20260105T090000Z\r\n"
            + "DTEND:20260105T100000Z\r\nSUMMARY:\(summary)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    /// A calendar of about `bytes` bytes (comment lines after one event).
    static func large(_ bytes: Int, _ summary: String) -> String {
        let line = "X-FILLER:" + String(repeating: "x", count: 70) + "\n"
        return ics(summary).replacingOccurrences(of: "END:VCALENDAR\r\n", with: "")
            + String(repeating: line, count: bytes / line.utf8.count) + "END:VCALENDAR\n"
    }

    static func signedIn(_ name: String, folder: URL, server: URL, signUp: Bool) async throws -> Device {
        let device = try Device(name: name, folder: folder, skew: 0)
        _ = try device.store.completeOnboarding(.alice, timeZone: Zones.berlin)
        let credentials = PasswordCredentials(email: "cal@example.org", password: "correct horse battery", deviceName: name)
        _ = try await device.synchronizer.signIn(server: server, credentials: credentials, newAccount: signUp)
        return device
    }

    static func withFolder(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-calsync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder)
    }

    @Test("a file and an address calendar added on one device reach the other; a refresh and a removal follow")
    func twoDevices() async throws {
        try await ServerHarness.withLiveServer(configure: { $0.bcryptCost = 4 }) { _, server in
            try await Self.withFolder { folder in
                // Given two devices of one account; the laptop adds a file and an address calendar
                let laptop = try await Self.signedIn("laptop", folder: folder, server: server, signUp: true)
                let phone = try await Self.signedIn("phone", folder: folder, server: server, signUp: false)
                let file = try laptop.store.addCalendar(
                    name: "Gym",
                    location: "/home/anna/gym.ics",
                    isURL: false,
                    ics: Self.ics("Spin class"),
                    eventCount: 1,
                    problemCount: 0
                )
                let address = try laptop.store.addCalendar(
                    name: "Work",
                    location: "https://example.org/work.ics",
                    isURL: true,
                    ics: Self.ics("Stand-up"),
                    eventCount: 1,
                    problemCount: 0
                )
                // When both sync
                _ = try await laptop.synchronizer.sync()
                _ = try await phone.synchronizer.sync()
                // Then the phone holds both, with their text (LF line ends)
                var calendars = try phone.store.calendars()
                #expect(Set(calendars.map(\.id)) == [file.id, address.id])
                #expect(calendars.first { $0.id == file.id }?.ics.contains("SUMMARY:Spin class\n") == true)
                #expect(calendars.first { $0.id == address.id }?.isURL == true)

                // When the laptop finds the address changed, and the phone syncs (it never reads the address)
                #expect(try laptop.store.refreshCalendar(address.id, ics: Self.ics("Planning"), eventCount: 1, problemCount: 0) == .changed)
                _ = try await laptop.synchronizer.sync()
                _ = try await phone.synchronizer.sync()
                // Then the phone holds the new text
                calendars = try phone.store.calendars()
                #expect(calendars.first { $0.id == address.id }?.ics.contains("SUMMARY:Planning") == true)

                // When the phone finds the same text again: no new version goes up
                #expect(try phone.store.refreshCalendar(address.id, ics: Self.ics("Planning"), eventCount: 1, problemCount: 0) == .unchanged)
                #expect(try phone.store.syncStatus().pending == 0)

                // When the phone removes the file calendar and both sync
                _ = try phone.store.removeCalendar(idPrefix: String(file.id.uuidString.prefix(8)))
                _ = try await phone.synchronizer.sync()
                _ = try await laptop.synchronizer.sync()
                // Then it is gone on both
                #expect(try laptop.store.calendars().map(\.id) == [address.id])
                #expect(try phone.store.calendars().map(\.id) == [address.id])
            }
        }
    }

    @Test("pushes stay under the server's body limit: three 900 KB calendars and 500 meals go up in several requests, all applied")
    func byteBudget() async throws {
        try await ServerHarness.withLiveServer(configure: { $0.bcryptCost = 4 }) { _, server in
            try await Self.withFolder { folder in
                // Given a device with 2.7 MB of calendars and 500 meals waiting
                var laptop = try await Self.signedIn("laptop", folder: folder, server: server, signUp: true)
                laptop.synchronizer.batchSize = SyncPaths.maxBatch
                for number in 1...3 {
                    let added = try laptop.store.addCalendar(
                        name: "Big \(number)",
                        location: "/cal/big\(number).ics",
                        isURL: false,
                        ics: Self.large(900_000, "Big \(number)"),
                        eventCount: 1,
                        problemCount: 0
                    )
                    #expect(!added.localOnly)
                }
                let now = laptop.clock.now()
                for number in 0..<500 {
                    _ = try laptop.store.logMeal(try MealEntry(name: "Meal \(number)", kcal: 300, at: now, in: Zones.berlin))
                }
                let pending = try laptop.store.syncStatus().pending
                #expect(pending > 500)
                // The batches stay within the budget (one change over it goes alone)
                let first = Synchronizer.budgeted(try laptop.store.pendingChanges(limit: SyncPaths.maxBatch), bytes: laptop.synchronizer.batchBytes)
                #expect(first.count < SyncPaths.maxBatch)
                // When it syncs
                let report = try await laptop.synchronizer.sync()
                // Then everything was applied, nothing held back
                #expect(report.uploadsHeld == nil)
                #expect(report.pushed == pending && report.refused == 0)
                #expect(try laptop.store.syncStatus().pending == 0)
                // And another device receives the calendars whole
                let phone = try await Self.signedIn("phone", folder: folder, server: server, signUp: false)
                _ = try await phone.synchronizer.sync()
                let calendars = try phone.store.calendars()
                #expect(calendars.count == 3)
                #expect(calendars.allSatisfy { $0.ics.utf8.count > 890_000 })
            }
        }
    }
}
