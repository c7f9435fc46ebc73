import DietStore
import Foundation
import SyncProtocol
import Testing

@testable import DietCLI

@Suite("wdiet sync --status")
struct SyncStatusTests {
    @Test("a pulled row that could not be stored is shown with its reason, in text and JSON")
    func showsSetAsideRows() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let store = try AppDatabase.open(path: cli.database)
        let id = UUID()
        let bad = Change(
            table: .mealLogs,
            id: id,
            hlc: HLC(wallMs: 1, counter: 0, deviceID: "phone"),
            deleted: false,
            row: .object(["name": .string("x"), "kcal": .number(-5)])
        )
        try store.merge(PullResponse(changes: [bad], nextCursor: 1, hasMore: false))

        let text = try await cli.run(["sync", "--status"], now: "2026-01-05T09:00")
        #expect(text.contains("Set aside on this device: meal_logs \(id.uuidString): meal_logs.kcal: must be a whole number from 1 to 9999; got -5"))
        let json = try await cli.run(["sync", "--status", "--json"], now: "2026-01-05T09:00")
        #expect(json.contains("\"set_aside\"") || json.contains("\"setAside\""))
        #expect(json.contains(id.uuidString))
    }
}
