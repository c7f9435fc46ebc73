import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import SyncProtocol
import Testing

@testable import DietServer

/// Changes as a device would make them.
enum Changes {
    static func meal(_ id: UUID, name: String, kcal: Int, at wallMs: Int64, device: String = "laptop", deleted: Bool = false) -> Change {
        Change(
            table: .mealLogs,
            id: id,
            hlc: HLC(wallMs: wallMs, counter: 0, deviceID: device),
            deleted: deleted,
            row: .object(row(name: name, kcal: kcal))
        )
    }

    /// A meal row as the device's store writes it, valid under the row contract.
    static func row(name: String, kcal: Int) -> [String: JSONValue] {
        [
            "name": .string(name), "kcal": .number(Double(kcal)), "logged_at": .string("2026-11-23T08:00:00.000Z"),
            "local_date": .string("2026-11-23"), "local_time": .string("09:00"), "time_zone": .string("Europe/Berlin"),
            "created_at": .string("2026-11-23T08:00:00.000Z"),
        ]
    }

    static let now = Int64(Date().timeIntervalSince1970 * 1000)
}

@Suite("Sync push and pull")
struct SyncTests {
    @Test("a pushed change is applied once; a replay is ignored; a pull returns it with the next cursor")
    func pushPullReplay() async throws {
        try await ServerHarness.withServer { _, client in
            let token = try await client.signup("anna@example.org").accessToken
            let meal = Changes.meal(UUID(), name: "Porridge", kcal: 320, at: Changes.now)
            let push = PushRequest(deviceID: "laptop", changes: [meal])
            let first = try await client.send(.post, SyncPaths.push, token: token, json: push).decoded(PushResponse.self)
            #expect(first.results.map(\.status) == [.applied])
            let replay = try await client.send(.post, SyncPaths.push, token: token, json: push).decoded(PushResponse.self)
            #expect(replay.results.map(\.status) == [.ignored])

            let page = try await client.send(.get, SyncPaths.pull + "?cursor=0", token: token).decoded(PullResponse.self)
            #expect(page.changes == [meal])
            #expect(page.hasMore == false)
            let after = try await client.send(.get, SyncPaths.pull + "?cursor=\(page.nextCursor)", token: token).decoded(PullResponse.self)
            #expect(after.changes.isEmpty)
            #expect(after.nextCursor == page.nextCursor)
        }
    }

    @Test("last writer wins by HLC, whatever order the pushes arrive in")
    func lastWriterWins() async throws {
        try await ServerHarness.withServer { _, client in
            let token = try await client.signup("anna@example.org").accessToken
            let id = UUID()
            let newer = Changes.meal(id, name: "Porridge with honey", kcal: 380, at: Changes.now, device: "phone")
            let older = Changes.meal(id, name: "Porridge", kcal: 320, at: Changes.now - 5000, device: "laptop")
            let results =
                try await client.send(.post, SyncPaths.push, token: token, json: PushRequest(deviceID: "phone", changes: [newer]))
                .decoded(PushResponse.self).results
                + client.send(.post, SyncPaths.push, token: token, json: PushRequest(deviceID: "laptop", changes: [older]))
                .decoded(PushResponse.self).results
            #expect(results.map(\.status) == [.applied, .ignored])
            // Within one batch too: the newest change of a row wins.
            let tombstone = Changes.meal(id, name: "Porridge with honey", kcal: 380, at: Changes.now + 1000, device: "laptop", deleted: true)
            let batch = try await client.send(
                .post,
                SyncPaths.push,
                token: token,
                json: PushRequest(deviceID: "laptop", changes: [tombstone, older])
            ).decoded(PushResponse.self)
            #expect(batch.results.map(\.status) == [.applied, .ignored])
            let page = try await client.send(.get, SyncPaths.pull, token: token).decoded(PullResponse.self)
            #expect(page.changes == [tombstone])
        }
    }

    @Test("pages follow the cursor in commit order, a row edited again moves to the end")
    func pagination() async throws {
        try await ServerHarness.withServer { _, client in
            let token = try await client.signup("anna@example.org").accessToken
            let meals = (0..<7).map { Changes.meal(UUID(), name: "Meal \($0)", kcal: 100 + $0, at: Changes.now + Int64($0)) }
            _ = try await client.send(.post, SyncPaths.push, token: token, json: PushRequest(deviceID: "laptop", changes: meals))
            let edited = Changes.meal(meals[0].id, name: "Meal 0 edited", kcal: 150, at: Changes.now + 100)
            _ = try await client.send(.post, SyncPaths.push, token: token, json: PushRequest(deviceID: "laptop", changes: [edited]))

            var cursor: Int64 = 0
            var seen: [Change] = []
            var pages = 0
            while true {
                let page = try await client.send(.get, SyncPaths.pull + "?cursor=\(cursor)&limit=3", token: token).decoded(PullResponse.self)
                seen += page.changes
                cursor = page.nextCursor
                pages += 1
                if !page.hasMore { break }
            }
            #expect(pages == 3)
            #expect(seen == Array(meals.dropFirst()) + [edited])
        }
    }

