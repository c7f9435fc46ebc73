import ArgumentParser
import DietCore
import DietStore
import Foundation

/// Options of every command that works on the local store.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("database"), help: "The SQLite file (default: $WDIET_DATABASE, else $XDG_DATA_HOME/w-diet/w-diet.sqlite).")
    var databasePath: String?

    @Option(
        name: .customLong("now"),
        help: ArgumentHelp("Pretend it is this moment (ISO 8601), for demos and tests; also $WDIET_NOW.", visibility: .hidden)
    )
    var now: String?

    @OptionGroup var language: LanguageOptions

    /// The database file: the flag, then WDIET_DATABASE, then the XDG data folder.
    func resolvedPath(environment: [String: String]) -> String {
        if let databasePath, !databasePath.isEmpty { return databasePath }
        if let path = environment["WDIET_DATABASE"], !path.isEmpty { return path }
        let data =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return data + "/w-diet/w-diet.sqlite"
    }

    /// The clock: fixed at `--now` / WDIET_NOW when given, else the system's.
    func clock(environment: [String: String], timeZone: TimeZone, language: Language) throws -> any Clock {
        guard let text = now ?? environment["WDIET_NOW"], !text.isEmpty else { return SystemClock() }
        guard let instant = Self.instant(text, in: timeZone) else {
            throw CLIError(Localizer(language).text("cli.error.now", ["value": .text(text)]))
        }
        return FixedClock(instant)
    }

    /// `2026-01-05T08:30:00Z`, `2026-01-05T08:30+01:00`, or local `2026-01-05T08:30` / `2026-01-05 08:30`.
    static func instant(_ text: String, in timeZone: TimeZone) -> Date? {
        let normalized = text.replacingOccurrences(of: " ", with: "T")
        if let date = try? Date.ISO8601FormatStyle().parse(normalized) { return date }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(normalized) { return date }
        let parts = normalized.split(separator: "T")
        guard parts.count == 2, let day = LocalDate(iso: String(parts[0])),
            let time = TimeOfDay(string: String(parts[1].prefix(5)))
        else { return nil }
        return day.instant(at: time, in: timeZone)
    }
}

/// Everything a command needs from the outside world, injectable for tests.
struct CLIContext {
    var environment: [String: String]
    /// Reads one line of user input; nil at end of input.
    var readLine: () -> String?
    /// Whether standard output is a terminal (colour, interactive prompts).
    var isTerminal: Bool

    static var live: CLIContext {
        CLIContext(
            environment: ProcessInfo.processInfo.environment,
            readLine: { Swift.readLine() },
            isTerminal: isatty(STDOUT_FILENO) == 1
        )
    }

    /// Colour only on a terminal and never with NO_COLOR.
    var color: Bool { isTerminal && environment["NO_COLOR"].map(\.isEmpty) ?? true }
}

/// An open store with the settings a command works with.
struct Session {
    let store: AppDatabase
    let clock: any Clock
    let timeZone: TimeZone
    let localizer: Localizer
    let settings: UserSettings?

    var language: Language { localizer.language }

    /// Opens (creating and migrating on first use) the database, runs the cycle check when
    /// onboarded, and picks the language: --lang, else the profile's, else LANG.
    static func open(_ options: StoreOptions, context: CLIContext) throws -> Session {
        let fallback = options.language.resolvedLanguage(environment: context.environment)
        let timeZone = try options.language.resolvedTimeZone(language: fallback)
        let clock = try options.clock(environment: context.environment, timeZone: timeZone, language: fallback)
        let path = options.resolvedPath(environment: context.environment)
        let store: AppDatabase
        do {
            store = try AppDatabase.open(path: path, clock: clock)
        } catch {
            throw CLIError(Localizer(fallback).text("cli.error.database", ["path": .text(path), "reason": .text("\(error)")]))
        }
        let settings = try store.settings()
        let language = options.language.language ?? settings?.profile.language ?? fallback
        if settings != nil {
            try store.checkCycle(timeZone: timeZone)
        }
        return Session(store: store, clock: clock, timeZone: timeZone, localizer: Localizer(language), settings: settings)
    }

    /// The settings, or a clear error telling the user to onboard first.
    func requireSettings() throws -> UserSettings {
        guard let settings else { throw CLIError(localizer.text("cli.error.notOnboarded")) }
        return settings
    }

    var today: LocalDate { clock.today(in: timeZone) }

    /// Runs a store call, turning store errors into one clear line in the user's language.
    @discardableResult
    func run<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw explained(error)
        }
    }

    /// Runs a store call that awaits (the network on the way), its store errors explained the same way.
    @discardableResult
    func run<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw explained(error)
        }
    }

    /// A store or validation error as one line in the user's language; anything else as it is.
    private func explained(_ error: any Error) -> any Error {
        switch error {
        case let error as StoreError: CLIError(error.message(localizer))
        case let error as DietCore.ValidationError: CLIError(localizer.render(error.message))
        default: error
        }
    }
}

/// A command whose work is a function from the outside world to the text it prints, so
/// tests run it in process with a fixed clock, a temporary database and scripted input. A
/// command that waits on the network awaits in `execute`; one that does not keeps a
/// synchronous `execute`, which fulfils the requirement all the same.
protocol CLICommand: AsyncParsableCommand {
    func execute(_ context: CLIContext) async throws -> String
}

extension CLICommand {
    /// What the command prints: its text with every control character from data made
    /// visible (only the CLI's own colours stay), so no stored or received text reaches the
    /// terminal raw.
    func output(_ context: CLIContext) async throws -> String {
        Terminal.safe(try await execute(context), keepingStyles: context.color)
    }

    func run() async throws {
        let context = CLIContext.live
        print(try await output(context))
        if let command = self as? any StoreCommand { await AutoSync.run(command.options, context: context) }
    }
}
