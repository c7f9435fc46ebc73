import AsyncHTTPClient
import Foundation
import NIOCore
import SyncProtocol
import TestSupport

// Measures the real wdiet-server (release build) on a throwaway PostgreSQL: push and pull
// throughput for one user, small-push latency under 50 concurrent devices (10 accounts of 5
// devices each) for 30 s, and the same rows written by one batched INSERT … ON CONFLICT
// through psql (the practical ceiling). Push, pull and ceiling are measured in rounds,
// interleaved, and reported as medians: the machine is shared.
// Run by scripts/bench inside scripts/with-postgres.
//
// Environment: WDIET_BENCH_ROUNDS (3), WDIET_BENCH_LATENCY_SECONDS (30).

let arguments = CommandLine.arguments
let environment = ProcessInfo.processInfo.environment
guard arguments.count == 2, let admin = environment["WDIET_TEST_POSTGRES_URL"],
    let adminURL = URLComponents(string: admin), let pgPort = adminURL.port
else {
    FileHandle.standardError.write(Data("usage: WDIET_TEST_POSTGRES_URL=… wdiet-sync-bench PATH-TO-wdiet-server\n".utf8))
    exit(2)
}
let rounds = min(8, max(1, Int(environment["WDIET_BENCH_ROUNDS"] ?? "") ?? 3))
let latencySeconds = max(1, Int(environment["WDIET_BENCH_LATENCY_SECONDS"] ?? "") ?? 30)
let psql = "/usr/bin/psql"
let database = "bench_\(getpid())"
try shell(psql, ["-h", "127.0.0.1", "-p", "\(pgPort)", "-U", "postgres", "-d", "postgres", "-qc", "CREATE DATABASE \(database)"])

let port = 20000 + Int(getpid() % 20000)
// Its output goes to a file, shown if it is not empty when the benchmark ends.
let serverLog = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-sync-bench-server-\(getpid()).log")
let server = try ChildProcess.start(
    URL(fileURLWithPath: arguments[1]),
    environment: [
        "WDIET_DATABASE_URL": "postgres://wdiet_app@127.0.0.1:\(pgPort)/\(database)",
        "WDIET_MIGRATION_DATABASE_URL": "postgres://postgres@127.0.0.1:\(pgPort)/\(database)",
        "WDIET_LISTEN": "127.0.0.1:\(port)", "WDIET_BCRYPT_COST": "4", "WDIET_LOG_LEVEL": "warning",
        // A throwaway server: the development secrets, and no push rate that would throttle the measurement.
        "WDIET_ENV": "development", "WDIET_PUSH_BYTES_PER_MINUTE": "100000000000",
    ],
    log: serverLog
)
defer {
    server.stop()
    if !server.output.isEmpty { FileHandle.standardError.write(Data(server.output.utf8)) }
    try? FileManager.default.removeItem(at: serverLog)
}

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
let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
print(
    "wdiet-server (release) on PostgreSQL 15, loopback; \(ProcessInfo.processInfo.activeProcessorCount) cores; load average \(load); \(rounds) rounds"
)

// Ten accounts: a server allows ten sign-ups per address an hour, and people sync several
// devices to one account. Account 0 measures batches of 100, accounts 1… one round each of
// batches of 500; then every account's five devices push small changes at once.
let accounts = 10
var owners: [TokenResponse] = []
for index in 0..<accounts { owners.append(try await api.signup("account\(index)@bench.example")) }

/// Pushes `rows` in batches of `batch` as one device; changes per second.
func pushAll(_ rows: [Change], batch: Int, device: String, token: String) async throws -> Double {
    let bodies = try stride(from: 0, to: rows.count, by: batch).map { chunk in
        ByteBuffer(bytes: try JSONEncoder.api.encode(PushRequest(deviceID: device, changes: Array(rows[chunk..<min(rows.count, chunk + batch)]))))
    }
    let started = clock.now
    for body in bodies {
        let response = try await api.post(SyncPaths.push, encoded: body, token: token, as: PushResponse.self)
        precondition(response.results.allSatisfy { $0.status == .applied })
    }
    return Double(rows.count) / seconds(clock.now - started)
}

/// Pulls everything of an account in pages of 500; changes per second.
func pullAll(token: String, expecting count: Int) async throws -> Double {
    let started = clock.now
    var cursor: Int64 = 0
    var pulled = 0
    while true {
        let page = try await api.get(SyncPaths.pull + "?cursor=\(cursor)&limit=500", token: token, as: PageSummary.self)
        pulled += page.changes.count
        cursor = page.nextCursor
        if !page.hasMore { break }
    }
    precondition(pulled == count, "pulled \(pulled) of \(count)")
    return Double(pulled) / seconds(clock.now - started)
}

