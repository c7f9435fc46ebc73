import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import SyncProtocol
import Testing
import WhoopAPI
import WhoopTestSupport

@testable import DietServer

@Suite("WHOOP webhooks on the server")
struct WhoopWebhookTests {
    static let workoutID = "c0ffee00-0000-4000-8000-000000000042"

    @Test("a webhook with a wrong, missing or old signature is refused with 401 and stores nothing")
    func badSignatures() async throws {
        let fake = FakeWhoop(recoveryCount: 1, base: Date().addingTimeInterval(-3600))
        try await WhoopHarness.withServer(fake) { _, client in
            let account = try await WhoopHarness.connect(client)
            let before = try await WhoopHarness.pull(client, token: account.accessToken)
            let start = Date().addingTimeInterval(-7200)
            try await fake.upsert("workout", json: FakeWhoop.workoutJSON(id: Self.workoutID, start: start, end: start.addingTimeInterval(1800)))

            let forged = try await WhoopHarness.webhook(client, type: "workout.updated", id: Self.workoutID, secret: "not-the-secret")
            #expect(forged.status == .unauthorized)
            #expect(forged.errorBody?.error.code == "invalid_signature")
            let (_, body) = FakeWhoop.signedWebhook(type: "workout.updated", id: Self.workoutID, secret: WhoopHarness.secret)
            let unsigned = try await client.execute(uri: WhoopPaths.webhook, method: .post, headers: [.contentType: "application/json"], body: body) {
                $0
            }
            #expect(unsigned.status == .unauthorized)
            let (oldHeaders, oldBody) = FakeWhoop.signedWebhook(
                type: "workout.updated",
                id: Self.workoutID,
                secret: WhoopHarness.secret,
                timestamp: Date().addingTimeInterval(-3600)
            )
            let old = try await client.execute(uri: WhoopPaths.webhook, method: .post, headers: oldHeaders, body: oldBody) { $0 }
            #expect(old.status == .unauthorized)
            #expect(try await WhoopHarness.pull(client, token: account.accessToken) == before)
        }
    }

    @Test("a signed workout.updated is fetched and reaches the user's devices through /v1/sync/pull; workout.deleted leaves a tombstone")
    func updatedThenDeleted() async throws {
        let fake = FakeWhoop(recoveryCount: 1, base: Date().addingTimeInterval(-3600))
        try await WhoopHarness.withServer(fake) { _, client in
            // Given a connected account and a workout WHOOP has just recorded
            let account = try await WhoopHarness.connect(client)
            let start = Date().addingTimeInterval(-7200)
            try await fake.upsert("workout", json: FakeWhoop.workoutJSON(id: Self.workoutID, start: start, end: start.addingTimeInterval(1800)))
            let id = WhoopRow.id(kind: "workout", whoopID: Self.workoutID)

            // When WHOOP posts the signed notice
            #expect(try await WhoopHarness.webhook(client, type: "workout.updated", id: Self.workoutID).status == .noContent)

            // Then the record is a sync row of the user
            let stored = try #require(try await WhoopHarness.pull(client, token: account.accessToken).first { $0.id == id })
            #expect(!stored.deleted && stored.hlc.deviceID == "server")
            let json = try #require(stored.row["record"]?.stringValue)
            #expect(try WhoopSyncedRecord.decodeWorkout(json).sportName == "running")

            // When WHOOP deletes it and says so
            await fake.remove("workout", id: Self.workoutID)
            #expect(try await WhoopHarness.webhook(client, type: "workout.deleted", id: Self.workoutID).status == .noContent)

            // Then the row is a newer tombstone
            let tombstone = try #require(try await WhoopHarness.pull(client, token: account.accessToken).first { $0.id == id })
            #expect(tombstone.deleted && tombstone.hlc > stored.hlc)
            #expect(tombstone.row["record"]?.stringValue == "{}")
        }
    }

