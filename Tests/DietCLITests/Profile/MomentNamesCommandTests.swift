import DietCore
import Foundation
import Testing

@testable import DietCLI

/// `wdiet set --moment-names`: the eating moments named by their place, shown by `wdiet profile`
/// and its `--json`, and wherever meals are listed under their moments.
@Suite("wdiet set --moment-names")
struct MomentNamesCommandTests {
    static func moments(_ cli: CLIHarness, lang: String = "de", now: String = "2026-01-05T09:00") async throws -> [[String: Any]] {
        let text = try await cli.run(["profile", "--json"], now: now, lang: lang)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return try #require(object["moments"] as? [[String: Any]])
    }

    @Test("names by place show in profile, its --json and meals; new times keep them; empty is the name by its time")
    func rename() async throws {
        // Given Alice's moments 12:00, 15:00 and 18:00
        let cli = CLIHarness()
        try await cli.onboardAlice()
        // When the first and the last are renamed
        _ = try await cli.run(["set", "--moment-names", "Brunch,,Abendbrot"], now: "2026-01-05T09:00", lang: "de")
        // Then profile shows them, the middle one named by its time
        let profile = try await cli.run(["profile"], now: "2026-01-05T09:00", lang: "de")
        #expect(profile.contains("Brunch · 12:00, Nachmittag · 15:00, Abendbrot · 18:00"), "\(profile)")
        let moments = try await Self.moments(cli)
        #expect(moments.map { $0["time"] as? String } == ["12:00", "15:00", "18:00"])
        #expect(moments.map { $0["kind"] as? String } == ["lunch", "afternoon", "dinner"])
        #expect(moments.map { $0["name"] as? String } == ["Brunch", "Nachmittag", "Abendbrot"])
        #expect(moments.map { $0["custom"] as? Bool } == [true, false, true])
        #expect(moments.map { $0["number"] as? Int } == [1, 2, 3])
        // And in English the default name is English, the user's names stay as given
        #expect(try await Self.moments(cli, lang: "en").map { $0["name"] as? String } == ["Brunch", "Afternoon snack", "Abendbrot"])
        // When a time changes, the names stay with their places
        _ = try await cli.run(["set", "--moments", "12:30,15:00,18:00"], now: "2026-01-05T09:00")
        let moved = try await cli.run(["profile"], now: "2026-01-05T09:00", lang: "de")
        #expect(moved.contains("12:00–18:00") && moved.contains("Brunch · 12:30, Nachmittag · 15:00, Abendbrot · 18:00"), "\(moved)")
        _ = try await cli.run(["log", "meal", "Toast", "--kcal", "200"], now: "2026-01-05T12:40")
        #expect(try await cli.run(["meals"], now: "2026-01-05T13:00", lang: "de").contains("Brunch · 12:30"))
        // When the names are emptied, the moments are named by their time again
        _ = try await cli.run(["set", "--moment-names", ""], now: "2026-01-05T13:00")
        #expect(try await Self.moments(cli, now: "2026-01-05T13:00").map { $0["name"] as? String } == ["Mittagessen", "Nachmittag", "Abendessen"])
    }

    @Test("a bad name is refused in the user's language, naming the field; nothing is saved")
    func badNames() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let long = String(repeating: "x", count: 31)
        #expect(
            await failure { try await cli.run(["set", "--moment-names", "Brunch,\(long)"], now: "2026-01-05T09:00", lang: "de") }
                == "Name der Mahlzeit: erlaubt ist 1 bis 30 Zeichen; du hast 31 Zeichen eingegeben."
        )
        #expect(
            await failure { try await cli.run(["set", "--moment-names", "a,b,c,d"], now: "2026-01-05T09:00", lang: "de") }
                == "Namen der Mahlzeiten: höchstens 3, einer je Essenszeit; du hast 4 angegeben."
        )
        #expect(
            await failure { try await cli.run(["set", "--moment-names", long], now: "2026-01-05T09:00", lang: "es") }
                == "Nombre de la comida: se admite de 1 a 30 caracteres; introducido: 31 caracteres."
        )
        // the window given beside a bad name is not saved either
        #expect(await failure { try await cli.run(["set", "--window", "11:00-17:00", "--moment-names", long], now: "2026-01-05T09:00") } != nil)
        // a control character is refused before anything runs, naming the option
        let l = Localizer(.de)
        #expect(
            await failure { try await cli.run(["set", "--moment-names", "a\u{1B}b"], now: "2026-01-05T09:00", lang: "de") }
                == l.text(
                    "cli.error.controlOption",
                    [
                        "option": .text("--moment-names"), "allowed": .message(ValidationError.Allowed.noControlCharacters.message),
                        "received": .text(TextRules.quoted("a\u{1B}b")),
                    ]
                )
        )
        let profile = try await cli.run(["profile"], now: "2026-01-05T09:00", lang: "de")
        #expect(profile.contains("12:00–18:00") && profile.contains("Mittagessen · 12:00, Nachmittag · 15:00, Abendessen · 18:00"), "\(profile)")
    }
}
