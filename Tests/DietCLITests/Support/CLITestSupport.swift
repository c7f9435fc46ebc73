import Foundation
import Testing

@testable import DietCLI

/// A temporary database and a way to run `wdiet` commands in process against it, through the
/// same argument check and output path as the executable.
final class CLIHarness: @unchecked Sendable {
    let folder: URL
    var database: String { folder.appendingPathComponent("w-diet.sqlite").path }
    var input: [String] = []
    let environment: [String: String]

    init(environment: [String: String] = [:]) {
        self.environment = environment
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-cli-\(UUID().uuidString)")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `arguments` at the local moment `now` (Europe/Berlin), in English unless told.
    func run(_ arguments: [String], now: String, lang: String = "en", environment extra: [String: String] = [:]) async throws -> String {
        let all = arguments + ["--database", database, "--now", now, "--time-zone", "Europe/Berlin", "--lang", lang]
        let environment = ["LANG": "en_US.UTF-8"].merging(environment) { $1 }.merging(extra) { $1 }
        try WDiet.checkArguments(all, environment: environment)
        let command = try #require(try WDiet.parseAsRoot(all) as? any CLICommand)
        var pending = input
        let context = CLIContext(
            environment: environment,
            readLine: {
                pending.isEmpty ? nil : pending.removeFirst()
            },
            isTerminal: false
        )
        defer { input = pending }
        return try await command.output(context)
    }

    func onboardAlice(now: String = "2026-01-05T08:00") async throws {
        _ = try await run(
            [
                "onboard", "--sex", "female", "--age", "34", "--height", "168", "--weight", "72.5",
                "--activity", "light", "--goal", "lose",
            ],
            now: now
        )
    }
}

/// The message of a thrown CLI error.
func failure(_ body: () async throws -> String) async -> String? {
    do {
        _ = try await body()
        return nil
    } catch {
        return "\(error)"
    }
}
