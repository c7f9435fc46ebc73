import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ServerTestSupport
import SyncProtocol
import Synchronization
import Testing
import WhoopTestSupport

@testable import DietServer

/// The lines a server logged, as `JSONLogHandler` wrote them.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    func logger(level: Logger.Level) -> Logger {
        Logger(label: "wdiet-server") { label in
            var handler = JSONLogHandler(label: label) { data in self.lines.withLock { $0.append(String(decoding: data, as: UTF8.self)) } }
            handler.logLevel = level
            return handler
        }
    }

    var text: String { lines.withLock { $0.joined() } }
    var count: Int { lines.withLock { $0.count } }

    /// The lines from `index` on, each as its JSON object.
    func objects(from index: Int = 0) throws -> [[String: Any]] {
        try lines.withLock { Array($0[index...]) }.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// Runs `body` against a server on a fresh database that logs here at `level`.
    func withServer(
        level: Logger.Level,
        configure adjust: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var configuration = try await ServerHarness.configuration()
        adjust(&configuration)
        let app = try await buildApplication(configuration: configuration, logger: logger(level: level))
        try await app.test(.router) { client in try await body(client) }
    }
}

extension [String: Any] {
    var requestID: String? { (self["metadata"] as? [String: Any])?["hb.request.id"] as? String }
}

@Suite("Structured logs")
struct LoggingTests {
    static let requestIDHeader = HTTPField.Name("X-Request-ID")

    @Test("every line of a request carries its id, which the response echoes; a well-formed X-Request-ID is kept")
    func requestIDOnEveryLine() async throws {
        let capture = LogCapture()
        try await capture.withServer(level: .info) { client in
            // Given an account.
            let tokens = try await client.signup("anna@example.org")
            let header = try #require(Self.requestIDHeader)
            // When it deletes itself, naming its own request id.
            let start = capture.count
            let response = try await client.execute(
                uri: AccountPaths.account,
                method: .delete,
                headers: [.authorization: "Bearer \(tokens.accessToken)", header: "client-42.a_b:c"]
            )
            // Then the response and every line logged meanwhile carry that id.
            #expect(response.status == .noContent)
            #expect(response.headers[header] == "client-42.a_b:c")
            let lines = try capture.objects(from: start)
            #expect(lines.map { $0["message"] as? String }.contains("account deleted"))
            #expect(lines.map { $0["message"] as? String }.contains("request"))
            #expect(lines.allSatisfy { $0.requestID == "client-42.a_b:c" })
        }
    }

    @Test("the WHOOP lines of a callback and a webhook carry their request's id")
    func requestIDOnWhoopLines() async throws {
        let capture = LogCapture()
        let fake = FakeWhoop(recoveryCount: 1, base: Date().addingTimeInterval(-3600))
        try await FakeWhoop.serve(fake) { base in
            try await capture.withServer(level: .info, configure: { $0.whoop = WhoopHarness.registration(fake: base) }) { client in
                let header = try #require(Self.requestIDHeader)
                let account = try await client.signup("anna@example.org")
                let state = try await WhoopHarness.start(client, token: account.accessToken)
                var start = capture.count
                let page = try await client.execute(
                    uri: WhoopPaths.callback + "?code=good-code&state=\(state)",
                    method: .get,
                    headers: [header: "callback-1"]
                )
                #expect(page.status == .ok)
                var lines = try capture.objects(from: start)
                #expect(lines.contains { $0["message"] as? String == "WHOOP connected" })
                #expect(lines.allSatisfy { $0.requestID == "callback-1" }, "\(lines)")

                start = capture.count
                var (headers, body) = FakeWhoop.signedWebhook(
                    type: "sleep.updated",
                    id: UUID().uuidString,
                    userID: 424242,
                    secret: WhoopHarness.secret
                )
                headers[header] = "webhook-1"
                #expect(try await client.execute(uri: WhoopPaths.webhook, method: .post, headers: headers, body: body).status == .noContent)
                lines = try capture.objects(from: start)
                #expect(lines.contains { $0["message"] as? String == "WHOOP webhook for a member not connected here" })
                #expect(lines.allSatisfy { $0.requestID == "webhook-1" }, "\(lines)")
            }
        }
    }

    @Test("an ill-formed X-Request-ID is replaced by a generated one, in the log and the response")
    func invalidRequestIDReplaced() async throws {
        let capture = LogCapture()
        try await capture.withServer(level: .info) { client in
            let header = try #require(Self.requestIDHeader)
            for bad in ["has space", String(repeating: "a", count: 65), "<script>", "ü-umlaut", ""] {
                let start = capture.count
                let response = try await client.execute(uri: "/health", method: .get, headers: [header: bad])
                let echoed = try #require(response.headers[header])
                #expect(echoed != bad)
                #expect(RequestLogMiddleware.acceptedID(echoed) == echoed)
                let lines = try capture.objects(from: start)
                #expect(!lines.isEmpty)
                #expect(lines.allSatisfy { $0.requestID == echoed })
            }
            // Two requests without the header get two ids.
            let first = try await client.execute(uri: "/health", method: .get).headers[header]
            let second = try await client.execute(uri: "/health", method: .get).headers[header]
            #expect(first != nil && first != second)
        }
    }