// 1. Throughput of one user: 20,000 meals pushed, pulled back, and written by psql. The push
// bodies are encoded before the clock starts, as the psql ceiling's SQL is; pulled rows are
// counted, not decoded (the benchmark's own JSON work is not the server's throughput).
let total = 20_000
let ceiling = Ceiling(psql: psql, port: pgPort, database: database)
let push100 = try await pushAll(meals(total, device: "bench100", start: now), batch: 100, device: "bench100", token: owners[0].accessToken)
print(String(format: "push, batches of 100: %d changes = %.0f changes/s", total, push100))
var pushRates: [Double] = []
var pullRates: [Double] = []
var ceilings: [Double] = []
var batchCeilings: [Double] = []
for round in 0..<rounds {
    let rows = meals(total, device: "bench500r\(round)", start: now)
    pushRates.append(try await pushAll(rows, batch: 500, device: "bench500r\(round)", token: owners[1 + round].accessToken))
    pullRates.append(try await pullAll(token: owners[1 + round].accessToken, expecting: total))
    ceilings.append(try ceiling.oneStatement(rows))
    batchCeilings.append(try ceiling.batches(rows, of: 500))
    print(
        String(
            format: "  round %d: push (500) %.0f/s · pull (500) %.0f/s · psql one INSERT %.0f rows/s · psql INSERTs of 500 %.0f rows/s",
            round + 1,
            pushRates[round],
            pullRates[round],
            ceilings[round],
            batchCeilings[round]
        )
    )
}
let pushRate = median(pushRates)
let pullRate = median(pullRates)
let ceilingRate = median(ceilings)
print(String(format: "push, batches of 500: %d changes = %.0f changes/s (median)", total, pushRate))
print(String(format: "pull, pages of 500: %d changes = %.0f changes/s (median)", total, pullRate))
print(String(format: "psql ceiling: one INSERT … ON CONFLICT of %d rows = %.0f rows/s (median; psql start-up included)", total, ceilingRate))
print(
    String(
        format: "psql, the same rows as INSERTs of 500 in their own transactions = %.0f rows/s (median; for comparison)",
        median(batchCeilings)
    )
)

// 2. Latency of a small push (3 changes) from 50 devices at once: 10 accounts × 5 devices,
// each device signed in with a session of its own.
let devicesPerAccount = 5
var devices: [(name: String, token: String)] = []
for account in 0..<accounts {
    for device in 0..<devicesPerAccount {
        let name = "a\(account)d\(device)"
        devices.append((name, try await api.login("account\(account)@bench.example", device: name).accessToken))
    }
}
let deadline = clock.now + .seconds(latencySeconds)
let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
    for device in devices {
        group.addTask {
            var samples: [Double] = []
            var round = 0
            while clock.now < deadline {
                round += 1
                let changes = meals(3, device: device.name, start: now + Int64(round * 10))
                let body = ByteBuffer(bytes: try JSONEncoder.api.encode(PushRequest(deviceID: device.name, changes: changes)))
                let started = clock.now
                _ = try await api.post(SyncPaths.push, encoded: body, token: device.token, as: PushResponse.self)
                samples.append(seconds(clock.now - started) * 1000)
            }
            return samples
        }
    }
    var all: [Double] = []
    for try await samples in group { all += samples }
    return all
}
let small = Percentiles(samples: latencies)
print(
    "small push (3 changes), \(devices.count) devices of \(accounts) accounts for \(latencySeconds) s, each pushing again as soon as answered (saturation): \(small.line)"
)
print(String(format: "  = %.0f pushes/s", Double(latencies.count) / Double(latencySeconds)))

// 3. The same 50 devices at a steady pace instead: each pushes 3 changes every `interval`,
// on its own schedule (starts spread over one interval), whether or not the server keeps up —
// an open loop, so a slow answer cannot slow the arrivals down and hide itself. 50 devices
// every 100 ms is 500 pushes/s, about half of what the server answers at saturation.
let interval = 0.1
let deviceCount = devices.count
let paced = clock.now + .seconds(latencySeconds)
let pacedLatencies = try await withThrowingTaskGroup(of: [Double].self) { group in
    for (index, device) in devices.enumerated() {
        group.addTask {
            var samples: [Double] = []
            var next = clock.now + .milliseconds(Int(interval * 1000) * index / deviceCount)
            var round = 1_000_000
            try await withThrowingTaskGroup(of: Double.self) { pushes in
                while next < paced {
                    try await Task.sleep(until: next, clock: clock)
                    round += 1
                    let changes = meals(3, device: device.name, start: now + Int64(round * 10))
                    let body = ByteBuffer(bytes: try JSONEncoder.api.encode(PushRequest(deviceID: device.name, changes: changes)))
                    pushes.addTask {
                        let started = clock.now
                        _ = try await api.post(SyncPaths.push, encoded: body, token: device.token, as: PushResponse.self)
                        return seconds(clock.now - started) * 1000
                    }
                    next = next + .milliseconds(Int(interval * 1000))
                }
                for try await sample in pushes { samples.append(sample) }
            }
            return samples
        }
    }
    var all: [Double] = []
    for try await samples in group { all += samples }
    return all
}
let steady = Percentiles(samples: pacedLatencies)
print(
    String(
        format: "small push (3 changes), the 50 devices each every %.0f ms (%.0f pushes/s offered) for %d s: ",
        interval * 1000,
        Double(devices.count) / interval,
        latencySeconds
    ) + steady.line
)

print("")
print(String(format: "push ratio (server push, batches of 500 / psql ceiling) = %.2f   (goal ≥ 0.50)", pushRate / ceilingRate))
print(String(format: "pull ratio (server pull, pages of 500 / psql ceiling) = %.2f   (goal ≥ 0.80)", pullRate / ceilingRate))
print(String(format: "small push at 50 devices, saturated: p50 %.1f ms · p99 %.1f ms   (goal p99 < 50 ms)", small.value(0.5), small.value(0.99)))
print(
    String(
        format: "small push at 50 devices, %.0f pushes/s: p50 %.1f ms · p99 %.1f ms   (goal p99 < 50 ms)",
        Double(devices.count) / interval,
        steady.value(0.5),
        steady.value(0.99)
    )
)
try await http.shutdown().get()
