import Foundation
import NIOCore
import Testing
import WhoopTestSupport

@testable import WhoopAPI

@Suite("WHOOP records by id, as sync rows, and webhooks as WHOOP posts them")
struct WhoopRecordTests {
    static func connected(_ base: String) async throws -> WhoopClient {
        let tokens = try await WhoopClient.exchange(code: "good-code", configuration: WhoopClientTests.configuration(base))
        return WhoopClientTests.client(base, tokens: tokens, recorder: Recorder())
    }

    @Test("a cycle, its recovery, a sleep and a workout are read by their ids; an unknown id is notFound")
    func byID() async throws {
        let fake = FakeWhoop(recoveryCount: 3)
        try await FakeWhoop.serve(fake) { base in
            // Given a connection and WHOOP's records of three days
            let client = try await Self.connected(base)
            let sleepID = try #require(try await client.sleeps().last?.id)
            let workoutID = try #require(try await client.workouts().first?.id)

            // When each is read by its id
            let cycle = try await client.cycle(id: 1001)
            let recovery = try await client.recovery(cycleID: 1001)
            let sleep = try await client.sleep(id: sleepID)
            let workout = try await client.workout(id: workoutID)
            let bySleep = try await client.recovery(sleepID: sleepID)

            // Then they are the records of those ids
            #expect(cycle.id == 1001 && cycle.end != nil && cycle.score?.strain == 12.5)
            #expect(recovery.cycleID == 1001 && recovery.score?.recoveryScore == 41)
            #expect(sleep.id == sleepID && sleep.cycleID == 1002)
            #expect(workout.id == workoutID && workout.sportName == "running")
            #expect(bySleep.cycleID == 1002 && bySleep.sleepID == sleepID)
            #expect(try await client.cycle(id: 1000).end == nil)
            await #expect(throws: WhoopError.notFound) { try await client.cycle(id: 99) }
            await #expect(throws: WhoopError.notFound) { try await client.sleep(id: "ecfc6a15-4661-442f-a9a4-f160dd7afae8") }
        }
    }

    @Test("an id that is not a UUID never reaches another path")
    func hostileID() async throws {
        let fake = FakeWhoop(recoveryCount: 1)
        try await FakeWhoop.serve(fake) { base in
            let client = try await Self.connected(base)
            await #expect(throws: WhoopError.notFound) { try await client.workout(id: "../../user/profile/basic") }
            await #expect(throws: WhoopError.notFound) { try await client.sleep(id: "") }
            #expect(await fake.requestedPaths.isEmpty)
        }
    }

    @Test("a record deleted at WHOOP is notFound; an updated one is read as it is now")
    func changedRecords() async throws {
        let fake = FakeWhoop(recoveryCount: 2)
        try await FakeWhoop.serve(fake) { base in
            let client = try await Self.connected(base)
            let created = Date(timeIntervalSince1970: 1_795_100_000)
            try await fake.upsert(
                FakeWhoop.Kind.recovery,
                json: FakeWhoop.recoveryJSON(cycleID: 1000, sleepID: "a1b2c3d4-0000-4000-8000-000000000000", createdAt: created, score: 77)
            )
            await fake.remove(FakeWhoop.Kind.cycle, id: "1001")

            #expect(try await client.recovery(cycleID: 1000).score?.recoveryScore == 77)
            await #expect(throws: WhoopError.notFound) { try await client.cycle(id: 1001) }
            #expect(try await client.cycles().map(\.id) == [1000])
        }
    }

    @Test("each kind becomes a sync record with its id and instant, and its JSON reads back equal")
    func syncedRecords() async throws {
        let fake = FakeWhoop(recoveryCount: 2)
        try await FakeWhoop.serve(fake) { base in
            let client = try await Self.connected(base)
            let recovery = try #require(try await client.recoveries().first)
            let sleep = try #require(try await client.sleeps().first)
            let cycle = try #require(try await client.cycles().last)
            let workout = try #require(try await client.workouts().first)

            let rows = try [WhoopSyncedRecord(recovery), WhoopSyncedRecord(sleep), WhoopSyncedRecord(cycle), WhoopSyncedRecord(workout)]

            #expect(rows.map(\.kind) == ["recovery", "sleep", "cycle", "workout"])
            #expect(rows.map(\.whoopID) == ["1000", sleep.id, "1001", workout.id])
            #expect(rows.map(\.recordedAt) == [recovery.createdAt, sleep.end, cycle.start, workout.end])
            #expect(try WhoopSyncedRecord.decodeRecovery(rows[0].json) == recovery)
            #expect(try WhoopSyncedRecord.decodeSleep(rows[1].json) == sleep)
            #expect(try WhoopSyncedRecord.decodeCycle(rows[2].json) == cycle)
            #expect(try WhoopSyncedRecord.decodeWorkout(rows[3].json) == workout)
            #expect(try WhoopSyncedRecord(WhoopSyncedRecord.decodeSleep(rows[1].json)) == rows[1])
        }
    }

