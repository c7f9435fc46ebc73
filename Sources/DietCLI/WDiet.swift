import ArgumentParser
import DietCore
import Foundation

/// The `wdiet` command tree.
public struct WDiet: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "wdiet",
        abstract: "w-diet: a local-first nutrition coach with automated MATADOR diet cycling.",
        subcommands: [
            OnboardCommand.self, TodayCommand.self, LogCommand.self, MealsCommand.self, EditCommand.self,
            DeleteCommand.self, RestoreCommand.self, FoodCommand.self, RecipeCommand.self, HistoryCommand.self, CycleCommand.self,
            ProfileCommand.self, SetCommand.self, InsightsCommand.self, BadgesCommand.self,
            LearnCommand.self, BriefingCommand.self, CalendarCommand.self, WhoopCommand.self, AccountCommand.self, SyncCommand.self,
            ExportCommand.self, ImportCommand.self, DeleteAccountCommand.self, PlanCommand.self, ServeCommand.self, AboutCommand.self,
        ]
    )

    public init() {}

    /// Runs the command line like ArgumentParser's own `main()`, with two guards: an argument
    /// holding a control character is refused before anything runs, and every message,
    /// errors included, reaches the terminal with its control characters made visible. A
    /// `CLIError` is printed as it is, without ArgumentParser's English "Error: ". Named
    /// apart from `main()`: top-level code would pick ArgumentParser's synchronous `main()`,
    /// which cannot run an async command.
    public static func runCommandLine() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            try checkArguments(arguments, environment: ProcessInfo.processInfo.environment)
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            // our own messages are whole sentences in the user's language: no English "Error: "; the
            // parser's own refusals are said in the user's language too
            let message =
                (error as? CLIError)?.description
                ?? parseErrorText(error, arguments: arguments, environment: ProcessInfo.processInfo.environment)
                ?? fullMessage(for: error)
            let code = exitCode(for: error)
            if !message.isEmpty {
                if code == .success { Terminal.print(message) } else { Terminal.printError(message) }
            }
            Foundation.exit(code.rawValue)
        }
    }

    /// Refuses an argument holding a control character other than tab and line feed (see
    /// `TextRules`), naming the option it belongs to or its position, in the language of
    /// `--lang` or the environment.
    static func checkArguments(_ arguments: [String], environment: [String: String]) throws {
        for (index, argument) in arguments.enumerated() where TextRules.forbiddenControlCharacter(in: argument) != nil {
            let localizer = Localizer(language(arguments, environment: environment))
            let received: Message.Argument = .text(TextRules.quoted(argument))
            let allowed: Message.Argument = .message(ValidationError.Allowed.noControlCharacters.message)
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                throw CLIError(
                    localizer.text(
                        "cli.error.controlOption",
                        [
                            "option": .text(TextRules.visible(String(argument[..<equals]))), "allowed": allowed,
                            "received": .text(TextRules.quoted(String(argument[argument.index(after: equals)...]))),
                        ]
                    )
                )
            }
            if index > 0, arguments[index - 1].hasPrefix("-"), !argument.hasPrefix("-") {
                throw CLIError(
                    localizer.text(
                        "cli.error.controlOption",
                        [
                            "option": .text(arguments[index - 1]), "allowed": allowed, "received": received,
                        ]
                    )
                )
            }
            throw CLIError(
                localizer.text(
                    "cli.error.controlArgument",
                    [
                        "position": .integer(index + 1), "allowed": allowed, "received": received,
                    ]
                )
            )
        }
    }

    /// ArgumentParser's refusal of the command line (a value it cannot read, an unknown option, a
    /// missing argument) in the user's language, with where to find the command's options; nil
    /// in English (ArgumentParser's own words, with its usage) or for another error.
    static func parseErrorText(_ error: any Error, arguments: [String], environment: [String: String]) -> String? {
        let language = language(arguments, environment: environment)
        guard language != .en, exitCode(for: error) == .validationFailure else { return nil }
        let l = Localizer(language)
        let english = message(for: error)
        func first(_ pattern: String) -> [String]? {
            guard let regex = try? NSRegularExpression(pattern: pattern),
                let match = regex.firstMatch(in: english, range: NSRange(english.startIndex..., in: english))
            else { return nil }
            return (1..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: english).map { String(english[$0]) } ?? ""
            }
        }
        let sentence: String
        if let parts = first(#"The value '(.*)' is invalid for '(-[^' <]+)[^']*'(?:\. Please provide one of (.*)\.)?"#) {
            // "'lose', 'maintain' or 'gain'": the values themselves, without the English "or"
            let choices = parts[2].replacingOccurrences(of: "' or '", with: "', '").replacingOccurrences(of: "'", with: "")
            sentence =
                l.text("cli.parse.invalidValue", ["option": .text(parts[1]), "value": .text(TextRules.visible(parts[0]))])
                + (choices.isEmpty ? "" : " " + l.text("cli.parse.choices", ["choices": .text(choices)]))
        } else if let parts = first(#"Unknown option '([^']*)'"#) {
            sentence = l.text("cli.parse.unknownOption", ["option": .text(TextRules.visible(parts[0]))])
        } else if let parts = first(#"Missing value for '(-[^' <]+)"#) {
            sentence = l.text("cli.parse.missingValue", ["option": .text(parts[0])])
        } else if let parts = first(#"Missing expected argument '([^']*)'"#) {
            sentence = l.text("cli.parse.missingArgument", ["argument": .text(parts[0])])
        } else if let parts = first(#"Unexpected argument '([^']*)'"#) {
            sentence = l.text("cli.parse.unexpected", ["argument": .text(TextRules.visible(parts[0]))])
        } else {
            return nil
        }
        let command = (["wdiet"] + arguments.prefix { !$0.hasPrefix("-") }.prefix(2)).joined(separator: " ")
        return sentence + "\n" + l.text("cli.parse.help", ["command": .text(command)])
    }

    /// `--lang xx` or `--lang=xx` when given and known, else the environment's language.
    private static func language(_ arguments: [String], environment: [String: String]) -> Language {
        for (index, argument) in arguments.enumerated() {
            let value =
                argument.hasPrefix("--lang=")
                ? String(argument.dropFirst("--lang=".count))
                : argument == "--lang" && index + 1 < arguments.count ? arguments[index + 1] : nil
            if let value, let language = Language(argument: value) { return language }
        }
        return Language.resolve(environment: environment)
    }
}
