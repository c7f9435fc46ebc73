import AsyncHTTPClient
import DietCore
import DietWeb
import Foundation
import Hummingbird
import NIOCore

/// `wdiet serve` over the seeded store: the server time of the dashboard and of the search
/// endpoint (from the `Server-Timing` header each response carries), the round trip on
/// loopback, and the dashboard's page weight with everything it loads.
enum WebBenchmark {
    static func run(path: String, clock: any Clock, zone: TimeZone) async throws {
        let web = try WebApp(configuration: WebConfiguration(databasePath: path, port: 0, clock: clock, timeZone: zone))
        let ports = AsyncStream<Int>.makeStream()
        let application = web.application { port in ports.continuation.yield(port) }
        let server = Task { try await application.runService() }
        defer { server.cancel() }
        var iterator = ports.stream.makeAsyncIterator()
        guard let port = await iterator.next() else { return }
        let base = "http://127.0.0.1:\(port)"
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await measure(http, base: base)
            try await http.shutdown()
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    struct Fetched {
        let body: ByteBuffer
        let serverMs: Double
        let roundTripMs: Double
    }

    static func get(_ http: HTTPClient, _ url: String) async throws -> Fetched {
        let began = ContinuousClock.now
        let response = try await http.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 10 << 20)
        let roundTrip = milliseconds(ContinuousClock.now - began)
        guard response.status == .ok else { throw BenchError("\(url): \(response.status)") }
        let timing = response.headers.first(name: "Server-Timing") ?? ""
        let server = timing.split(separator: "=").last.flatMap { Double($0) } ?? .nan
        return Fetched(body: body, serverMs: server, roundTripMs: roundTrip)
    }

    static func measure(_ http: HTTPClient, base: String) async throws {
        print("\nWeb app (`wdiet serve`, release, loopback, over the seeded store):")
        for (label, paths) in [
            ("dashboard GET /", ["/"]),
            ("search GET /foods/search", ["h", "hä", "häh", "hähn", "chicken", "apfel", "milch", "brot", "käse", "2 eggs"].map {
                "/foods/search?q=" + ($0.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? $0)
            }),
        ] {
            for index in 0..<200 { _ = try await get(http, base + paths[index % paths.count]) }
            var server: [Double] = [], roundTrip: [Double] = []
            for index in 0..<2000 {
                let fetched = try await get(http, base + paths[index % paths.count])
                server.append(fetched.serverMs)
                roundTrip.append(fetched.roundTripMs)
            }
            print("  \(label), server time: " + Percentiles(samples: server).line)
            print("  \(label), round trip:  " + Percentiles(samples: roundTrip).line)
        }
        // page weight: the HTML and every asset it links
        let page = try await get(http, base + "/")
        let html = String(buffer: page.body)
        var total = page.body.readableBytes
        var parts = ["HTML \(page.body.readableBytes) B"]
        let links = html.components(separatedBy: "\"").filter { $0.hasPrefix("/assets/") }
        for link in Set(links).sorted() {
            let asset = try await get(http, base + link)
            total += asset.body.readableBytes
            parts.append("\(link.split(separator: "?")[0].split(separator: "/").last ?? "") \(asset.body.readableBytes) B")
        }
        print(String(format: "  dashboard page weight: %.1f KB in total (%@), uncompressed", Double(total) / 1000,
                     parts.joined(separator: ", ")))
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
