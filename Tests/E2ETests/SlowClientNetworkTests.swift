import Foundation
import TestSupport
import Testing

/// Issue 32's slow client from another machine, as built: a network namespace on a veth pair
/// is the other machine (10.200.N.2); it holds its cap of half-open connections to
/// `wdiet-server` and to `wdiet serve` listening on this machine's side of the pair
/// (10.200.N.1), and reopens each one closed, while this machine asks for /health (the server)
/// or the sign-in page (serve) from another address, 10.200.N.1 itself.
@Suite(
    "Slow clients from another machine (network namespace)",
    .serialized,
    .enabled(if: NetworkNamespace.isAvailable, "\(NetworkNamespace.unavailableReason ?? "")")
)
struct SlowClientNetworkTests {
    @Test(
        "wdiet-server: another machine past its per-address cap is cut off at once, /health answers this one promptly, the held connections go at the header timeout"
    )
    func server() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let server = try await ServerProcess(
            folder: folder,
            host: namespace.hostAddress,
            environment: ["WDIET_MAX_CONNECTIONS_PER_ADDRESS": "16", "WDIET_HEADER_TIMEOUT": "10", "WDIET_IDLE_TIMEOUT": "60"]
        )
        defer { server.stop() }
        try await server.start()
        try await Self.slowClient(
            namespace: namespace,
            port: server.port,
            cap: 16,
            request: "GET /health HTTP/1.1\r\nHost: \(namespace.hostAddress)\r\n\r\n",
            processIdentifier: server.processIdentifier,
            label: "wdiet-server"
        )
    }

    @Test(
        "wdiet serve --listen: another machine past its per-address cap is cut off at once, the sign-in page answers this one promptly, the held connections go at the header timeout"
    )
    func serve() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let port = Loopback.freePort()
        let serve = try ServeProcess(
            [
                "serve", "--database", folder.appendingPathComponent("w.sqlite").path, "--listen", "\(namespace.hostAddress):\(port)",
                "--max-connections-per-address", "8", "--header-timeout", "10", "--idle-timeout", "60",
            ],
            folder: folder
        )
        defer { serve.stop() }
        _ = try await serve.waitFor("setup code")
        try await Self.slowClient(
            namespace: namespace,
            port: port,
            cap: 8,
            request: "GET /signin HTTP/1.1\r\nHost: \(namespace.hostAddress):\(port)\r\n\r\n",
            processIdentifier: nil,
            label: "wdiet serve"
        )
    }

    /// The namespace holds `cap` half-open connections, opens as many again (closed at once),
    /// then keeps reopening for nine probes of `request` from this machine; the held ones are
    /// closed by the header timeout (10 s, the default).
    static func slowClient(namespace: NetworkNamespace, port: Int, cap: Int, request: String, processIdentifier: Int32?, label: String) async throws {
        let host = namespace.hostAddress
        // Given: the other machine opens twice its cap of connections, each with half a request line
        let opened = try await namespace.connect(count: 2 * cap, to: host, port: port)
        for connection in opened { connection.send("GET /hea") }
        let heldAt = ContinuousClock.now
        // Then the cap of them is held and the rest closed at once
        let (held, refused) = try await SlowClients.stillOpen(opened, after: 1)
        #expect(held.count == cap && refused == cap, "\(held.count) held, \(refused) closed")
        // and while it reopens each one closed, this machine is answered every time
        let times = try await SlowClients.answerTimes(
            probes: 9,
            request: request,
            reopen: { try await namespace.connect(count: cap, to: host, port: port) },
            connect: { try RawConnection(host: host, port: port) }
        )
        #expect(times.allSatisfy { $0 < .seconds(2) }, "answers took \(times)")
        #expect(try await SlowClients.stillOpen(held, after: 0).open.count == cap)
        // and the held connections are let go at the header timeout
        #expect(try await Self.count(held, .closed, within: 15) == cap)
        let rss = processIdentifier.flatMap(Self.residentMemory).map { ", resident memory \($0 / 1024) MB" } ?? ""
        print(
            "\(label): \(held.count) held, \(refused) of \(cap) past the cap closed at once; answers to another address in "
                + "\(times.map { "\($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) ms" }) "
                + "while reopening; held ones closed after \(ContinuousClock.now - heldAt)\(rss)"
        )
    }

    /// How many of `connections` show `outcome` (each given up to `seconds`).
    static func count(_ connections: [RawConnection], _ outcome: RawConnection.Outcome, within seconds: Double) async throws -> Int {
        var count = 0
        for connection in connections {
            if try await connection.outcome(within: seconds) == outcome { count += 1 }
        }
        return count
    }

    /// VmRSS of a process in kB.
    static func residentMemory(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        return status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }.flatMap { line in
            line.split(separator: " ").compactMap { Int($0) }.first
        }
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-slow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
