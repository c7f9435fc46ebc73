import AsyncHTTPClient
import Foundation
import NIOCore
import SyncProtocol
import TestSupport

// The pieces the sync benchmark is made of: percentiles, a small HTTP client of the server's
// API, psql, and the benchmark's rows.

struct Percentiles {
    let samples: [Double]

    func value(_ p: Double) -> Double {
        let sorted = samples.sorted()
        return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    var line: String {
        String(
            format: "p50 %.2f ms · p95 %.2f ms · p99 %.2f ms · max %.2f ms (n = %d)",
            value(0.5),
            value(0.95),
            value(0.99),
            samples.max() ?? 0,
            samples.count
        )
    }
}

/// The median of a few repeated measurements (the machine is shared: one run can be unlucky).
func median(_ values: [Double]) -> Double {
    Percentiles(samples: values).value(0.5)
}

enum BenchError: Error {
    case usage
    case status(String, UInt, String)
    case serverDidNotStart
    case psql(String)
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

@discardableResult
func shell(_ executable: String, _ arguments: [String]) throws -> String {
    let output = try ChildProcess.run(URL(fileURLWithPath: executable), arguments)
    guard output.status == 0 else { throw BenchError.psql(output.stderr) }
    return output.stdout
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

    /// Posts a body encoded beforehand (the server's time, not the benchmark's encoder, is
    /// what the push rate measures; the psql ceiling's SQL is written beforehand too).
    func post<Response: Decodable>(_ path: String, encoded body: ByteBuffer, token: String, as: Response.Type) async throws -> Response {
        var request = HTTPClientRequest(url: base + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.body = .bytes(body)
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
        guard response.status.code < 300 else {
            throw BenchError.status(path, response.status.code, String(buffer: body))
        }
        return try JSONDecoder.api.decode(Response.self, from: Data(body.readableBytesView))
    }

    static let password = "benchmark password"

    func signup(_ email: String) async throws -> TokenResponse {
        try await post(
            AccountPaths.signup,
            PasswordCredentials(email: email, password: Self.password, deviceName: "bench"),
            as: TokenResponse.self
        )
    }

    /// Another device of an existing account signs in (a session of its own).
    func login(_ email: String, device: String) async throws -> TokenResponse {
        try await post(
            AccountPaths.login,
            PasswordCredentials(email: email, password: Self.password, deviceName: device),
            as: TokenResponse.self
        )
    }

    func push(_ changes: [Change], device: String, token: String) async throws -> PushResponse {
        try await post(SyncPaths.push, PushRequest(deviceID: device, changes: changes), token: token, as: PushResponse.self)
    }
}

/// What the benchmark reads of a pull page: its size, cursor and whether there is more. The
/// rows are counted, not decoded: decoding them would time the benchmark's JSON decoder.
struct PageSummary: Decodable {
    struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    let changes: [Skipped]
    let nextCursor: Int64
    let hasMore: Bool

    enum CodingKeys: String, CodingKey {
        case changes
        case nextCursor = "next_cursor"
        case hasMore = "has_more"
    }
}

/// `count` new meal logs of one device, as a phone would push them.
func meals(_ count: Int, device: String, start: Int64) -> [Change] {
    (0..<count).map { index in
        Change(
            table: .mealLogs,
            id: UUID(),
            hlc: HLC(wallMs: start + Int64(index / 100), counter: index % 100, deviceID: device),
            deleted: false,
            row: .object([
                "name": .string("Benchmark meal \(index)"), "kcal": .number(Double(200 + index % 600)), "protein_g": .number(20),
                "carbs_g": .number(30), "fat_g": .number(10), "fiber_g": .null, "logged_at": .string("2026-11-23T12:00:00.000Z"),
                "local_date": .string("2026-11-23"), "local_time": .string("12:00"), "time_zone": .string("Europe/Berlin"),
                "food_id": .null, "portion_g": .null, "created_at": .string("2026-11-23T12:00:00.000Z"),
            ])
        )
    }
}
