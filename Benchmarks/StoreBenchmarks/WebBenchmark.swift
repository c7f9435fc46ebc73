import AsyncHTTPClient
import DietCore
import DietStore
import DietWeb
import Foundation
import Hummingbird
import Logging
import NIOCore

/// `wdiet serve` over the seeded store: the server time of the dashboard and of the search
/// endpoint (from the `Server-Timing` header each response carries), the round trip on
/// loopback, and the dashboard's page weight with everything it loads.
enum WebBenchmark {
    /// - Parameter queries: the committed search queries with their languages; each is searched
    ///   as typed (1, 2, 3 letters) and whole, with the profile set to its language.
    static func run(store: AppDatabase, path: String, clock: any Clock, zone: TimeZone, queries: [(String, Language)]) async throws {
        let web = try WebApp(configuration: WebConfiguration(databasePath: path, port: 0, clock: clock, timeZone: zone))
        let ports = AsyncStream<Int>.makeStream()
        // the server is cancelled when the benchmark ends: nothing it logs then is news
        var quiet = Logger(label: "wdiet.web-bench")
        quiet.logLevel = .critical
        let application = try web.application(logger: quiet) { port in ports.continuation.yield(port) }
        let server = Task { try await application.runService() }
        defer { server.cancel() }
        var iterator = ports.stream.makeAsyncIterator()
        guard let port = await iterator.next() else { return }
        let base = "http://127.0.0.1:\(port)"
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await measure(http, base: base, store: store, today: LocalDate(clock.now(), in: zone), queries: queries)
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

    /// - Parameter gzip: ask for a compressed body, as browsers do (the client does not unpack it).
    static func get(_ http: HTTPClient, _ url: String, gzip: Bool = false) async throws -> Fetched {
        let began = ContinuousClock.now
        var request = HTTPClientRequest(url: url)
        if gzip { request.headers.add(name: "Accept-Encoding", value: "gzip") }
        let response = try await http.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 10 << 20)
        let roundTrip = milliseconds(ContinuousClock.now - began)
        guard response.status == .ok else { throw BenchError("\(url): \(response.status)") }
        let timing = response.headers.first(name: "Server-Timing") ?? ""
        let server = timing.split(separator: "=").last.flatMap { Double($0) } ?? .nan
        return Fetched(body: body, serverMs: server, roundTripMs: roundTrip)
    }

    static func measure(_ http: HTTPClient, base: String, store: AppDatabase, today: LocalDate, queries: [(String, Language)]) async throws {
        print("\nWeb app (`wdiet serve`, release, loopback, over the seeded store):")
        for index in 0..<200 { _ = try await get(http, base + (index.isMultiple(of: 2) ? "/" : "/foods/search?q=milch")) }
        var server: [Double] = []
        var roundTrip: [Double] = []
        for _ in 0..<2000 {
            let fetched = try await get(http, base + "/", gzip: true)
            server.append(fetched.serverMs)
            roundTrip.append(fetched.roundTripMs)
        }
        print("  dashboard GET /, gzip as a browser asks, server time: " + Percentiles(samples: server).line)
        print("  dashboard GET /, round trip:  " + Percentiles(samples: roundTrip).line)
        // a past day's diary: GET /?date= of any day of the seeded years
        server = []
        for _ in 0..<2000 {
            let past = today.adding(days: -Int.random(in: 1...(5 * 365)))
            server.append(try await get(http, base + "/?date=\(past.iso)", gzip: true).serverMs)
        }
        print("  a past day's diary GET /?date=, server time: " + Percentiles(samples: server).line)
        server = []
        roundTrip = []
        let original = try store.settings()
        for language in Language.allCases {
            // the search endpoint searches in the profile's language
            if var settings = original {
                settings.profile.language = language
                try store.updateProfile(settings.profile, timeZone: TimeZone(identifier: "Europe/Berlin") ?? .gmt)
            }
            for _ in 0..<3 {
                for (query, _) in queries.filter({ $0.1 == language }) {
                    for typed in Set([String(query.prefix(1)), String(query.prefix(2)), String(query.prefix(3)), query]).sorted() {
                        let fetched = try await get(
                            http,
                            base + "/foods/search?q=" + (typed.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? typed)
                        )
                        server.append(fetched.serverMs)
                        roundTrip.append(fetched.roundTripMs)
                    }
                }
            }
        }
        if let original { try store.updateProfile(original.profile, timeZone: TimeZone(identifier: "Europe/Berlin") ?? .gmt) }
        print("  search GET /foods/search (the \(queries.count) committed queries as typed: 1, 2, 3 letters and whole, each in its language),")
        print("    server time: " + Percentiles(samples: server).line)
        print("    round trip:  " + Percentiles(samples: roundTrip).line)
        // page weight: the HTML and every asset it links, as sent plain and with gzip
        let page = try await get(http, base + "/")
        let html = String(buffer: page.body)
        let links = Set(html.components(separatedBy: "\"").filter { $0.hasPrefix("/assets/") }).sorted()
        for gzip in [false, true] {
            var total = 0
            var parts: [String] = []
            for link in ["/"] + links {
                let fetched = try await get(http, base + link, gzip: gzip)
                total += fetched.body.readableBytes
                let name = link == "/" ? "HTML" : String(link.split(separator: "?")[0].split(separator: "/").last ?? "")
                parts.append("\(name) \(fetched.body.readableBytes) B")
            }
            print(
                String(
                    format: "  dashboard page weight %@: %.1f KB in total (%@)",
                    gzip ? "transferred with gzip" : "uncompressed",
                    Double(total) / 1000,
                    parts.joined(separator: ", ")
                )
            )
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
