import Foundation
import TestSupport
import Testing

/// The built `wdiet serve` starts, refuses a busy port and stops on Ctrl-C or SIGTERM with the
/// exit statuses a shell or a service manager reads.
@Suite("wdiet serve as built: starting and stopping", .serialized, .timeLimit(.minutes(1)))
struct ServeCommandTests {
    @Test(
        "serve announces its address, a second serve on that port fails with status 1 naming it, and the signal stops the first with status 0",
        arguments: [SIGINT, SIGTERM]
    )
    func startsAndStops(signal: Int32) throws {
        try #require(FileManager.default.isExecutableFile(atPath: EndToEndTests.binary.path), "build the package first")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = [
            "WDIET_DATABASE": folder.appendingPathComponent("w.sqlite").path, "WDIET_NO_AUTO_SYNC": "1",
            "LANG": "en_US.UTF-8", "TZ": "Europe/Berlin", "HOME": folder.path,
        ]
        let port = Loopback.freePort()
        // Given wdiet serve on a free port
        let serve = Process()
        serve.executableURL = EndToEndTests.binary
        serve.arguments = ["serve", "--port", "\(port)"]
        serve.environment = environment
        let out = Pipe()
        serve.standardOutput = out
        try serve.run()
        defer { if serve.isRunning { serve.terminate() } }
        // When it has announced its address
        let announced = Self.read(out.fileHandleForReading, until: "w-diet is open at")
        #expect(announced.contains("w-diet is open at http://127.0.0.1:\(port)/"), "\(announced)")
        // Then a second serve on the same port fails, naming the port
        let busy = try ChildProcess.run(EndToEndTests.binary, ["serve", "--port", "\(port)"], environment: environment)
        #expect(busy.status == 1)
        #expect(busy.stderr.contains("Could not serve on port \(port)"), "\(busy.stderr)")
        // And the signal stops the first one with status 0
        kill(serve.processIdentifier, signal)
        serve.waitUntilExit()
        #expect(serve.terminationReason == .exit && serve.terminationStatus == 0)
    }

    /// What `handle` gives until it holds `marker` or ends.
    static func read(_ handle: FileHandle, until marker: String) -> String {
        var text = ""
        while !text.contains(marker) {
            let data = handle.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        return text
    }

}
