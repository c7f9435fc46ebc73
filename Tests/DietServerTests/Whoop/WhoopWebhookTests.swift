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
}
