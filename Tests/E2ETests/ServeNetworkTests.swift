import AsyncHTTPClient
import Foundation
import NIOSSL
import TestSupport
import Testing

/// The real `wdiet serve` on the network: its options refused with a reason, the setup code in
/// the terminal, HTTPS from certificate files.
@Suite("wdiet serve on the home network, as built")
struct ServeNetworkTests {
    @Test(
        "a bad --listen, half of the TLS pair or an unreadable certificate is refused with what was wrong",
        arguments: [
            (["--listen", "192.168.1.20"], "--listen takes ADDRESS:PORT"),
            (["--listen", "0.0.0.0:70000"], "with a port from 1 to 65535"),
            (["--listen", "::1:8080"], "--listen takes ADDRESS:PORT"),
            (["--listen", "evil host:8080"], "not \"evil host:8080\""),
            (["--tls-cert", "/tmp/cert.pem"], "--tls-cert and --tls-key go together"),
            (["--max-connections-per-address", "0"], "--max-connections-per-address must be between 1 and 100000, not 0."),
            (["--header-timeout", "0"], "--header-timeout must be between 1 and 86400, not 0."),
        ]
    )
    func refusals(arguments: [String], expected: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try E2E.run(
            ["serve", "--database", folder.appendingPathComponent("w.sqlite").path] + arguments,
            environment: Self.environment
        )
        #expect(output.status != 0)
        #expect(output.stderr.contains(expected), "\(output.stderr)")
    }

    @Test("a certificate file that is not PEM is named in the refusal")
    func badCertificate() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junk = folder.appendingPathComponent("cert.pem")
        try Data("not a certificate".utf8).write(to: junk)
        let output = try E2E.run(
            [
                "serve", "--database", folder.appendingPathComponent("w.sqlite").path, "--port", "\(Loopback.freePort())",
                "--tls-cert", junk.path, "--tls-key", junk.path,
            ],
            environment: Self.environment
        )
        #expect(output.status != 0)
        #expect(output.stderr.contains("\(junk.path): not a readable PEM certificate"), "\(output.stderr)")
    }

    @Test("behind a proxy the terminal shows the one-time setup code; over HTTPS every cookie is Secure")
    func setupCodeAndHTTPS() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (cert, key) = try Self.selfSigned(in: folder)
        let port = Loopback.freePort()
        let serve = try ServeProcess(
            [
                "serve", "--database", folder.appendingPathComponent("w.sqlite").path, "--listen", "127.0.0.1:\(port)",
                "--trust-proxy", "--tls-cert", cert, "--tls-key", key,
            ],
            folder: folder
        )
        defer { serve.stop() }
        let printed = try await serve.waitFor("setup code")
        #expect(printed.contains("w-diet is open at https://127.0.0.1:\(port)/"), "\(printed)")
        let code = try #require(printed.firstMatch(of: /setup code ([0-9]{4}-[0-9]{4})/)?.1)
        #expect(!code.isEmpty)

        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
        do {
            let response = try await http.execute(HTTPClientRequest(url: "https://127.0.0.1:\(port)/setup"), timeout: .seconds(10))
            #expect(response.status == .ok)
            let cookies = response.headers["Set-Cookie"]
            #expect(!cookies.isEmpty && cookies.allSatisfy { $0.contains("; Secure") && $0.contains("HttpOnly") }, "\(cookies)")
            let page = try await http.execute(HTTPClientRequest(url: "https://127.0.0.1:\(port)/"), timeout: .seconds(10))
            #expect(page.status == .unauthorized, "no session: a script's request is refused")
            try await http.shutdown()
        } catch {
            try await http.shutdown()
            throw error
        }
        // plain HTTP to the HTTPS port gets nothing
        let plain = HTTPClient(eventLoopGroupProvider: .singleton)
        let answered = (try? await plain.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/setup"), timeout: .seconds(5))) != nil
        try await plain.shutdown()
        #expect(!answered)
    }

    static let environment = [
        "WDIET_NO_AUTO_SYNC": "1", "WDIET_PASSPHRASE_COST": "4", "LANG": "en_US.UTF-8", "TZ": "Europe/Berlin",
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
    ]

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A self-signed certificate for 127.0.0.1 made by openssl, and its key.
    static func selfSigned(in folder: URL) throws -> (String, String) {
        let cert = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        let openssl = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert,
            ]
        )
        #expect(openssl.status == 0, "openssl made the certificate: \(openssl.stderr)")
        return (cert, key)
    }
}

/// `wdiet serve` running, its terminal output collected in a file.
final class ServeProcess {
    private let process: ChildProcess.Running

    init(_ arguments: [String], folder: URL) throws {
        process = try ChildProcess.start(
            URL(fileURLWithPath: E2E.wdiet),
            arguments,
            environment: ServeNetworkTests.environment,
            log: folder.appendingPathComponent("serve.log")
        )
    }

    /// The output so far once it contains `text` (within ten seconds).
    func waitFor(_ text: String) async throws -> String {
        if let output = try await process.waitFor(text, timeout: .seconds(10)) { return output }
        Issue.record("wdiet serve never printed \(text): \(process.output)")
        return process.output
    }

    func stop() {
        process.stop()
    }
}
