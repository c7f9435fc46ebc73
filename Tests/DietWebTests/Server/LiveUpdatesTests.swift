import AsyncHTTPClient
import DietCore
import DietStore
import DietSync
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import ServerTestSupport
import SyncProtocol
import TestSupport
import Testing

@testable import DietWeb

/// What one `GET /events` received so far, read while the stream stays open.
private actor StreamText {
    private(set) var text = ""
    private(set) var ended = false

    func append(_ chunk: String) { text += chunk }
    func end() { ended = true }
}

/// An open event stream from a real HTTP client: its status and headers, and a reader task
/// collecting the body (cancel it to hang up, as a closed tab does).
private struct OpenStream {
    let status: UInt
    let headers: [String: String]
    let received: StreamText
    let reader: Task<Void, Never>

    static func open(_ http: HTTPClient, port: Int, path: String = "/events") async throws -> OpenStream {
        var request = HTTPClientRequest(url: "http://localhost:\(port)\(path)")
        request.headers.add(name: "Accept", value: "text/event-stream")
        let response = try await http.execute(request, timeout: .seconds(60))
        let received = StreamText()
        let body = response.body
        let reader = Task {
            do {
                for try await chunk in body { await received.append(String(buffer: chunk)) }
            } catch {}
            await received.end()
        }
        let headers = Dictionary(response.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        return OpenStream(status: response.status.code, headers: headers, received: received, reader: reader)
    }

    /// The data of the last event named `name` so far.
    func lastData(of name: String) async -> String? {
        let text = await received.text
        guard let range = text.range(of: "event: \(name)\ndata: ", options: .backwards) else { return nil }
        return String(text[range.upperBound...].prefix { $0 != "\n" })
    }

    /// How many events named `name` arrived so far.
    func count(_ name: String) async -> Int {
        await received.text.components(separatedBy: "event: \(name)\n").count - 1
    }

    /// Whether the body came to hold `text` within `seconds`.
    func receives(_ text: String, within seconds: Double = 30) async -> Bool {
        await eventually(within: seconds) { await received.text.contains(text) }
    }
}

/// The stream a server task opened, for the test to look at afterwards.
private actor Opened {
    private(set) var stream: OpenStream?
    /// When the test let the server go (its graceful shutdown starts then).
    private(set) var released: ContinuousClock.Instant?

    func set(_ stream: OpenStream) {
        self.stream = stream
        released = .now
    }
}

/// The web app on a real loopback port (as `wdiet serve` runs it), a client that may hold
/// many connections to it, and the store file the CLI would open.
private func withLiveServer(_ body: @escaping @Sendable (WebHarness, HTTPClient, Int) async throws -> Void) async throws {
    let harness = try WebHarness()
    defer { harness.remove() }
    try harness.store().completeOnboarding(.alice, timeZone: harness.timeZone)
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
    configuration.redirectConfiguration = .disallow
    let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    do {
        try await Application(router: harness.app.router()).test(.live) { client in
            try await body(harness, http, try #require(client.port))
        }
    } catch {
        try await http.shutdown()
        throw error
    }
    try await http.shutdown()
}

@Suite("Live updates of open pages")
struct LiveUpdatesTests {
    @Test("a meal the CLI logs in another connection to the file reaches an open /events stream as `changed`")
    func cliChangeArrives() async throws {
        try await withLiveServer { harness, http, port in
            // Given a page listening to /events
            let stream = try await OpenStream.open(http, port: port)
            defer { stream.reader.cancel() }
            #expect(stream.status == 200)
            #expect(stream.headers["content-type"]?.hasPrefix("text/event-stream") == true)
            #expect(stream.headers["cache-control"] == "no-store")
            #expect(await stream.receives("retry: "))
            #expect(await stream.receives("event: ready\ndata: "))
            #expect(await !stream.received.text.contains("event: changed"))
            // When the CLI, with a connection of its own, logs a meal
            let cli = try harness.store()
            try cli.logMeal(MealEntry(name: "Porridge", kcal: 420, at: harness.clock.now(), in: harness.timeZone))
            // Then the page hears that the store changed
            #expect(await stream.receives("event: changed\ndata: "))
            #expect(await stream.lastData(of: "changed") != stream.lastData(of: "ready"), "the version moved on")
        }
    }

    @Test("a page that opens its stream after a commit (the page after a form's redirect) is not told of that commit")
    func newStreamSkipsEarlierCommits() async throws {
        try await withLiveServer { harness, http, port in
            // Given one page listening (so the store is being watched)
            let first = try await OpenStream.open(http, port: port)
            defer { first.reader.cancel() }
            #expect(await first.receives("retry: "))
            // When a meal is saved and a new page opens its stream right after
            try harness.store().logMeal(MealEntry(name: "Porridge", kcal: 420, at: harness.clock.now(), in: harness.timeZone))
            let second = try await OpenStream.open(http, port: port)
            defer { second.reader.cancel() }
            // Then the first page hears of the change, the new one (which already shows it) not
            #expect(await first.receives("event: changed"))
            try await Task.sleep(for: .milliseconds(600))
            #expect(await !second.received.text.contains("event: changed"))
            // And a later change reaches both
            try harness.store().logMeal(MealEntry(name: "Apple", kcal: 80, at: harness.clock.now(), in: harness.timeZone))
            #expect(await second.receives("event: changed"))
            #expect(await eventually { await first.count("changed") == 2 })
        }
    }

    @Test("a page back from the background (`?since=` its last version) hears `changed` at once if the store moved on, else nothing")
    func sinceAnnouncesMissedChanges() async throws {
        try await withLiveServer { harness, http, port in
            // Given a page that heard version V, and the CLI logging a meal after it
            let first = try await OpenStream.open(http, port: port)
            defer { first.reader.cancel() }
            #expect(await first.receives("event: ready\ndata: "))
            let old = try #require(await first.lastData(of: "ready"))
            try harness.store().logMeal(MealEntry(name: "Porridge", kcal: 420, at: harness.clock.now(), in: harness.timeZone))
            #expect(await first.receives("event: changed"))
            let current = try #require(await first.lastData(of: "changed"))
            // When pages come back with the old version, the current one, and one of another server run
            let behind = try await OpenStream.open(http, port: port, path: "/events?since=\(old)")
            let upToDate = try await OpenStream.open(http, port: port, path: "/events?since=\(current)")
            let otherRun = try await OpenStream.open(http, port: port, path: "/events?since=x0.\(current.split(separator: ".").last ?? "")")
            defer { for stream in [behind, upToDate, otherRun] { stream.reader.cancel() } }
            // Then those behind hear of it at once, the one up to date does not
            #expect(await behind.receives("event: changed\ndata: \(current)\n\n"))
            #expect(await otherRun.receives("event: changed"))
            #expect(await upToDate.receives("event: ready\ndata: \(current)\n\n"))
            try await Task.sleep(for: .milliseconds(500))
            #expect(await upToDate.count("changed") == 0)
        }
    }

    @Test("beyond 16 open streams the server answers 503 with Retry-After; a page that went away frees its place")
    func capped() async throws {
        try await withLiveServer { _, http, port in
            // Given 16 open streams
            var streams: [OpenStream] = []
            defer { for stream in streams { stream.reader.cancel() } }
            for _ in 0..<16 {
                let stream = try await OpenStream.open(http, port: port)
                #expect(stream.status == 200)
                #expect(await stream.receives("retry: "))
                streams.append(stream)
            }
            // When a 17th page asks, it is refused for now
            let refused = try await OpenStream.open(http, port: port)
            #expect(refused.status == 503)
            #expect(refused.headers["retry-after"] != nil)
            // When one page hangs up, a new one gets its place
            streams[0].reader.cancel()
            let accepted = await eventually {
                guard let stream = try? await OpenStream.open(http, port: port) else { return false }
                if stream.status == 200 { streams.append(stream) }
                return stream.status == 200
            }
            #expect(accepted)
        }
    }

    @Test("a stream whose response was never written (the browser left at once) gives its place back")
    func droppedResponseFreesItsPlace() async throws {
        // Given room for one stream
        let harness = try WebHarness()
        defer { harness.remove() }
        let streams = LiveStreams(changes: StoreChanges(path: harness.databasePath), limit: 1)
        // When its response is dropped before its body ran
        do {
            let dropped = await streams.response(head: false)
            #expect(dropped.status == .ok)
        }
        // Then the next page gets the place
        #expect(await eventually { await streams.response(head: false).status == .ok })
    }

    @Test("the server shuts down promptly while a stream is open, ending the stream")
    func shutsDownWithStreamOpen() async throws {
        // Given an open stream
        let harness = try WebHarness()
        defer { harness.remove() }
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let opened = Opened()
        // When the server is shut down (the test framework's graceful shutdown, as SIGTERM does)
        let finished = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await Application(router: harness.app.router()).test(.live) { client in
                    let stream = try await OpenStream.open(http, port: try #require(client.port))
                    #expect(await stream.receives("retry: "))
                    await opened.set(stream)
                }
                return true
            }
            group.addTask {
                // thirty seconds from the start of the shutdown, however long the start-up took (a
                // server that waits for its streams never stops; the journey measures the real time)
                while await opened.released == nil { try await Task.sleep(for: .milliseconds(50)) }
                try await Task.sleep(for: .seconds(30))
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        // Then it stopped within the time the browser journeys allow, and the stream ended
        #expect(finished, "the server was still running 30 s after its shutdown began")
        let released = try #require(await opened.released)
        #expect(ContinuousClock.now - released < .seconds(30))
        let stream = try #require(await opened.stream)
        #expect(await eventually { await stream.received.ended })
        try await http.shutdown()
    }
}

/// Settings' "sync now" from a client without a browser: the CSRF cookie first, then the form.
private func syncNow(_ http: HTTPClient, port: Int) async throws -> (status: UInt, cookies: [String]) {
    let settings = try await http.execute(HTTPClientRequest(url: "http://localhost:\(port)/settings"), timeout: .seconds(30))
    let cookie = settings.headers["set-cookie"].first { $0.hasPrefix("wdiet_csrf=") }?.split(separator: ";").first.map(String.init) ?? ""
    _ = try await settings.body.collect(upTo: 1 << 20)
    var request = HTTPClientRequest(url: "http://localhost:\(port)/settings/account/sync")
    request.method = .POST
    request.headers.add(name: "Cookie", value: cookie)
    request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
    request.body = .bytes(ByteBuffer(string: "_csrf=" + cookie.dropFirst("wdiet_csrf=".count)))
    let response = try await http.execute(request, timeout: .seconds(60))
    return (response.status.code, response.headers["set-cookie"])
}

@Suite(
    "Live updates after a sync, against a real wdiet-server on PostgreSQL",
    .enabled(if: ProcessInfo.processInfo.environment["WDIET_TEST_POSTGRES_URL"] != nil, "needs scripts/with-postgres")
)
struct LiveSyncTests {
    @Test("a meal the web app's sync pulls from the phone reaches an open /events stream")
    func syncPullArrives() async throws {
        try await ServerHarness.withLiveServer(configure: { $0.bcryptCost = 4 }) { _, server in
            try await withLiveServer { harness, http, port in
                // Given the web app's device in an account, and a phone that saved a meal to it
                let email = "live-\(UUID().uuidString.prefix(8).lowercased())@example.org"
                func credentials(_ device: String) -> PasswordCredentials {
                    PasswordCredentials(email: email, password: "correct horse battery", deviceName: device)
                }
                let web = Synchronizer(store: try harness.store(), file: AccountFile(databasePath: harness.databasePath))
                _ = try await web.signIn(server: server, credentials: credentials("web"), newAccount: true)
                let phoneFolder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-phone-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: phoneFolder) }
                let phonePath = phoneFolder.appendingPathComponent("w-diet.sqlite").path
                let phone = try AppDatabase.open(path: phonePath, clock: harness.clock)
                let phoneSync = Synchronizer(store: phone, file: AccountFile(databasePath: phonePath))
                _ = try await phoneSync.signIn(server: server, credentials: credentials("phone"), newAccount: false)
                if try phone.settings() == nil { try phone.completeOnboarding(.alice, timeZone: harness.timeZone) }
                try phone.logMeal(MealEntry(name: "Linsensuppe", kcal: 520, at: harness.clock.now(), in: harness.timeZone))
                _ = try await phoneSync.sync()
                // and a page listening
                let stream = try await OpenStream.open(http, port: port)
                defer { stream.reader.cancel() }
                #expect(await stream.receives("retry: "))
                // When the web app syncs (settings' "sync now", through its background sync)
                let synced = try await syncNow(http, port: port)
                #expect(synced.status == 303)
                #expect(synced.cookies.contains { $0.hasPrefix("wdiet_flash=synced") }, "\(synced.cookies)")
                // Then the page hears of it, and the phone's meal is in the store
                #expect(await stream.receives("event: changed"))
                let day = LocalDate(harness.clock.now(), in: harness.timeZone)
                #expect(try harness.store().meals(on: day).contains { $0.entry.name == "Linsensuppe" })
            }
        }
    }
}
