import Foundation
import PostgresNIO
import ServerTestSupport
import SyncProtocol
import Synchronization
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A failed primary loses no acknowledged change: the real `wdiet-server` on the primary of
/// `scripts/with-postgres-standby` (synchronous_commit=on, the standby named in
/// synchronous_standby_names), the primary killed during a burst of pushes while they wait
/// for the standby's confirmation, the standby promoted, and a server started on it serves
/// every change a push acknowledged.
@Suite(
    "Failover to the synchronous standby",
    .serialized,
    .enabled(
        if: Standby.isAvailable,
        "needs the primary and synchronous standby of scripts/with-postgres-standby (WDIET_TEST_STANDBY_URL is unset)"
    )
)
struct FailoverTests {
    @Test("the primary killed mid-burst: after promoting the standby every acknowledged change is there and pushes go on")
    func acknowledgedChangesSurviveFailover() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: E2E.server), "build the package first")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-failover-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let admin = try ServerHarness.adminURL()
        let primary = PostgresAddress(host: admin.host, port: admin.port)
        let standby = try PostgresAddress(parsing: try #require(Standby.url))
        let database = "failover_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        _ = try await E2E.withConnection(database: "postgres") { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(database)"), logger: E2E.logger)
        }

        // Given two instances on the primary, started at once (their migrations take turns)…
        let instances = [
            FailoverServer(name: "a", postgres: primary, database: database, folder: folder),
            FailoverServer(name: "b", postgres: primary, database: database, folder: folder),
        ]
        defer { for instance in instances { instance.stop() } }
        for instance in instances { try instance.launch() }
        for instance in instances { try await instance.waitUntilHealthy() }
        // …and four clients, each of its own account, signed up through alternating instances.
        var clients: [BurstClient] = []
        for index in 0..<4 {
            let tokens = try await HTTP.signup(server: instances[index % 2].url, email: "failover\(index)@example.org", device: "device\(index)")
            clients.append(BurstClient(device: "device\(index)", accessToken: tokens.accessToken, servers: instances.map { $0.url }))
        }

        // When they push bursts of new meals and the primary is killed once 200 changes were acknowledged.
        let ledger = Ledger()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { await client.burst(into: ledger) } }
            while await ledger.acknowledgedCount < 200 {
                let early = await ledger.failures
                try #require(early.isEmpty, "a push failed before the primary was killed: \(early)")
                try await Task.sleep(nanoseconds: 5_000_000)
            }
            // The kill lands while pushes wait for the standby: its WAL receiver is paused until
            // the pushes in flight wait on their commits, then killed with the WAL it had not
            // yet read. A dying backend flushes what it buffered for its client, so a push whose
            // rows were sent before its commit would be acknowledged now, and lost.
            let receiver = try #require(try Standby.walReceiver(), "the standby has no WAL receiver")
            try Standby.signal(receiver, SIGSTOP)
            try await Task.sleep(nanoseconds: 300_000_000)
            await ledger.beginKill()
            try Standby.signal(receiver, SIGKILL)
            try Standby.pgCtl(["-D", Standby.primaryData, "-m", "immediate", "-w", "stop"])
            await ledger.markKilled()
            // Their pushes after its death would wait up to a minute for a connection (the pool
            // backs off); the instances go down with it instead, failing those pushes at once.
            for instance in instances { instance.kill() }
            try await group.waitForAll()
        }
        let acknowledged = await ledger.acknowledged
        #expect(await ledger.inFlightAtKill > 0, "no push was under way when the primary was killed")

        // …the standby is promoted and a server started on it.
        try Standby.pgCtl(["-D", Standby.standbyData, "-w", "promote"])
        let successor = FailoverServer(name: "c", postgres: standby, database: database, folder: folder)
        defer { successor.stop() }
        try successor.launch()
        try await successor.waitUntilHealthy()

        // Then every acknowledged change is there, exactly as pushed…
        var served = 0
        for client in clients {
            let pulled = try await HTTP.pullEverything(server: successor.url, accessToken: client.accessToken)
            served += pulled.count
            let lost = acknowledged[client.device, default: []].filter { pulled[$0.id] != $0 }
            #expect(lost.isEmpty, "\(client.device): \(lost.count) acknowledged changes are missing or differ, e.g. \(lost.prefix(3).map(\.id))")
        }
        let total = acknowledged.values.map(\.count).reduce(0, +)
        #expect(total >= 200)
        #expect(served >= total)
        // …and the promoted database takes new pushes.
        let after = clients[0].nextBatch(size: 3)
        let results = try await HTTP.push(after, server: successor.url, accessToken: clients[0].accessToken)
        #expect(results.map { $0.status } == [PushStatus.applied, .applied, .applied])
        let pulled = try await HTTP.pullEverything(server: successor.url, accessToken: clients[0].accessToken)
        #expect(after.changes.allSatisfy { pulled[$0.id] == $0 })
    }
}