    @Test("recovery.updated names the sleep (v2): the recovery is stored under its cycle, and recovery.deleted tombstones it")
    func recoveryBySleep() async throws {
        let fake = FakeWhoop(recoveryCount: 1, base: Date().addingTimeInterval(-3600))
        try await WhoopHarness.withServer(fake) { _, client in
            let account = try await WhoopHarness.connect(client)
            let sleepID = "5eeb0000-0000-4000-8000-000000000007"
            let end = Date().addingTimeInterval(-600)
            try await fake.upsert("sleep", json: FakeWhoop.sleepJSON(id: sleepID, cycleID: 77, start: end.addingTimeInterval(-8 * 3600), end: end))
            try await fake.upsert("recovery", json: FakeWhoop.recoveryJSON(cycleID: 77, sleepID: sleepID, createdAt: end, score: 71))

            #expect(try await WhoopHarness.webhook(client, type: "recovery.updated", id: sleepID).status == .noContent)
            let id = WhoopRow.id(kind: "recovery", whoopID: "77")
            let stored = try #require(try await WhoopHarness.pull(client, token: account.accessToken).first { $0.id == id })
            #expect(try WhoopSyncedRecord.decodeRecovery(try #require(stored.row["record"]?.stringValue)).score?.recoveryScore == 71)

            #expect(try await WhoopHarness.webhook(client, type: "recovery.deleted", id: sleepID).status == .noContent)
            let tombstone = try #require(try await WhoopHarness.pull(client, token: account.accessToken).first { $0.id == id })
            #expect(tombstone.deleted)
        }
    }

    @Test("a webhook for a WHOOP member connected to no account answers 204 and stores nothing")
    func unknownMember() async throws {
        let fake = FakeWhoop(recoveryCount: 1, base: Date().addingTimeInterval(-3600))
        try await WhoopHarness.withServer(fake) { configuration, client in
            let account = try await WhoopHarness.connect(client)
            let before = try await WhoopHarness.pull(client, token: account.accessToken)
            #expect(try await WhoopHarness.webhook(client, type: "sleep.updated", id: UUID().uuidString, userID: 424242).status == .noContent)
            #expect(try await WhoopHarness.pull(client, token: account.accessToken) == before)
            #expect(try await WhoopHarness.count(configuration, "SELECT count(*) FROM sync_rows") == Int64(before.count))
        }
    }

    @Test("two instances on one PostgreSQL: the same signed webhook delivered to both is applied once, and the second answer says duplicate")
    func replayAcrossInstances() async throws {
        let fake = FakeWhoop(recoveryCount: 1, base: Date().addingTimeInterval(-3600))
        try await FakeWhoop.serve(fake) { base in
            var setup = try await ServerHarness.configuration()
            setup.whoop = WhoopHarness.registration(fake: base)
            let configuration = setup
            // two instances, each built as `wdiet-server` builds itself, with its own connections
            let first = try await buildApplication(configuration: configuration, logger: ServerHarness.logger)
            try await first.test(.live) { one in
                let second = try await buildApplication(configuration: configuration, logger: ServerHarness.logger)
                try await second.test(.live) { two in
                    // Given an account connected through the first instance and a workout at WHOOP
                    let account = try await WhoopHarness.connect(one)
                    let start = Date().addingTimeInterval(-7200)
                    let end = start.addingTimeInterval(1800)
                    try await fake.upsert("workout", json: FakeWhoop.workoutJSON(id: Self.workoutID, start: start, end: end))
                    let id = WhoopRow.id(kind: "workout", whoopID: Self.workoutID)
                    func sport() async throws -> String? {
                        let row = try await WhoopHarness.pull(two, token: account.accessToken).first { $0.id == id }
                        return try row.flatMap { $0.row["record"]?.stringValue }.map { try WhoopSyncedRecord.decodeWorkout($0).sportName }
                    }

                    // When WHOOP's notice reaches the first instance, the workout changes at WHOOP,
                    // and the same delivery (replayed) reaches the second
                    let (headers, body) = FakeWhoop.signedWebhook(type: "workout.updated", id: Self.workoutID, secret: WhoopHarness.secret)
                    let applied = try await one.execute(uri: WhoopPaths.webhook, method: .post, headers: headers, body: body) { $0 }
                    #expect(applied.status == .noContent)
                    #expect(try await sport() == "running")
                    try await fake.upsert("workout", json: FakeWhoop.workoutJSON(id: Self.workoutID, start: start, end: end, sport: "cycling"))
                    let replayed = try await two.execute(uri: WhoopPaths.webhook, method: .post, headers: headers, body: body) { $0 }

                    // Then the second answer says duplicate and nothing was applied again
                    #expect(replayed.status == .ok)
                    let answer = try JSONDecoder().decode([String: String].self, from: Data(String(buffer: replayed.body).utf8))
                    #expect(answer["status"] == "duplicate")
                    #expect(try await sport() == "running")

                    // When a new delivery reaches both instances at the same moment, exactly one applies it
                    let (newHeaders, newBody) = FakeWhoop.signedWebhook(type: "workout.updated", id: Self.workoutID, secret: WhoopHarness.secret)
                    async let a = one.execute(uri: WhoopPaths.webhook, method: .post, headers: newHeaders, body: newBody) { $0.status }
                    async let b = two.execute(uri: WhoopPaths.webhook, method: .post, headers: newHeaders, body: newBody) { $0.status }
                    let statuses = try await [a, b]
                    #expect(statuses.sorted { $0.code < $1.code } == [.ok, .noContent])
                    #expect(try await sport() == "cycling")
                    #expect(try await WhoopHarness.count(configuration, "SELECT count(*) FROM whoop_webhook_traces") == 2)
                }
            }
        }
    }

