import ArgumentParser
import Foundation
import Testing

@testable import DietCLI

/// Issue 30, finding 12: ArgumentParser's English "Error: The value … is invalid for '--date'" in
/// German output. Its refusals are now said in the user's language, with where the options are.
@Suite("Command-line refusals in the user's language")
struct ParseErrorTests {
    func refusal(_ arguments: [String], lang: String = "de") -> String? {
        do {
            _ = try WDiet.parseAsRoot(arguments + ["--lang", lang])
            return nil
        } catch {
            return WDiet.parseErrorText(error, arguments: arguments + ["--lang", lang], environment: [:])
        }
    }

    @Test("a date, a choice, an unknown option and a missing value, each in German with the help command")
    func german() {
        #expect(refusal(["today", "--date", "2026-13-01"]) == "--date: „2026-13-01“ kann ich nicht lesen.\nAlle Optionen: wdiet today --help")
        #expect(
            refusal(["set", "--goal", "lost"])
                == "--goal: „lost“ kann ich nicht lesen. Möglich sind: lose, maintain, gain.\nAlle Optionen: wdiet set --help"
        )
        #expect(refusal(["today", "--bogus"]) == "Die Option „--bogus“ gibt es hier nicht.\nAlle Optionen: wdiet today --help")
        #expect(refusal(["meals", "--date"]) == "Bei --date fehlt der Wert.\nAlle Optionen: wdiet meals --help")
        #expect(refusal(["today", "--date", "gestern"], lang: "es") == "--date: no puedo leer «gestern».\nTodas las opciones: wdiet today --help")
    }

    @Test("in English ArgumentParser's own words stay, with its usage")
    func english() {
        #expect(refusal(["today", "--date", "2026-13-01"], lang: "en") == nil)
    }
}