/// What `scripts/with-postgres-standby` exports.
enum Standby {
    static let environment = ProcessInfo.processInfo.environment
    static var url: String? { environment["WDIET_TEST_STANDBY_URL"] }
    static var isAvailable: Bool { url != nil }
    static var primaryData: String { environment["WDIET_TEST_PRIMARY_DATA"] ?? "" }
    static var standbyData: String { environment["WDIET_TEST_STANDBY_DATA"] ?? "" }

    /// The standby's WAL receiver: the child of the standby's postmaster (the first line of
    /// its postmaster.pid) whose title names it.
    static func walReceiver() throws -> pid_t? {
        let pidFile = try String(contentsOfFile: standbyData + "/postmaster.pid", encoding: .utf8)
        let postmaster = try #require(pidFile.split(separator: "\n").first.flatMap { pid_t($0) }, "no pid in the standby's postmaster.pid")
        for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc") {
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let command = try? String(contentsOfFile: "/proc/\(entry)/cmdline", encoding: .utf8)
            else { continue }
            // stat: "pid (name) state ppid …"; the name may hold spaces, so read after its ")".
            let fields = stat[(stat.lastIndex(of: ")") ?? stat.startIndex)...].split(separator: " ")
            if fields.count > 2, pid_t(fields[2]) == postmaster, command.contains("walreceiver") { return pid }
        }
        return nil
    }

    /// Sends `signal` to `pid` and fails when it cannot.
    static func signal(_ pid: pid_t, _ signal: Int32) throws {
        try #require(kill(pid, signal) == 0, "kill(\(pid), \(signal)) failed: errno \(errno)")
    }

    /// Runs the script's pg_ctl (as the clusters' owner) and fails on a non-zero exit.
    static func pgCtl(_ arguments: [String]) throws {
        let pgCtl = try #require(environment["WDIET_TEST_PG_CTL"], "WDIET_TEST_PG_CTL is unset")
        let output = try ChildProcess.run(URL(fileURLWithPath: pgCtl), arguments)
        try #require(output.status == 0, "pg_ctl \(arguments.joined(separator: " ")): \(output.stdout)\(output.stderr)")
    }
}

/// The changes each client saw acknowledged, the pushes that failed, and whether the primary is gone.
actor Ledger {
    private(set) var acknowledged: [String: [Change]] = [:]
    private(set) var failures: [String] = []
    private(set) var killing = false
    private(set) var killed = false

    /// Until the kill is done; before it began, only while no push failed.
    var keepPushing: Bool { !killed && (failures.isEmpty || killing) }

    var acknowledgedCount: Int { acknowledged.values.map(\.count).reduce(0, +) }

    /// Pushes under way now, and when the kill began.
    private var inFlight = 0
    private(set) var inFlightAtKill = 0

    func started() {
        inFlight += 1
    }

    func record(_ changes: [Change], results: [PushResult], device: String) {
        inFlight -= 1
        let applied = Set(results.filter { $0.status == .applied }.map(\.id))
        acknowledged[device, default: []] += changes.filter { applied.contains($0.id) }
    }

    func fail(_ reason: String) {
        inFlight -= 1
        failures.append(reason)
    }

    /// The kill begins: the clients go on pushing until it is done.
    func beginKill() {
        inFlightAtKill = inFlight
        killing = true
    }

    func markKilled() {
        killed = true
    }
}

/// A device pushing batches of new meals as fast as it can, alternating between instances.
final class BurstClient: Sendable {
    let device: String
    let accessToken: String
    let servers: [URL]
    private let counter = Counter()

    init(device: String, accessToken: String, servers: [URL]) {
        self.device = device
        self.accessToken = accessToken
        self.servers = servers
    }

    /// Pushes until the primary has been killed, finishing the push in flight then (pushes
    /// started after its death fail when the test kills their instances). A failure before
    /// the kill ends every client's burst (the test then fails on it).
    func burst(into ledger: Ledger) async {
        var turn = 0
        while await ledger.keepPushing {
            let request = nextBatch(size: 5)
            turn += 1
            await ledger.started()
            do {
                let results = try await HTTP.push(request, server: servers[turn % servers.count], accessToken: accessToken)
                await ledger.record(request.changes, results: results, device: device)
            } catch {
                await ledger.fail("\(device): \(error)")
            }
        }
    }