    @Test("trace ids are forgotten after the replay window: WHOOP's fresh signing of an old trace id is applied, the old rows are pruned")
    func tracesArePruned() async throws {
        let fake = FakeWhoop(recoveryCount: 1, base: Date().addingTimeInterval(-3600))
        try await WhoopHarness.withServer(fake) { configuration, client in
            let account = try await WhoopHarness.connect(client)
            let start = Date().addingTimeInterval(-7200)
            try await fake.upsert("workout", json: FakeWhoop.workoutJSON(id: Self.workoutID, start: start, end: start.addingTimeInterval(1800)))
            let trace = UUID().uuidString
            let (headers, body) = FakeWhoop.signedWebhook(type: "workout.updated", id: Self.workoutID, secret: WhoopHarness.secret, traceID: trace)
            #expect(try await client.execute(uri: WhoopPaths.webhook, method: .post, headers: headers, body: body) { $0.status } == .noContent)
            #expect(try await client.execute(uri: WhoopPaths.webhook, method: .post, headers: headers, body: body) { $0.status } == .ok)

            // When the trace was received longer ago than the window, and another old one lies about
            let window = Int(WhoopWebhookVerifier.replayWindow) + 60
            try await WhoopHarness.execute(configuration, "UPDATE whoop_webhook_traces SET received_at = now() - interval '\(window) seconds'")
            try await WhoopHarness.execute(
                configuration,
                "INSERT INTO whoop_webhook_traces (trace_id, received_at) VALUES ('old-trace', now() - interval '\(window) seconds')"
            )
            let (fresh, freshBody) = FakeWhoop.signedWebhook(type: "workout.updated", id: Self.workoutID, secret: WhoopHarness.secret, traceID: trace)

            // Then a fresh signing of that trace id is applied, and only it is remembered
            #expect(try await client.execute(uri: WhoopPaths.webhook, method: .post, headers: fresh, body: freshBody) { $0.status } == .noContent)
            #expect(try await WhoopHarness.count(configuration, "SELECT count(*) FROM whoop_webhook_traces") == 1)
            let workout = WhoopRow.id(kind: "workout", whoopID: Self.workoutID)
            #expect(try await WhoopHarness.pull(client, token: account.accessToken).contains { $0.id == workout })
        }
    }
}
