import DietSync
import Foundation
import ServerTestSupport
import SyncProtocol
import Testing

@Suite("The pull cursor under concurrent pushes")
struct CursorTests {
    @Test("a device following the cursor while eight others push at once sees every change")
    func noSkippedCommits() async throws {
        try await ServerHarness.withLiveServer(configure: { $0.bcryptCost = 4 }) { _, server in
            let api = ServerAPI(baseURL: server)
            let tokens = try await api.signup(PasswordCredentials(email: "anna@example.org", password: "correct horse battery", deviceName: "reader"))
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let pushers = 8
            let batches = 15
            let perBatch = 5
            let pushed = try await withThrowingTaskGroup(of: [UUID].self) { group in
                for pusher in 0..<pushers {
                    group.addTask {
                        var ids: [UUID] = []
                        for batch in 0..<batches {
                            let changes = (0..<perBatch).map { item in
                                Change(
                                    table: .mealLogs,
                                    id: UUID(),
                                    hlc: HLC(wallMs: now + Int64(batch), counter: item, deviceID: "d\(pusher)"),
                                    deleted: false,
                                    row: Self.meal("meal \(pusher)-\(batch)-\(item)")
                                )
                            }
                            let response = try await api.push(PushRequest(deviceID: "d\(pusher)", changes: changes), accessToken: tokens.accessToken)
                            #expect(response.results.allSatisfy { $0.status == .applied })
                            ids += changes.map(\.id)
                        }
                        return ids
                    }
                }
                // Meanwhile the reader follows the cursor with small pages.
                var seen = Set<UUID>()
                var cursor: Int64 = 0
                let total = pushers * batches * perBatch
                for _ in 0..<10_000 where seen.count < total {
                    let page = try await api.pull(cursor: cursor, limit: 7, accessToken: tokens.accessToken)
                    seen.formUnion(page.changes.map(\.id))
                    cursor = page.nextCursor
                    if page.changes.isEmpty { try await Task.sleep(nanoseconds: 2_000_000) }
                }
                var all = Set<UUID>()
                for try await ids in group { all.formUnion(ids) }
                // Drain what the reader has not reached yet, then compare.
                while true {
                    let page = try await api.pull(cursor: cursor, limit: 500, accessToken: tokens.accessToken)
                    seen.formUnion(page.changes.map(\.id))
                    cursor = page.nextCursor
                    if !page.hasMore { break }
                }
                #expect(seen == all)
                return all
            }
            #expect(pushed.count == pushers * batches * perBatch)
        }
    }

    /// A meal row that keeps the row contract.
    static func meal(_ name: String) -> JSONValue {
        .object([
            "name": .string(name), "kcal": .number(300), "logged_at": .string("2026-11-23T07:00:00.000Z"),
            "local_date": .string("2026-11-23"), "local_time": .string("08:00"), "time_zone": .string("Europe/Berlin"),
            "created_at": .string("2026-11-23T07:00:00.000Z"),
        ])
    }
}
