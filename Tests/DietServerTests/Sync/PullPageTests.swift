import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import SyncProtocol
import Testing

@testable import DietServer

@Suite("Pull pages")
struct PullPageTests {
    /// A synced calendar whose text is about `characters` long (valid under the row contract).
    static func calendar(_ index: Int, characters: Int) -> Change {
        let line = "X-FILL:" + String(repeating: "a", count: 70) + "\n"
        let ics = "BEGIN:VCALENDAR\n" + String(repeating: line, count: characters / line.count) + "END:VCALENDAR"
        return Change(
            table: .calendarSources,
            id: UUID(),
            hlc: HLC(wallMs: Changes.now, counter: index, deviceID: "laptop"),
            deleted: false,
            row: .object([
                "name": .string("Calendar \(index)"), "kind": .string("file"), "location": .string("/home/anna/work-\(index).ics"),
                "added_at": .string("2026-11-23T08:00:00.000Z"), "fetched_at": .string("2026-11-23T08:00:00.000Z"),
                "ics": .string(ics),
            ])
        )
    }

    @Test("a pull page stops at its byte budget as well as its row count; following the cursor brings every row once")
    func pageStopsAtByteBudget() async throws {
        try await ServerHarness.withServer { _, client in
            // Given: six calendars of about 900 KB each (5.4 MB together), pushed one by one
            let token = try await client.signup("anna@example.org").accessToken
            let calendars = (0..<6).map { Self.calendar($0, characters: 900_000) }
            for calendar in calendars {
                let pushed = try await client.send(.post, SyncPaths.push, token: token, json: PushRequest(deviceID: "laptop", changes: [calendar]))
                    .decoded(PushResponse.self)
                #expect(pushed.results.map(\.status) == [.applied])
            }

            // When: pulling with the largest row count, page after page
            var cursor: Int64 = 0
            var pages: [(bytes: Int, changes: [Change])] = []
            while pages.count < 10 {
                let response = try await client.send(.get, SyncPaths.pull + "?cursor=\(cursor)&limit=\(SyncPaths.maxBatch)", token: token)
                let page = try response.decoded(PullResponse.self)
                pages.append((response.body.readableBytes, page.changes))
                cursor = page.nextCursor
                if !page.hasMore { break }
            }

            // Then: no page is over the budget, the first is cut by it, and every row comes once in order
            #expect(pages.count > 1)
            #expect(pages.allSatisfy { $0.bytes <= SyncRepository.pageByteBudget }, "\(pages.map(\.bytes))")
            #expect(pages.allSatisfy { !$0.changes.isEmpty })
            #expect(pages.flatMap(\.changes) == calendars)
        }
    }

    @Test("a row larger than the byte budget comes alone on its page, so the cursor still moves")
    func oversizedRowComesAlone() async throws {
        try await ServerHarness.withServer { configuration, client in
            // Given: three meals
            let anna = try await client.signup("anna@example.org")
            let meals = (0..<3).map { Changes.meal(UUID(), name: "Meal \($0)", kcal: 100 + $0, at: Changes.now) }
            _ = try await client.send(.post, SyncPaths.push, token: anna.accessToken, json: PushRequest(deviceID: "laptop", changes: meals))

            // When: pages of a budget smaller than one row are read
            let pages = try await ServerHarness.withConnection(configuration.databaseURL) { connection in
                let logger = ServerHarness.logger
                try await connection.query("BEGIN", logger: logger)
                try await connection.query("SELECT set_config('app.user_id', \(anna.userID.uuidString), true)", logger: logger)
                var pages: [PullResponse] = []
                var cursor: Int64 = 0
                repeat {
                    let json = try await SyncRepository(logger: logger).pageJSON(after: cursor, limit: 500, byteBudget: 10, on: connection)
                    pages.append(try JSONDecoder.api.decode(PullResponse.self, from: Data(buffer: json.json)))
                    cursor = pages.last?.nextCursor ?? cursor
                } while pages.last?.hasMore == true && pages.count < 10
                try await connection.query("COMMIT", logger: logger)
                return pages
            }

            // Then: one row a page, all of them, in order
            #expect(pages.map(\.changes.count) == [1, 1, 1])
            #expect(pages.flatMap(\.changes) == meals)
        }
    }
}