    /// A push of `size` new meals with increasing HLCs.
    func nextBatch(size: Int) -> PushRequest {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let changes = (0..<size).map { _ in
            Change(
                table: .mealLogs,
                id: UUID(),
                hlc: HLC(wallMs: now, counter: counter.next(), deviceID: device),
                deleted: false,
                row: .object([
                    "name": .string("Burst meal"), "kcal": .number(420), "logged_at": .string("2026-11-24T08:00:00.000Z"),
                    "local_date": .string("2026-11-24"), "local_time": .string("09:00"),
                    "time_zone": .string("Europe/Berlin"), "created_at": .string("2026-11-24T08:00:00.000Z"),
                ])
            )
        }
        return PushRequest(deviceID: device, changes: changes)
    }
}

/// A thread-safe counter for HLC counters.
final class Counter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}

/// Where a PostgreSQL cluster listens.
struct PostgresAddress {
    let host: String
    let port: Int

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    init(parsing text: String) throws {
        let components = try #require(URLComponents(string: text), "not an address: \(text)")
        host = try #require(components.host)
        port = components.port ?? 5432
    }
}

/// The sync API over real HTTP, with a time limit per request.
enum HTTP {
    enum Failure: Error {
        case status(Int, String)
    }

    static func signup(server: URL, email: String, device: String) async throws -> TokenResponse {
        let credentials = PasswordCredentials(email: email, password: "correct horse battery", deviceName: device)
        return try await send("POST", try endpoint(server, AccountPaths.signup), body: credentials, expecting: 201)
    }

    static func push(_ request: PushRequest, server: URL, accessToken: String) async throws -> [PushResult] {
        let response: PushResponse = try await send(
            "POST",
            try endpoint(server, SyncPaths.push),
            body: request,
            accessToken: accessToken
        )
        return response.results
    }

    /// Every change the server holds for the caller, by id.
    static func pullEverything(server: URL, accessToken: String) async throws -> [UUID: Change] {
        var changes: [UUID: Change] = [:]
        var cursor: Int64 = 0
        while true {
            let url = try endpoint(server, SyncPaths.pull + "?cursor=\(cursor)&limit=500")
            let page: PullResponse = try await send("GET", url, body: String?.none, accessToken: accessToken)
            for change in page.changes { changes[change.id] = change }
            cursor = page.nextCursor
            if !page.hasMore { return changes }
        }
    }

    private static func endpoint(_ server: URL, _ path: String) throws -> URL {
        try #require(URL(string: server.absoluteString + path))
    }

    private static func send<Body: Encodable, Answer: Decodable>(
        _ method: String,
        _ url: URL,
        body: Body?,
        accessToken: String? = nil,
        expecting expected: Int = 200
    ) async throws -> Answer {
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let accessToken { request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization") }
        if let body { request.httpBody = try JSONEncoder.api.encode(body) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == expected else { throw Failure.status(status, String(decoding: data.prefix(300), as: UTF8.self)) }
        return try JSONDecoder.api.decode(Answer.self, from: data)
    }
}

/// A `wdiet-server` process on a given PostgreSQL and database, its output in a log file.
final class FailoverServer {
    let port = Loopback.freePort()
    private let environment: [String: String]
    private let log: URL
    private var process: ChildProcess.Running?

    var url: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    init(name: String, postgres: PostgresAddress, database: String, folder: URL) {
        let base = "postgres://%@@\(postgres.host):\(postgres.port)/\(database)"
        environment = [
            "WDIET_DATABASE_URL": String(format: base, "wdiet_app"), "WDIET_MIGRATION_DATABASE_URL": String(format: base, "postgres"),
            "WDIET_LISTEN": "127.0.0.1:\(port)", "WDIET_BCRYPT_COST": "4", "WDIET_ENV": "development",
        ]
        log = folder.appendingPathComponent("server-\(name).log")
    }

    /// Starts the process without waiting for it (so several can start at once).
    func launch() throws {
        process = try ChildProcess.start(URL(fileURLWithPath: E2E.server), environment: environment, log: log)
    }

    /// Waits up to 30 s for `/health` to answer 200.
    func waitUntilHealthy() async throws {
        for _ in 0..<300 {
            if let (_, response) = try? await URLSession.shared.data(from: url.appendingPathComponent("health")),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                return
            }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw E2EError.serverDidNotStart((try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    /// SIGKILL: the instance dies at once, its requests in flight cut off.
    func kill() {
        process?.kill()
        process = nil
    }

    /// SIGTERM, and SIGKILL if the graceful shutdown takes over 10 s (its database may be gone).
    func stop() {
        process?.stop(grace: .seconds(10))
        process = nil
    }

    deinit {
        stop()
    }
}
