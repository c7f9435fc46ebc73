import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import ServerTestSupport
import SyncProtocol
import Testing

@testable import DietServer

@Suite("Tokens, methods and failures as the document says")
struct ServerBehaviourTests {
    @Test("an access token signed with the right key but made to live for years is refused")
    func longLivedTokenIsRefused() async throws {
        try await ServerHarness.withServer { configuration, client in
            // Given
            let anna = try await client.signup("anna@example.org")
            let keys = JWTKeyCollection()
            await keys.add(hmac: HMACKey(from: configuration.jwtSecret), digestAlgorithm: .sha256)
            let tenYears = try await keys.sign(
                TestClaims(
                    sub: anna.userID.uuidString,
                    sid: anna.sessionID.uuidString,
                    exp: Date().addingTimeInterval(10 * 365 * 86400)
                )
            )
            let normal = try await keys.sign(
                TestClaims(
                    sub: anna.userID.uuidString,
                    sid: anna.sessionID.uuidString,
                    exp: Date().addingTimeInterval(600)
                )
            )
            // When
            let forged = try await client.send(.get, SyncPaths.pull, token: tenYears)
            let control = try await client.send(.get, SyncPaths.pull, token: normal)
            // Then
            #expect(forged.status == .unauthorized)
            #expect(control.status == .ok)
        }
    }

    @Test("HEAD on a GET route answers like GET, without a body")
    func headAnswersLikeGet() async throws {
        try await ServerHarness.withServer { _, client in
            let token = try await client.signup("anna@example.org").accessToken
            // When
            let health = try await client.send(.head, "/health")
            let pull = try await client.send(.head, SyncPaths.pull, token: token)
            let unauthorised = try await client.send(.head, SyncPaths.pull)
            // Then
            #expect(health.status == .ok)
            #expect(health.body.readableBytes == 0)
            #expect(pull.status == .ok)
            #expect(unauthorised.status == .unauthorized)
        }
    }

    @Test("a wrong method on a known path answers 405 with Allow; an unknown path 404, both with the API's error body")
    func wrongMethodAndUnknownPath() async throws {
        try await ServerHarness.withServer { _, client in
            // When
            let wrongMethod = try await client.send(.put, SyncPaths.push)
            let deviceDelete = try await client.send(.patch, AccountPaths.devices + "/\(UUID())")
            let unknown = try await client.send(.get, "/v1/nothing-here")
            // Then
            #expect(wrongMethod.status == .methodNotAllowed)
            #expect(wrongMethod.headers[.allow] == "POST")
            #expect(wrongMethod.errorBody?.error.code == "method_not_allowed")
            #expect(deviceDelete.status == .methodNotAllowed)
            #expect(deviceDelete.headers[.allow] == "DELETE")
            #expect(unknown.status == .notFound)
            #expect(unknown.errorBody?.error.code == "not_found")
        }
    }

    @Test("a 500 is logged as an error with its request id and the kind of failure, never the token; the body names the request")
    func serverErrorsAreLogged() async throws {
        // Given: a server whose log is kept, and a table the app role can no longer read
        let records = LogRecords()
        let logger = Logger(label: "wdiet-server-tests") { _ in records.handler() }
        let configuration = try await ServerHarness.configuration()
        let app = try await buildApplication(configuration: configuration, logger: logger)
        try await app.test(.router) { client in
            let token = try await client.signup("anna@example.org").accessToken
            _ = try await ServerHarness.withConnection(configuration.migrationDatabaseURL) { connection in
                try await connection.query("REVOKE SELECT ON sync_rows FROM wdiet_app", logger: ServerHarness.logger)
            }
            // When
            let response = try await client.send(.get, SyncPaths.pull, token: token)
            // Then
            #expect(response.status == .internalServerError)
            #expect(response.errorBody?.error.code == "internal_error")
            let errors = records.all.filter { $0.level == .error && $0.message == "request failed" }
            #expect(errors.count == 1)
            let entry = try #require(errors.first)
            let requestID = try #require(entry.metadata["hb.request.id"])
            #expect(response.errorBody?.error.message.contains("\(requestID)") == true)
            #expect(entry.metadata["sql_state"] == "42501")
            #expect(entry.metadata["path"] == "\(SyncPaths.pull)")
            #expect(!records.all.contains { "\($0.message) \($0.metadata)".contains(token) })
        }
    }
}

/// Log records kept in memory, for tests that check what the server logs.
final class LogRecords: Sendable {
    struct Record: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
    }

    private let records = NIOLockedValueBox<[Record]>([])

    var all: [Record] { records.withLockedValue { $0 } }

    func handler() -> some LogHandler { Handler(records: self) }

    func append(_ record: Record) { records.withLockedValue { $0.append(record) } }

    private struct Handler: LogHandler {
        let records: LogRecords
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            records.append(Record(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
        }
    }
}
