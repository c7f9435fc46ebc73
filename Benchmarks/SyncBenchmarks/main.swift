import AsyncHTTPClient
import Foundation
import NIOCore
import SyncProtocol

// Measures the real wdiet-server (release build) on a throwaway PostgreSQL: push and pull
// throughput for one user, small-push latency under 50 concurrent devices for 30 s, and the
// same rows written by one batched INSERT … ON CONFLICT through psql (the practical ceiling).
// Run by scripts/bench inside scripts/with-postgres.

struct Percentiles {
    let samples: [Double]

    func value(_ p: Double) -> Double {
        let sorted = samples.sorted()
        return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    var line: String {
        String(format: "p50 %.2f ms · p95 %.2f ms · p99 %.2f ms · max %.2f ms (n = %d)",
               value(0.5), value(0.95), value(0.99), samples.max() ?? 0, samples.count)
    }
}

enum BenchError: Error {
    case usage, status(String, UInt), serverDidNotStart, psql(String)
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

@discardableResult
func shell(_ executable: String, _ arguments: [String], input: String? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe(), err = Pipe(), stdin = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchError.psql(errors) }
    return output
}

struct API {
    let client: HTTPClient
    let base: String

    func post<Body: Encodable, Response: Decodable>(_ path: String, _ body: Body, token: String? = nil, as: Response.Type) async throws -> Response {
        var request = HTTPClientRequest(url: base + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder.api.encode(body)))
        return try await send(request, path)
    }

    func get<Response: Decodable>(_ path: String, token: String, as: Response.Type) async throws -> Response {
        var request = HTTPClientRequest(url: base + path)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        return try await send(request, path)
    }

    private func send<Response: Decodable>(_ request: HTTPClientRequest, _ path: String) async throws -> Response {
        let response = try await client.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 64 << 20)
        guard response.status.code < 300 else { throw BenchError.status(path, response.status.code) }
        return try JSONDecoder.api.decode(Response.self, from: Data(body.readableBytesView))
    }

    func signup(_ email: String) async throws -> TokenResponse {
        try await post(AccountPaths.signup, PasswordCredentials(email: email, password: "benchmark password", deviceName: "bench"),
                       as: TokenResponse.self)
    }
}