    @Test("the log of a sign-up, a sign-in, a refresh and a push of 87.6 kg holds no password, token or weight")
    func noSecretsOrHealthValues() async throws {
        let capture = LogCapture()
        let password = "Sesame-Opens-8812"
        try await capture.withServer(level: .debug) { client in
            // Given a server logging at debug, when an account signs up, signs in, refreshes and pushes a weight…
            let signup = try await client.signup("anna@example.org", password: password)
            let login = try await client.login("anna@example.org", password: password).decoded(TokenResponse.self)
            #expect(try await client.login("anna@example.org", password: password + "x").status == .unauthorized)
            let refreshed = try await client.send(.post, AccountPaths.refresh, json: RefreshRequest(refreshToken: login.refreshToken))
                .decoded(TokenResponse.self)
            let weight = Change(
                table: .weightEntries,
                id: NaturalKey.id(table: .weightEntries, key: "2026-11-24"),
                hlc: HLC(wallMs: Changes.now, counter: 0, deviceID: "phone"),
                deleted: false,
                row: .object([
                    "local_date": .string("2026-11-24"), "weight_kg": .number(87.6),
                    "logged_at": .string("2026-11-24T07:00:00.000Z"), "time_zone": .string("Europe/Berlin"),
                ])
            )
            let push = try await client.send(
                .post,
                SyncPaths.push,
                token: refreshed.accessToken,
                json: PushRequest(deviceID: "phone", changes: [weight])
            ).decoded(PushResponse.self)
            #expect(push.results.map(\.status) == [.applied])
            let pulled = try await client.send(.get, SyncPaths.pull + "?cursor=0", token: refreshed.accessToken)
            #expect(String(buffer: pulled.body).contains("87.6"))
            // …then the log says what happened, and none of the secrets or the weight.
            let log = capture.text
            #expect(log.contains(#""message":"request""#))
            let secrets = [
                password, signup.accessToken, signup.refreshToken, login.accessToken, login.refreshToken,
                refreshed.accessToken, refreshed.refreshToken, "87.6",
            ]
            for secret in secrets { #expect(!log.contains(secret), "the log holds \(secret.prefix(12))…") }
            // Nor the secret halves of the tokens alone.
            for token in [signup.refreshToken, login.refreshToken, refreshed.refreshToken] {
                #expect(!log.contains(String(token.split(separator: ".").last ?? "")))
            }
        }
    }

    @Test("JSON lines are objects with time, level, label, message and metadata")
    func jsonLineShape() throws {
        let capture = LogCapture()
        var logger = capture.logger(level: .info)
        logger[metadataKey: "component"] = "tests"
        logger.info("hello \"world\"\nsecond line", metadata: ["nested": ["a": "1", "list": ["x", "y"]]])
        logger.debug("below the level")
        #expect(capture.count == 1)
        #expect(capture.text.hasSuffix("\n") && capture.text.split(separator: "\n").count == 1)
        let object = try #require(try capture.objects().first)
        #expect(object["level"] as? String == "info")
        #expect(object["label"] as? String == "wdiet-server")
        #expect(object["message"] as? String == "hello \"world\"\nsecond line")
        let time = try #require(object["time"] as? String)
        #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
        let metadata = try #require(object["metadata"] as? [String: Any])
        #expect(metadata["component"] as? String == "tests")
        #expect((metadata["nested"] as? [String: Any])?["list"] as? [String] == ["x", "y"])
    }

    @Test("the log format and level are read from the environment; trace and unknown values are refused")
    func logSettings() throws {
        let base = ["WDIET_ENV": "development"]
        let json = try ServerConfiguration(environment: base.merging(["WDIET_LOG_FORMAT": "json", "WDIET_LOG_LEVEL": "debug"]) { $1 })
        #expect(json.logFormat == .json)
        #expect(json.logLevel == .debug)
        #expect(try ServerConfiguration(environment: base).logFormat == .text)
        #expect(throws: ConfigurationError.invalid("WDIET_LOG_FORMAT", "must be text or json")) {
            try ServerConfiguration(environment: base.merging(["WDIET_LOG_FORMAT": "xml"]) { $1 })
        }
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration(environment: base.merging(["WDIET_LOG_LEVEL": "trace"]) { $1 })
        }
    }
}
