import DietCore
import DietStore
import DietSync
import Foundation
import SyncProtocol
import TestSupport
import Testing

@Suite("Sync problems in the web app")
struct SyncProblemsTests {
    @Test("a pulled row set aside and a change the server refused are listed in settings with their reasons")
    func settingsListsProblems() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let store = try harness.store()
        try store.completeOnboarding(.alice, timeZone: harness.timeZone)
        let tokens = TokenResponse(userID: UUID(), sessionID: UUID(), accessToken: "a", expiresIn: 900, refreshToken: "r")
        try AccountFile(databasePath: harness.databasePath).save(
            Account(server: URL(string: "http://127.0.0.1:9")!, email: "anna@example.org", tokens: tokens, now: WebHarness.now)
        )
        let bad = Change(
            table: .mealLogs,
            id: UUID(),
            hlc: HLC(wallMs: 1, counter: 0, deviceID: "phone"),
            deleted: false,
            row: .object(["name": .string("<b>x</b>"), "kcal": .number(-5)])
        )
        try store.merge(PullResponse(changes: [bad], nextCursor: 1, hasMore: false))

        let page = try await harness.run { browser in try await browser.get("/settings") }

        #expect(page.status == .ok)
        #expect(page.body.contains("Changes that did not sync"))
        #expect(page.body.contains("Set aside on this device: meal_logs \(bad.id.uuidString): meal_logs.kcal: must be a whole number"))
    }
}