func meals(_ count: Int, device: String, start: Int64) -> [Change] {
    (0..<count).map { index in
        Change(table: .mealLogs, id: UUID(), hlc: HLC(wallMs: start + Int64(index / 100), counter: index % 100, deviceID: device),
               deleted: false, row: .object([
                   "name": .string("Benchmark meal \(index)"), "kcal": .number(Double(200 + index % 600)), "protein_g": .number(20),
                   "carbs_g": .number(30), "fat_g": .number(10), "fiber_g": .null, "logged_at": .string("2026-11-23T12:00:00.000Z"),
                   "local_date": .string("2026-11-23"), "local_time": .string("12:00"), "time_zone": .string("Europe/Berlin"),
                   "food_id": .null, "portion_g": .null, "created_at": .string("2026-11-23T12:00:00.000Z"),
               ]))
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 2, let admin = ProcessInfo.processInfo.environment["WDIET_TEST_POSTGRES_URL"],
      let adminURL = URLComponents(string: admin), let pgPort = adminURL.port
else {
    FileHandle.standardError.write(Data("usage: WDIET_TEST_POSTGRES_URL=… wdiet-sync-bench PATH-TO-wdiet-server\n".utf8))
    exit(2)
}
let psql = "/usr/bin/psql"
let database = "bench_\(getpid())"
try shell(psql, ["-h", "127.0.0.1", "-p", "\(pgPort)", "-U", "postgres", "-d", "postgres", "-qc", "CREATE DATABASE \(database)"])

let port = 20000 + Int(getpid() % 20000)
let server = Process()
server.executableURL = URL(fileURLWithPath: arguments[1])
server.environment = [
    "WDIET_DATABASE_URL": "postgres://wdiet_app@127.0.0.1:\(pgPort)/\(database)",
    "WDIET_MIGRATION_DATABASE_URL": "postgres://postgres@127.0.0.1:\(pgPort)/\(database)",
    "WDIET_LISTEN": "127.0.0.1:\(port)", "WDIET_BCRYPT_COST": "4", "WDIET_LOG_LEVEL": "warning",
    // A throwaway server: the development secrets, and no push rate that would throttle the measurement.
    "WDIET_ENV": "development", "WDIET_PUSH_BYTES_PER_MINUTE": "100000000000",
]
server.standardOutput = FileHandle.nullDevice
try server.run()
defer { server.terminate(); server.waitUntilExit() }

var configuration = HTTPClient.Configuration()
configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
let api = API(client: http, base: "http://127.0.0.1:\(port)")
var ready = false
for _ in 0..<100 where !ready {
    ready = (try? await http.execute(HTTPClientRequest(url: api.base + "/ready"), timeout: .seconds(1)).status.code) == 200
    if !ready { try await Task.sleep(nanoseconds: 100_000_000) }
}
guard ready else { throw BenchError.serverDidNotStart }

let clock = ContinuousClock()
let now = Int64(Date().timeIntervalSince1970 * 1000)
print("wdiet-server (release) on PostgreSQL 15, loopback; \(ProcessInfo.processInfo.activeProcessorCount) cores")

// 1. Push throughput for one user.
let total = 20_000
var pushedRows: [Change] = []
var pushRate500 = 0.0
for batch in [100, 500] {
    let user = try await api.signup("push\(batch)@bench.example")
    let rows = meals(total, device: "bench\(batch)", start: now)
    let started = clock.now
    for chunk in stride(from: 0, to: rows.count, by: batch) {
        let response = try await api.post(SyncPaths.push, PushRequest(deviceID: "bench\(batch)", changes: Array(rows[chunk..<min(rows.count, chunk + batch)])),
                                          token: user.accessToken, as: PushResponse.self)
        precondition(response.results.allSatisfy { $0.status == .applied })
    }
    let elapsed = seconds(clock.now - started)
    print(String(format: "push, batches of %d: %d changes in %.2f s = %.0f changes/s", batch, total, elapsed, Double(total) / elapsed))
    if batch == 500 {
        pushedRows = rows
        pushRate500 = Double(total) / elapsed
    }

    // 2. Pull throughput: everything back, pages of 500.
    if batch == 500 {
        let pullStart = clock.now
        var cursor: Int64 = 0, pulled = 0
        while true {
            let page = try await api.get(SyncPaths.pull + "?cursor=\(cursor)&limit=500", token: user.accessToken, as: PullResponse.self)
            pulled += page.changes.count
            cursor = page.nextCursor
            if !page.hasMore { break }
        }
        let pullElapsed = seconds(clock.now - pullStart)
        print(String(format: "pull, pages of 500: %d changes in %.2f s = %.0f changes/s", pulled, pullElapsed, Double(pulled) / pullElapsed))
    }
}

// 3. The ceiling: the same 20,000 rows in one INSERT … ON CONFLICT through psql.
let ceilingUser = UUID()
var sql = "BEGIN;\nINSERT INTO users (id, email) VALUES ('\(ceilingUser)', 'ceiling@bench.example');\n"
sql += "INSERT INTO sync_rows AS s (user_id, table_name, id, hlc, deleted, row, seq) VALUES\n"
let encoder = JSONEncoder()
sql += try pushedRows.map { change in
    let row = String(decoding: try encoder.encode(change.row), as: UTF8.self).replacingOccurrences(of: "'", with: "''")
    return "('\(ceilingUser)', 'meal_logs', '\(change.id)', '\(change.hlc)', false, '\(row)'::jsonb, nextval('sync_seq'))"
}.joined(separator: ",\n")
sql += "\nON CONFLICT (user_id, table_name, id) DO UPDATE SET hlc = excluded.hlc, deleted = excluded.deleted, row = excluded.row, seq = excluded.seq WHERE s.hlc < excluded.hlc;\nCOMMIT;\n"
let sqlFile = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-ceiling-\(getpid()).sql")
try sql.write(to: sqlFile, atomically: true, encoding: .utf8)
defer { try? FileManager.default.removeItem(at: sqlFile) }
let ceilingStart = clock.now
try shell(psql, ["-h", "127.0.0.1", "-p", "\(pgPort)", "-U", "postgres", "-d", database, "-q", "-v", "ON_ERROR_STOP=1", "-f", sqlFile.path])
let ceilingElapsed = seconds(clock.now - ceilingStart)
print(String(format: "psql ceiling: one INSERT … ON CONFLICT of %d rows in %.2f s = %.0f rows/s (psql start-up included)",
             total, ceilingElapsed, Double(total) / ceilingElapsed))
print(String(format: "server push (batches of 500) / psql ceiling = %.2f", pushRate500 / (Double(total) / ceilingElapsed)))

// 4. Latency of a small push (3 changes) with 50 concurrent devices of 50 users for 30 s.
let devices = 50
var users: [TokenResponse] = []
for index in 0..<devices { users.append(try await api.signup("device\(index)@bench.example")) }
let deadline = clock.now + .seconds(30)
let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
    for (index, user) in users.enumerated() {
        group.addTask {
            var samples: [Double] = []
            var round = 0
            while clock.now < deadline {
                round += 1
                let changes = meals(3, device: "dev\(index)", start: now + Int64(round * 10))
                let started = clock.now
                _ = try await api.post(SyncPaths.push, PushRequest(deviceID: "dev\(index)", changes: changes), token: user.accessToken,
                                       as: PushResponse.self)
                samples.append(seconds(clock.now - started) * 1000)
            }
            return samples
        }
    }
    var all: [Double] = []
    for try await samples in group { all += samples }
    return all
}
print("small push (3 changes), 50 devices for 30 s: \(Percentiles(samples: latencies).line)")
print(String(format: "  = %.0f pushes/s", Double(latencies.count) / 30))
try await http.shutdown().get()
