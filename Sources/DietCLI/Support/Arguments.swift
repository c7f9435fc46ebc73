import ArgumentParser
import DietCore
import Foundation

/// Domain enums as command-line values: `very-active` and `very_active` both work.
protocol DashedArgument: ExpressibleByArgument, CaseIterable, RawRepresentable<String> {}

extension DashedArgument {
    public init?(argument: String) {
        self.init(rawValue: argument.lowercased().replacingOccurrences(of: "-", with: "_"))
    }

    public static var allValueStrings: [String] {
        allCases.map { $0.rawValue.replacingOccurrences(of: "_", with: "-") }
    }

    public var defaultValueDescription: String { rawValue.replacingOccurrences(of: "_", with: "-") }
}

extension Sex: ExpressibleByArgument, DashedArgument {}
extension ActivityLevel: ExpressibleByArgument, DashedArgument {}
extension Goal: ExpressibleByArgument, DashedArgument {}
extension CyclePreset: ExpressibleByArgument, DashedArgument {}
extension Language: ExpressibleByArgument, DashedArgument {}

extension LocalDate: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(iso: argument)
    }
}

/// A failure the user can fix, printed in their language; ArgumentParser exits non-zero.
struct CLIError: Error, CustomStringConvertible {
    let description: String

    init(_ text: String) {
        description = text
    }

    init(_ error: DietCore.ValidationError, language: Language) {
        description = Localizer(language).render(error.message)
    }
}

/// Options every command that talks to the user shares.
struct LanguageOptions: ParsableArguments {
    @Option(name: .customLong("lang"), help: "Language of the output: de, en or es (default: from LANG).")
    var language: Language?

    @Option(name: .customLong("time-zone"), help: "IANA time zone for \"today\" (default: the system's).")
    var timeZoneIdentifier: String?

    func resolvedLanguage(environment: [String: String]) -> Language {
        language ?? Language.resolve(environment: environment)
    }

    func resolvedTimeZone(language: Language) throws -> TimeZone {
        guard let identifier = timeZoneIdentifier else { return .current }
        guard let zone = TimeZone(identifier: identifier) else {
            throw CLIError(Localizer(language).text("cli.error.timeZone", ["value": .text(identifier)]))
        }
        return zone
    }
}
