import Foundation

/// Runs a program to its end and returns what it printed.
///
/// Its output goes to temporary files, not pipes: reading a pipe to its end also waits for
/// every process that inherited the pipe's write end, and Foundation's `Process` on Linux lets
/// a child inherit every open descriptor. A long-running `wdiet serve` that another test starts
/// meanwhile would keep the pipe open, and the test reading it would wait forever (and with it
/// one of the few cooperative threads the whole parallel run has).
public enum ChildProcess {
    public struct Output: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    public static func run(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String]? = nil,
        input: String? = nil
    ) throws -> Output {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (outURL, errURL, inURL) = (
            folder.appendingPathComponent("out"), folder.appendingPathComponent("err"),
            folder.appendingPathComponent("in")
        )
        for url in [outURL, errURL] { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
        _ = FileManager.default.createFile(atPath: inURL.path, contents: Data((input ?? "").utf8))
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let stdin = try FileHandle(forReadingFrom: inURL)
        defer {
            try? out.close()
            try? err.close()
            try? stdin.close()
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        try process.run()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
            stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        )
    }
}
