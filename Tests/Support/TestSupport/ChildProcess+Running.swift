import Foundation

extension ChildProcess {
    /// Starts a program that keeps running (a server, a shell loop) and returns at once.
    ///
    /// Its output (stdout and stderr) is appended to `log`, which is created when missing, or
    /// discarded when `log` is nil: files, not pipes, for the reason `run` gives.
    public static func start(
        _ executable: URL,
        _ arguments: [String] = [],
        environment: [String: String]? = nil,
        log: URL? = nil
    ) throws -> Running {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        if let log {
            if !FileManager.default.fileExists(atPath: log.path) {
                _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            }
            let handle = try FileHandle(forWritingTo: log)
            defer { try? handle.close() }
            handle.seekToEndOfFile()
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }
        return Running(process: process, log: log)
    }

    /// A program `start` started: running until it ends, is stopped or is killed (at the latest
    /// when this object goes away, so no test leaves a server behind).
    public final class Running {
        /// Where its output goes, if anywhere.
        public let log: URL?
        private let process: Process

        init(process: Process, log: URL?) {
            self.process = process
            self.log = log
        }

        public var processIdentifier: Int32 { process.processIdentifier }
        public var isRunning: Bool { process.isRunning }
        /// Its exit status, once it has ended.
        public var status: Int32? { process.isRunning ? nil : process.terminationStatus }

        /// Everything it wrote so far (empty when the output is discarded).
        public var output: String {
            guard let log else { return "" }
            return (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        }

        /// The output once it contains `text`; nil if the program ends or `timeout` passes first.
        public func waitFor(_ text: String, timeout: Duration = .seconds(10)) async throws -> String? {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                let output = output
                if output.contains(text) { return output }
                if !isRunning { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            let output = output
            return output.contains(text) ? output : nil
        }

        /// The complete lines written so far, once there are at least `count` of them, the
        /// program has ended, or `timeout` has passed (for tests that are not async).
        public func lines(atLeast count: Int, timeout: Duration = .seconds(60)) -> [String] {
            let deadline = ContinuousClock.now + timeout
            var lines = completeLines()
            while lines.count < count, isRunning, ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.02)
                lines = completeLines()
            }
            return lines
        }

        private func completeLines() -> [String] {
            output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }

        /// SIGTERM, and SIGKILL if it is still running after `grace`; returns once it has ended.
        public func stop(grace: Duration = .seconds(10)) {
            guard process.isRunning else { return }
            process.terminate()
            let deadline = ContinuousClock.now + grace
            while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        /// SIGKILL at once, cutting off whatever it was doing; with `children`, first to the
        /// programs it started itself (a shell loop's current command). Returns once it has ended.
        public func kill(children: Bool = false) {
            guard process.isRunning else { return }
            if children {
                _ = try? ChildProcess.run(URL(fileURLWithPath: "/usr/bin/pkill"), ["-9", "-P", "\(process.processIdentifier)"])
            }
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        deinit {
            stop()
        }
    }
}
