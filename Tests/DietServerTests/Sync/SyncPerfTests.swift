import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import SyncProtocol
import Testing

@testable import DietServer

/// The faster push path keeps the old one's meaning: the body decodes to the same changes,
/// rows are written as JSON that reads back as the same value, and the checks that moved
/// into the push statement still hold.
@Suite("Sync push path")
struct SyncPerfTests {
    static let values: [JSONValue] = [
        .null, .bool(true), .bool(false), .number(0), .number(-0.0), .number(1), .number(-42), .number(0.1), .number(1e-5),
        .number(1.5e300), .number(9_007_199_254_740_992), .number(123_456_789_012_345.6), .string(""), .string("Porridge"),
        .string("quote \" backslash \\ slash / tab \t newline \n bell \u{07} nul \u{00}"), .string("Grüße, 你好, 🍎"),
        .array([]), .array([.number(1), .string("a"), .null, .array([.bool(true)])]), .object([:]),
        .object(["nested": .object(["deep": .array([.object(["x": .number(2.5)])])]), "empty": .string("")]),
    ]

    @Test("the push body reader decodes to the same changes as PushRequest's own decoding", arguments: values)
    func pushBodyMatchesPushRequest(value: JSONValue) throws {
        // Given: a body as a device sends it, the value as a field of a row and as the row itself
        let changes = [JSONValue.object(["field": value, "name": .string("x")]), value].enumerated().map { index, row in
            Change(table: .mealLogs, id: UUID(), hlc: HLC(wallMs: Changes.now, counter: index, deviceID: "laptop"), deleted: index == 1, row: row)
        }
        let body = try JSONEncoder.api.encode(PushRequest(deviceID: "laptop", changes: changes))
        // When
        let fast = try #require(PushBodyReader.read(body))
        let reference = try JSONDecoder.api.decode(PushRequest.self, from: body)
        // Then
        #expect(fast.changes == reference.changes)
        #expect(fast.deviceID == reference.deviceID)
    }

    @Test(
        "a body PushRequest refuses is left to PushRequest by the push body reader",
        arguments: [
            #"{"changes":[]}"#, #"{"device_id":"x"}"#, #"{"device_id":"x","changes":[{"table":"meal_logs"}]}"#,
            #"{"device_id":"x","changes":[{"table":"nope","id":"9F8E2C6A-2A7B-4D8E-9C1D-1B2A3C4D5E6F","hlc":"0001763800000000-0000-a","deleted":false,"row":{}}]}"#,
            #"{"device_id":"x","changes":[{"table":"meal_logs","id":"9F8E2C6A-2A7B-4D8E-9C1D-1B2A3C4D5E6F","hlc":"bad","deleted":false,"row":{}}]}"#,
            #"{"device_id":"x","changes":[{"table":"meal_logs","id":"9F8E2C6A-2A7B-4D8E-9C1D-1B2A3C4D5E6F","hlc":"0001763800000000-0000-a","deleted":false,"row":{"a":1e999}}]}"#,
            #"{"device_id":"x","changes":[{"table":"meal_logs","id":"9F8E2C6A-2A7B-4D8E-9C1D-1B2A3C4D5E6F","hlc":"0001763800000000-0000-a","deleted":false,"row":{"a":}}]}"#,
        ]
    )
    func invalidBodiesStayInvalid(body: String) {
        #expect(throws: (any Error).self) { try JSONDecoder.api.decode(PushRequest.self, from: Data(body.utf8)) }
        #expect(PushBodyReader.read(Data(body.utf8)) == nil)
    }

    @Test("a row's JSON text reads back as the same value", arguments: values)
    func rowJSONRoundTrips(value: JSONValue) throws {
        // Given: the value alone and inside an object
        for row in [value, .object(["v": value, "w": .array([value])])] {
            // When
            let text = try RowJSON.text(row)
            // Then
            #expect(try JSONDecoder.api.decode(JSONValue.self, from: Data(text.utf8)) == row, "\(text)")
        }
    }

    @Test("a number JSON cannot hold is refused, not written")
    func nonFiniteNumbersAreRefused() {
        #expect(throws: RowJSON.NotFinite.self) { try RowJSON.text(.object(["kcal": .number(.nan)])) }
        #expect(throws: RowJSON.NotFinite.self) { try RowJSON.text(.array([.number(.infinity)])) }
    }

    @Test("a push from a revoked device is refused with 401 and stores nothing")
    func revokedDeviceCannotPush() async throws {
        try await ServerHarness.withServer { _, client in
            // Given: Anna's phone, revoked from her laptop
            let laptop = try await client.signup("anna@example.org")
            let phone = try await client.login("anna@example.org").decoded(TokenResponse.self)
            #expect(try await client.send(.delete, AccountPaths.devices + "/\(phone.sessionID)", token: laptop.accessToken).status == .noContent)
            // When: the phone pushes with its still unexpired access token
            let meal = Changes.meal(UUID(), name: "Porridge", kcal: 320, at: Changes.now, device: "phone")
            let push = try await client.send(.post, SyncPaths.push, token: phone.accessToken, json: PushRequest(deviceID: "phone", changes: [meal]))
            // Then
            #expect(push.status == .unauthorized)
            let page = try await client.send(.get, SyncPaths.pull, token: laptop.accessToken).decoded(PullResponse.self)
            #expect(page.changes.isEmpty)
        }
    }
}
