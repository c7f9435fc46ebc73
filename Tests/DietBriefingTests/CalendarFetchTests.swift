import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import DietBriefing

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
        router.get("/away") { request, _ in
            Response(status: .found, headers: [.location: request.uri.queryParameters.get("to") ?? "/"])
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
            let (result, growth) = try await ResidentMemory.growth { await CalendarSource.fetch(address: "\(server)/endless.ics", policy: .loopback) }
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
            let (result, growth) = try await ResidentMemory.growth { await CalendarSource.fetch(address: "\(server)/bomb.ics", policy: .loopback) }
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
            let text = try await CalendarSource.fetch(address: "\(server)/work.ics", policy: .loopback).get()
            // Then its text is the calendar
            #expect(text.hasPrefix("BEGIN:VCALENDAR") && text.contains("SUMMARY:Quarterly review"))
        }
    }

    @Test("a server that trickles a byte a second is given up at the time limit with the reason")
    func trickle() async throws {
        try await Self.withServer { server in
            // Given a server that sends one byte a second, and a 2 s limit
            // When the calendar is read
            let result = await CalendarSource.fetch(address: "\(server)/trickle.ics", policy: .loopback, limits: .init(timeLimit: .seconds(2)))
            // Then it fails with the time limit
            #expect(result.failure?.description == "it took longer than 2 s")
        }
    }

    @Test("endless redirects stop after five")
    func redirects() async throws {
        try await Self.withServer { server in
            // Given an address that always redirects to another
            // When it is read
            let result = await CalendarSource.fetch(address: "\(server)/hop/0", policy: .loopback)
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

    @Test("a device file, a FIFO nobody writes to and standard input are refused at once, not waited on", .timeLimit(.minutes(1)))
    func notRegularFiles() async throws {
        // Given a FIFO that no process will ever write to
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("calendar-\(UUID().uuidString).ics").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        for path in ["/dev/zero", "/dev/stdin", fifo, FileManager.default.temporaryDirectory.path] {
            // When it is read (opening a FIFO for reading blocks until a writer comes, reading
            // standard input until a line is typed: the read must do neither)
            let started = ContinuousClock.now
            let result = CalendarSource.readFile(path, limits: .init(timeLimit: .seconds(2)))
            // Then it is refused at once with the reason
            // (standard input may also be closed here, then there is no such file)
            let reasons = path == "/dev/stdin" ? ["it is not a regular file", "no such readable file"] : ["it is not a regular file"]
            #expect(reasons.contains(result.failure?.description ?? ""), "\(path): \(result)")
            #expect(ContinuousClock.now - started < .seconds(1), "\(path)")
        }
    }

    @Test("a refused connection is said at once in words, not retried until the time limit")
    func refused() async throws {
        // Given a loopback port nothing listens on
        let port = Loopback.freePort()
        // When a calendar there is read with a 10 s limit
        let clock = ContinuousClock()
        let started = clock.now
        let result = await CalendarSource.fetch(
            address: "http://127.0.0.1:\(port)/work.ics",
            policy: .loopback,
            limits: .init(timeLimit: .seconds(10))
        )
        // Then the refusal is the reason, given at once: retried, the read went on to the limit
        #expect(result.failure?.description == "the server refused the connection")
        #expect(clock.now - started < .seconds(5), "the refused connection was retried")
    }

    @Test("a missing file and an address without a host or of another scheme are explained")
    func unreadable() async {
        #expect(CalendarSource.readFile("/no/such/calendar.ics").failure?.description == "no such readable file")
        #expect(await CalendarSource.fetch(address: "https://", policy: .publicOnly).failure?.description.hasPrefix("must name a host") == true)
        for location in ["/dev/stdin", "file:///etc/passwd", "ftp://example.org/a.ics"] {
            let failure = await CalendarSource.fetch(address: location, policy: .publicOnly).failure
            #expect(failure?.description.hasPrefix("must be an http, https or webcal address") == true, "\(location)")
        }
    }

    @Test("this machine and private networks are refused unless allowed, in one wording whatever listens there")
    func privateAddresses() async throws {
        try await Self.withServer { server in
            let port = try #require(URL(string: server)?.port)
            let closed = Loopback.freePort()
            // Given a calendar served on loopback, a closed loopback port, and hosts on private
            // networks that are never contacted
            let addresses = [
                "\(server)/work.ics", "http://127.0.0.1:\(closed)/work.ics", "http://localhost:\(port)/work.ics",
                "http://[::1]:\(port)/work.ics", "http://10.0.0.1/a.ics", "http://192.168.1.1:5432/", "http://169.254.169.254/latest",
                "http://[fe80::1]/a.ics", "http://0.0.0.0:\(port)/work.ics", "http://[::ffff:127.0.0.1]:\(port)/work.ics",
            ]
            for address in addresses {
                // When each is read with the default policy
                let started = ContinuousClock.now
                let result = await CalendarSource.fetch(address: address, policy: .publicOnly, limits: .init(timeLimit: .seconds(5)))
                // Then each gets the same answer, at once: nothing tells an open port from a closed one
                #expect(result.failure == .notPublic, "\(address): \(result)")
                #expect(ContinuousClock.now - started < .seconds(2), "\(address)")
            }
            // And once the user allows 127.0.0.1, that host is read, and no other
            let allowed = CalendarSource.AddressPolicy(localHosts: ["127.0.0.1"])
            #expect(try await CalendarSource.fetch(address: "\(server)/work.ics", policy: allowed).get().hasPrefix("BEGIN:VCALENDAR"))
            #expect(await CalendarSource.fetch(address: "http://localhost:\(port)/work.ics", policy: allowed).failure == .notPublic)
        }
    }

    @Test("a redirect to a host that is not allowed is refused like the host itself")
    func redirectToPrivateHost() async throws {
        try await Self.withServer { server in
            let port = try #require(URL(string: server)?.port)
            // Given an allowed host that redirects to another name of the same machine
            let result = await CalendarSource.fetch(
                address: "\(server)/away?to=http://localhost:\(port)/work.ics",
                policy: CalendarSource.AddressPolicy(localHosts: ["127.0.0.1"])
            )
            // Then the redirect is checked like the first address
            #expect(result.failure == .notPublic)
            // And a redirect to a scheme other than http(s) is refused
            let file = await CalendarSource.fetch(address: "\(server)/away?to=file:///etc/passwd", policy: .loopback)
            #expect(file.failure?.description == "it redirects to something that is not an http or https address")
        }
    }
}

extension CalendarSource.AddressPolicy {
    /// The test servers' host.
    static let loopback = CalendarSource.AddressPolicy(localHosts: ["127.0.0.1"])
}

/// Which addresses count as public: only those reachable on the internet.
@Suite("Public and private host addresses")
struct HostAddressTests {
    @Test("loopback, private, shared, link-local, documentation, multicast and reserved ranges are not public")
    func privateRanges() throws {
        for literal in [
            "127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.0.1", "169.254.169.254", "100.64.0.1",
            "0.0.0.0", "192.0.2.1", "198.51.100.7", "203.0.113.9", "198.18.0.1", "224.0.0.1", "255.255.255.255", "240.0.0.1",
            "::", "::1", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1", "2001:db8::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
            "64:ff9b::a00:1", "2002:c0a8:101::1", "fec0::1",
        ] {
            let address = try #require(HostAddress(literal: literal), "\(literal)")
            #expect(!address.isPublic, "\(literal)")
        }
    }

    @Test("addresses on the internet are public")
    func publicAddresses() throws {
        for literal in ["1.1.1.1", "8.8.8.8", "172.32.0.1", "100.128.0.1", "192.169.0.1", "2a00:1450:4001::1", "::ffff:8.8.8.8", "2002:808:808::1"] {
            let address = try #require(HostAddress(literal: literal), "\(literal)")
            #expect(address.isPublic, "\(literal)")
        }
    }

    @Test("a host list of the settings: names and IP addresses, anything else named")
    func hostList() throws {
        #expect(try CalendarSource.AddressPolicy.parse("nas.local, 192.168.1.5\n[::1] NAS.local").get() == ["nas.local", "192.168.1.5", "::1"])
        #expect(try CalendarSource.AddressPolicy.parse("").get() == [])
        for bad in ["http://nas.local", "nas.local:8080", "-bad.example", "a/b", "<script>", "5", "1,5", "10.1"] {
            #expect((try? CalendarSource.AddressPolicy.parse(bad).get()) == nil, "\(bad)")
        }
    }
}

extension Result {
    var failure: Failure? {
        if case let .failure(failure) = self { return failure }
        return nil
    }
}