    @Test("stamps more than a day ahead, non-object rows, oversized batches and bad cursors are refused by name")
    func badInput() async throws {
        try await ServerHarness.withServer { _, client in
            let token = try await client.signup("anna@example.org").accessToken
            let future = Changes.meal(UUID(), name: "Time traveller", kcal: 1, at: Changes.now + 3 * 86_400_000)
            let notObject = Change(
                table: .mealLogs,
                id: UUID(),
                hlc: HLC(wallMs: Changes.now, counter: 0, deviceID: "laptop"),
                deleted: false,
                row: .array([])
            )
            let fine = Changes.meal(UUID(), name: "Apple", kcal: 52, at: Changes.now)
            let response = try await client.send(
                .post,
                SyncPaths.push,
                token: token,
                json: PushRequest(deviceID: "laptop", changes: [future, notObject, fine])
            ).decoded(PushResponse.self)
            #expect(response.results.map(\.status) == [.rejected, .rejected, .applied])
            #expect(response.results[0].message?.contains("a day ahead") == true)

            let many = (0..<501).map { Changes.meal(UUID(), name: "x", kcal: 1, at: Changes.now + Int64($0)) }
            let tooMany = try await client.send(.post, SyncPaths.push, token: token, json: PushRequest(deviceID: "laptop", changes: many))
            #expect(tooMany.status == .badRequest)
            #expect(tooMany.errorBody?.error.message == "A push holds at most 500 changes; this one has 501.")

            let unknownTable = try await client.send(
                .post,
                SyncPaths.push,
                token: token,
                rawBody: """
                    {"device_id":"laptop","changes":[{"table":"secrets","id":"\(UUID())","hlc":"\(HLC(wallMs: Changes.now, counter: 0, deviceID: "laptop"))","deleted":false,"row":{}}]}
                    """
            )
            #expect(unknownTable.status == .badRequest)
            #expect(unknownTable.errorBody?.error.message.contains("changes[0].table") == true)

            for query in ["cursor=-1", "cursor=abc", "limit=0", "limit=501"] {
                let bad = try await client.send(.get, SyncPaths.pull + "?" + query, token: token)
                #expect(bad.status == .badRequest, "\(query)")
            }
        }
    }
}

@Suite("Per-user write serialisation")
struct SerialisationTests {
    @Test("a push waits while another push of the same user is uncommitted, so a pull cannot pass over the earlier one")
    func pushesOfOneUserTakeTurns() async throws {
        try await ServerHarness.withServer { configuration, client in
            let anna = try await client.signup("anna@example.org")
            let first = Changes.meal(UUID(), name: "First", kcal: 100, at: Changes.now)
            let second = Changes.meal(UUID(), name: "Second", kcal: 200, at: Changes.now)
            let plan = SyncRepository.Plan(changes: [first], now: Date())

            try await ServerHarness.withConnection(configuration.databaseURL) { connection in
                let logger = ServerHarness.logger
                // A push of the first meal, held open (not committed) on its own connection.
                try await connection.query("BEGIN", logger: logger)
                try await connection.query("SELECT set_config('app.user_id', \(anna.userID.uuidString), true)", logger: logger)
                _ = try await SyncRepository(logger: logger).apply(plan, userID: anna.userID, session: nil, quota: QuotaPolicy(), on: connection)

                let secondPush = Task {
                    try await client.send(.post, SyncPaths.push, token: anna.accessToken, json: PushRequest(deviceID: "phone", changes: [second]))
                }
                try await Task.sleep(nanoseconds: 400_000_000)
                // The second push is still waiting for the first: nothing is visible yet.
                let during = try await client.send(.get, SyncPaths.pull, token: anna.accessToken).decoded(PullResponse.self)
                #expect(during.changes.isEmpty)
                try await connection.query("COMMIT", logger: logger)
                _ = try await secondPush.value
            }
            let after = try await client.send(.get, SyncPaths.pull, token: anna.accessToken).decoded(PullResponse.self)
            #expect(after.changes.map(\.id) == [first.id, second.id])
        }
    }

    @Test("the user's write lock is the key earlier releases took (the hash of the id's upper-case text), so two releases exclude each other")
    func writeLockKeyIsStable() async throws {
        try await ServerHarness.withServer { configuration, _ in
            let userID = UUID()
            let earlierKey = "hashtextextended(\(userID.uuidString), 0)"
            try await ServerHarness.withConnection(configuration.databaseURL) { holder in
                try await ServerHarness.withConnection(configuration.databaseURL) { other in
                    let logger = ServerHarness.logger
                    func otherMayTake() async throws -> Bool {
                        let rows = try await other.query(
                            "SELECT pg_try_advisory_xact_lock(hashtextextended(\(userID.uuidString), 0))",
                            logger: logger
                        )
                        var taken = false
                        for try await value in rows.decode(Bool.self) { taken = value }
                        return taken
                    }
                    try await holder.query("BEGIN", logger: logger)
                    try await holder.query("SELECT user_write_lock(\(userID))", logger: logger)
                    #expect(try await !otherMayTake(), "\(earlierKey) is free while user_write_lock is held")
                    try await holder.query("COMMIT", logger: logger)
                    #expect(try await otherMayTake())
                }
            }
        }
    }
}