    @Test("a record's JSON has WHOOP's keys, sorted, and keeps the milliseconds of its dates")
    func recordJSON() throws {
        let json =
            #"{"user_id":10129,"updated_at":"2022-04-24T14:25:44.774Z","sleep_id":"123e4567-e89b-12d3-a456-426614174000","score_state":"PENDING_SCORE","cycle_id":93845,"created_at":"2022-04-24T11:25:44.774Z"}"#
        let recovery = try JSONDecoder.whoop.decode(WhoopRecovery.self, from: Data(json.utf8))

        let row = try WhoopSyncedRecord(recovery)

        #expect(
            row.json
                == #"{"created_at":"2022-04-24T11:25:44.774Z","cycle_id":93845,"score_state":"PENDING_SCORE","sleep_id":"123e4567-e89b-12d3-a456-426614174000","updated_at":"2022-04-24T14:25:44.774Z","user_id":10129}"#
        )
        #expect(row.whoopID == "93845" && row.recordedAt == recovery.createdAt)
    }

    @Test("every millisecond of a WHOOP date is the same in the row's JSON")
    func milliseconds() throws {
        for milli in 0..<1000 {
            let stamp = "2026-11-23T05:41:12.\(String(format: "%03d", milli))Z"
            let json =
                #"{"cycle_id":1,"sleep_id":"123e4567-e89b-12d3-a456-426614174000","user_id":1,"created_at":"\#(stamp)","updated_at":"\#(stamp)","score_state":"UNSCORABLE"}"#
            let row = try WhoopSyncedRecord(JSONDecoder.whoop.decode(WhoopRecovery.self, from: Data(json.utf8)))
            #expect(row.json.contains(#""created_at":"\#(stamp)""#), "\(stamp) became \(row.json)")
        }
    }

    @Test("refresh tokens rotate: the old one is refused once used, so a second refresh asks to reconnect")
    func rotation() async throws {
        let fake = FakeWhoop(recoveryCount: 1)
        try await FakeWhoop.serve(fake) { base in
            // Given two clients holding the same tokens (two servers reading one row)
            let tokens = try await WhoopClient.exchange(code: "good-code", configuration: WhoopClientTests.configuration(base))
            let first = WhoopClientTests.client(base, tokens: tokens, recorder: Recorder())
            let second = WhoopClientTests.client(base, tokens: tokens, recorder: Recorder())

            // When both refresh
            try await first.refresh()
            await #expect(throws: WhoopError.reconnectNeeded) { try await second.refresh() }

            // Then WHOOP granted one refresh and refused the reused token
            #expect(await fake.refreshCount == 1)
            #expect(await fake.refusedRefreshes == 1)
            #expect(try await first.profile().userID == 10129)
        }
    }

    @Test("tokens issued for another WHOOP user answer with that user's profile, also after a refresh")
    func users() async throws {
        let fake = FakeWhoop(recoveryCount: 0)
        try await FakeWhoop.serve(fake) { base in
            await fake.setUser(555)
            let client = try await Self.connected(base)
            await fake.setUser(10129)
            try await client.refresh()
            #expect(try await client.profile().userID == 555)
        }
    }

    @Test("the fake's signed webhook is accepted by the verifier with the same secret and refused with another")
    func signedWebhook() throws {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let (headers, body) = FakeWhoop.signedWebhook(
            type: "sleep.updated",
            id: "ecfc6a15-4661-442f-a9a4-f160dd7afae8",
            userID: 42,
            secret: "secret",
            timestamp: now
        )
        let signature = headers.first { $0.name.canonicalName == "x-whoop-signature" }?.value
        let timestamp = headers.first { $0.name.canonicalName == "x-whoop-signature-timestamp" }?.value
        let bytes = Array(body.readableBytesView)

        let event = try WhoopWebhookVerifier(clientSecret: "secret").verify(signature: signature, timestamp: timestamp, body: bytes, now: now)

        #expect(event.type == "sleep.updated" && event.userID == 42 && event.id == "ecfc6a15-4661-442f-a9a4-f160dd7afae8")
        #expect(timestamp == "1795000000000")
        #expect(throws: WebhookError.badSignature) {
            try WhoopWebhookVerifier(clientSecret: "other").verify(signature: signature, timestamp: timestamp, body: bytes, now: now)
        }
    }
}
