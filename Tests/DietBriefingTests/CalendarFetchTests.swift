import DietBriefing
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// A calendar address is read as a stream with a byte limit (also after decompression), a
/// time limit and a bounded number of redirects, against real servers on loopback.
@Suite("Fetching a calendar address within size and time limits", .serialized)
struct CalendarFetchTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    /// What reading one calendar may add to the test process's memory (the limit is 20 MB).
    static let memoryBound = 100 << 20

    /// A server on a loopback port that misbehaves in every way this suite needs.
    static func withServer(_ body: @Sendable @escaping (String) async throws -> Void) async throws {
        let router = Router()
        router.get("/endless.ics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/calendar"],
                body: ResponseBody { writer in
                    let chunk = ByteBuffer(repeating: UInt8(ascii: "A"), count: 64 << 10)
                    while true { try await writer.write(chunk) }
                }
            )
        }
        router.get("/trickle.ics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/calendar"],
                body: ResponseBody { writer in
                    while true {
                        try await writer.write(ByteBuffer(string: "A"))
                        try await Task.sleep(for: .seconds(1))
                    }
                }
            )
        }
        for name in ["bomb", "work"] {
            let gzip = try Data(contentsOf: fixtures.appendingPathComponent("\(name).ics.gz"))
            router.get("/\(name).ics") { _, _ in
                Response(
                    status: .ok,
                    headers: [.contentType: "text/calendar", .contentEncoding: "gzip"],
                    body: .init(byteBuffer: ByteBuffer(bytes: gzip))
                )
            }
        }
        router.get("/hop/:number") { _, context in
            let number = context.parameters.get("number", as: Int.self) ?? 0
            return Response(status: .found, headers: [.location: "/hop/\(number + 1)"])
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await body("http://127.0.0.1:\(try #require(client.port))")
        }
    }

    @Test("an endless body stops at 20 MB with the reason, and memory stays bounded")
    func endlessBody() async throws {
        try await Self.withServer { server in
            // Given a server that never stops sending
            // When the calendar is read
            let (result, growth) = try await ResidentMemory.growth { await CalendarSource.read("\(server)/endless.ics") }
            // Then it fails with the size, without having kept the stream
            #expect(result.failure?.description == "it is larger than 20 MB")
            #expect(growth < Self.memoryBound, "memory grew by \(growth >> 20) MB")
        }
    }

    @Test("a gzip bomb stops at 20 MB unpacked with the reason, and memory stays bounded")
    func gzipBomb() async throws {
        try await Self.withServer { server in
            // Given 200 KB of gzip that unpack to 200 MB
            // When the calendar is read
            let (result, growth) = try await ResidentMemory.growth { await CalendarSource.read("\(server)/bomb.ics") }
            // Then it fails with the size, counted on the unpacked bytes
            #expect(result.failure?.description == "it is larger than 20 MB")
            #expect(growth < Self.memoryBound, "memory grew by \(growth >> 20) MB")
        }
    }

    @Test("a calendar served with gzip is unpacked and read")
    func gzipCalendar() async throws {
        try await Self.withServer { server in
            // Given a small calendar served compressed
            // When it is read
            let text = try await CalendarSource.read("\(server)/work.ics").get()
            // Then its text is the calendar
            #expect(text.hasPrefix("BEGIN:VCALENDAR") && text.contains("SUMMARY:Quarterly review"))
        }
    }

    @Test("a server that trickles a byte a second is given up at the time limit with the reason")
    func trickle() async throws {
        try await Self.withServer { server in
            // Given a server that sends one byte a second, and a 2 s limit
            // When the calendar is read
            let result = await CalendarSource.read("\(server)/trickle.ics", limits: .init(timeLimit: .seconds(2)))
            // Then it fails with the time limit
            #expect(result.failure?.description == "it took longer than 2 s")
        }
    }

    @Test("endless redirects stop after five")
    func redirects() async throws {
        try await Self.withServer { server in
            // Given an address that always redirects to another
            // When it is read
            let result = await CalendarSource.read("\(server)/hop/0")
            // Then it gives up with the reason
            #expect(result.failure?.description == "it redirects more than 5 times")
        }
    }

    @Test("a 2 GB file is refused by its size without being read")
    func largeFile() async throws {
        // Given a (sparse) file of 2 GB
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(UUID().uuidString).ics").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        // When it is read
        let (result, growth) = try await ResidentMemory.growth { CalendarSource.readFile(path) }
        // Then it fails with the size, and memory stays bounded
        #expect(result.failure?.description == "it is larger than 20 MB")
        #expect(growth < Self.memoryBound, "memory grew by \(growth >> 20) MB")
    }

    @Test("a file that never ends (/dev/zero) stops at 20 MB, and memory stays bounded")
    func endlessFile() async throws {
        // Given a device that never ends
        // When it is read
        let (result, growth) = try await ResidentMemory.growth { CalendarSource.readFile("/dev/zero") }
        // Then it fails with the size
        #expect(result.failure?.description == "it is larger than 20 MB")
        #expect(growth < Self.memoryBound, "memory grew by \(growth >> 20) MB")
    }

    @Test("a refused connection is said at once in words, not retried until the time limit")
    func refused() async throws {
        // Given a loopback port nothing listens on
        let port = Loopback.freePort()
        // When a calendar there is read with a 10 s limit
        let clock = ContinuousClock()
        let started = clock.now
        let result = await CalendarSource.read("http://127.0.0.1:\(port)/work.ics", limits: .init(timeLimit: .seconds(10)))
        // Then the refusal is the reason, given at once: retried, the read went on to the limit
        #expect(result.failure?.description == "the server refused the connection")
        #expect(clock.now - started < .seconds(5), "the refused connection was retried")
    }

    @Test("a missing file and an address without a host are explained")
    func unreadable() async {
        #expect(await CalendarSource.read("/no/such/calendar.ics").failure?.description == "no such readable file")
        #expect(await CalendarSource.read("https://").failure?.description == "not an address")
    }
}

extension Result {
    var failure: Failure? {
        if case let .failure(failure) = self { return failure }
        return nil
    }
}
