import DietCore
import Foundation
import GRDB
import Testing

@testable import DietCLI

/// What the CLI takes in and lets out: control characters are refused in every argument and
/// never reach the terminal from data; a meal in words has limits.
@Suite("wdiet input and output boundaries")
struct InputBoundaryTests {
    /// Rows of `table` in the harness's database.
    static func count(_ table: String, _ cli: CLIHarness) throws -> Int {
        try DatabaseQueue(path: cli.database).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }

    @Test(
        "an argument with an escape or other control character is refused, naming it, and nothing is saved",
        arguments: [
            (["log", "meal", "a\u{1B}[2Jb", "--kcal", "100"], "Argument 3 of the command line"),
            (["log", "meal", "Toast", "--kcal", "100", "--at", "12:00\u{7}"], "The value of --at"),
            (["log", "text", "2 eggs\u{1B}]0;owned\u{7}", "--yes"], "Argument 3 of the command line"),
            (["food", "add", "Oat\u{0085}milk", "--kcal", "40"], "Argument 3 of the command line"),
            (["recipe", "add", "Oats\u{1B}", "--item", "8120=80"], "Argument 3 of the command line"),
            (["calendar", "add", "/nonexistent.ics", "--name=Work\u{1B}[31m"], "The value of --name"),
            (["account", "login", "--server", "http://127.0.0.1:9", "--email", "a\u{1B}@example.org"], "The value of --email"),
        ]
    )
    func controlArguments(arguments: [String], named: String) async throws {
        // Given an onboarded store
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let meals = try Self.count("meal_logs", cli)
        let outbox = try Self.count("sync_outbox", cli)
        // When a command gets an argument with a control character
        let message = try #require(await failure { try await cli.run(arguments, now: "2026-01-05T12:30") })
        // Then it is refused with the argument, the rule and the value made visible, and nothing changed
        #expect(message.hasPrefix(named), "\(message)")
        #expect(message.contains("must be text without control characters (tab and line break are fine)"))
        #expect(message.contains("\\u00") && TextRules.forbiddenControlCharacter(in: message) == nil, "\(message)")
        #expect(try Self.count("meal_logs", cli) == meals && Self.count("sync_outbox", cli) == outbox)
    }

    @Test("the refusal of a control character speaks the user's language")
    func controlArgumentGerman() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let message = await failure { try await cli.run(["log", "meal", "Kuchen\u{1B}", "--kcal", "300"], now: "2026-01-05T12:30", lang: "de") }
        #expect(
            message == "Argument 3 der Befehlszeile muss Text ohne Steuerzeichen (Tabulator und Zeilenumbruch sind erlaubt) sein; "
                + "erhalten: \"Kuchen\\u001B\". Nichts wurde geändert."
        )
    }

    @Test("a password with a NUL from standard input is refused before anything is sent, without echoing it")
    func passwordNUL() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        cli.input = ["se\u{0}cret"]
        let message = await failure {
            try await cli.run(
                ["account", "login", "--server", "http://127.0.0.1:9", "--email", "a@example.org", "--password-stdin"],
                now: "2026-01-05T12:30"
            )
        }
        #expect(message == "Password must be text without control characters (tab and line break are fine); you entered U+0000.")
    }

    @Test("a meal name with an escape sequence written into the store is shown escaped by meals, today and history")
    func storedEscapes() async throws {
        // Given a meal whose name holds ESC[2J, written straight into the SQLite file (as old or synced data may be)
        let cli = CLIHarness()
        try await cli.onboardAlice()
        _ = try await cli.run(["log", "meal", "Soup", "--kcal", "300"], now: "2026-01-05T12:30")
        try await DatabaseQueue(path: cli.database).write { db in
            try db.execute(sql: "UPDATE meal_logs SET name = ?", arguments: ["Soup\u{1B}[2J\u{9B}31m"])
        }
        // When the commands that show meals run
        let meals = try await cli.run(["meals"], now: "2026-01-05T13:00")
        let outputs = try await [
            meals, cli.run(["today"], now: "2026-01-05T13:00"), cli.run(["history", "--days", "3"], now: "2026-01-05T13:00"),
            cli.run(["delete", "meal", String(meals.split(separator: "\n")[3].prefix(8))], now: "2026-01-05T13:05"),
        ]
        // Then no control character reaches the terminal; the name is shown with visible escapes
        for output in outputs {
            #expect(TextRules.forbiddenControlCharacter(in: output) == nil, "\(output)")
        }
        #expect(meals.contains("Soup\\u001B[2J\\u009B31m"))
        #expect(outputs[3].contains("Deleted Soup\\u001B[2J\\u009B31m"), "\(outputs[3])")
    }

    @Test("--json output keeps a stored control character escaped and decodes back to the stored name")
    func storedEscapesJSON() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        _ = try await cli.run(["log", "meal", "Soup", "--kcal", "300"], now: "2026-01-05T12:30")
        let stored = "Soup\u{1B}[2J\u{7F}\u{85}"
        try await DatabaseQueue(path: cli.database).write { db in try db.execute(sql: "UPDATE meal_logs SET name = ?", arguments: [stored]) }
        for arguments in [["meals", "--json"], ["today", "--json"]] {
            let json = try await cli.run(arguments, now: "2026-01-05T13:00")
            #expect(TextRules.forbiddenControlCharacter(in: json) == nil, "\(json)")
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
            let meals = (object as? [[String: Any]]) ?? ((object as? [String: Any])?["meals"] as? [[String: Any]]) ?? []
            #expect(meals.first?["name"] as? String == stored)
        }
    }

    @Test("the terminal keeps the CLI's own colours but never a data escape")
    func keepsOwnStyles() {
        let terminal = Terminal(color: true)
        let text = terminal.paint("Diet", .bold) + " Soup\u{1B}[2J " + "\u{1B}[1m"
        let safe = Terminal.safe(text, keepingStyles: true)
        #expect(safe.hasPrefix("\u{1B}[1mDiet\u{1B}[0m Soup\\u001B[2J "))
        #expect(Terminal.safe(text, keepingStyles: false).contains("\u{1B}") == false)
    }
}

@Suite("wdiet log text limits")
struct LogTextLimitTests {
    @Test(
        "a meal in words beyond the limits is refused with the limit and what was received; nothing is logged",
        arguments: [
            (String(repeating: "egg, ", count: 200) + "toast", "Meal in words must be 1 to 1,000 characters long; you entered 1,005 characters."),
            (Array(repeating: "egg", count: 31).joined(separator: ", "), "Number of foods in one meal must be from 1 to 30; you entered 31."),
            ("10000 eggs", "Quantity must be from 0 to 50; you entered 10000 (\"10000 eggs\")."),
            ("eggs 10000", "Quantity must be from 0 to 50; you entered 10000 (\"eggs 10000\")."),
            ("6 kg potatoes", "Quantity must be from 0 to 5,000 g; you entered 6000 g (\"6 kg potatoes\")."),
        ]
    )
    func limits(text: String, expected: String) async throws {
        // Given an onboarded store
        let cli = CLIHarness()
        try await cli.onboardAlice()
        // When the phrase breaks a limit, even with --yes
        let message = await failure { try await cli.run(["log", "text", text, "--yes"], now: "2026-01-05T12:30") }
        // Then it is refused with the limit, and nothing is logged
        #expect(message == expected)
        #expect(try InputBoundaryTests.count("meal_logs", cli) == 0)
    }

    @Test("a food of a meal in words over 9,999 kcal is refused by the meal's calorie range; nothing is logged")
    func overCalories() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let message = await failure { try await cli.run(["log", "text", "2 eggs and 5 kg butter", "--yes"], now: "2026-01-05T12:30") }
        #expect(message?.hasPrefix("Calories must be from 1 to 9,999 kcal; you entered ") == true, "\(message ?? "")")
        #expect(try InputBoundaryTests.count("meal_logs", cli) == 0)
    }

    @Test("history's --days out of range names the option, the range and what was typed")
    func historyDaysOutOfRange() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        #expect(
            await failure { try await cli.run(["history", "--days", "0"], now: "2026-01-05T13:00") }
                == "Days (--days) must be from 1 to 365; you entered 0."
        )
    }

    @Test("a meal in words within the limits still logs: 30 foods, 50 eggs, 5 kg")
    func withinLimits() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let many = try await cli.run(["log", "text", Array(repeating: "apple", count: 30).joined(separator: ", "), "--yes"], now: "2026-01-05T12:30")
        #expect(many.contains("Logged 30 items"), "\(many)")
        #expect(try await cli.run(["log", "text", "50 eggs", "--yes"], now: "2026-01-05T12:35").contains("Logged 1 item,"))
        #expect(try await cli.run(["log", "text", "5 kg potatoes", "--yes"], now: "2026-01-05T12:40").contains("Logged 1 item,"))
    }
}

/// The same boundaries through the built executable: its own `main` checks the arguments and
/// writes every message, errors on standard error included, with control characters visible.
@Suite("wdiet boundaries end to end", .serialized)
struct InputBoundaryEndToEndTests {
    @Test("the executable refuses an escape in an argument on stderr, shows stored escapes visibly, and still helps")
    func executable() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: EndToEndTests.binary.path), "build the package first")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("w-diet.sqlite").path
        _ = try EndToEndTests.wdiet(
            [
                "onboard", "--sex", "male", "--age", "40", "--height", "180", "--weight", "90", "--activity",
                "moderate", "--goal", "lose",
            ],
            database: database,
            now: "2026-01-05T08:00"
        )
        // an escape typed into an argument: refused on stderr, made visible, nothing printed or saved
        let refused = try EndToEndTests.wdiet(["log", "meal", "Suppe\u{1B}[2J", "--kcal", "100"], database: database, now: "2026-01-05T12:00")
        #expect(refused.status == 1 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains("Argument 3 der Befehlszeile") && refused.stderr.contains("\"Suppe\\u001B[2J\""), "\(refused.stderr)")
        #expect(!refused.stderr.contains("\u{1B}"))
        // a refusal of our own is a sentence in the user's language, without ArgumentParser's English "Error: "
        #expect(!refused.stderr.contains("Error:"), "\(refused.stderr)")
        let badName = try EndToEndTests.wdiet(
            ["set", "--moment-names", String(repeating: "x", count: 31)],
            database: database,
            now: "2026-01-05T12:00"
        )
        #expect(badName.status == 1 && badName.stderr.hasPrefix("Name der Mahlzeit: erlaubt ist 1 bis 30 Zeichen;"), "\(badName.stderr)")
        // an escape already in the store: shown visibly
        _ = try EndToEndTests.wdiet(["log", "meal", "Suppe", "--kcal", "100"], database: database, now: "2026-01-05T12:00")
        try await DatabaseQueue(path: database).write { db in try db.execute(sql: "UPDATE meal_logs SET name = ?", arguments: ["Suppe\u{1B}[2J"]) }
        let meals = try EndToEndTests.wdiet(["meals"], database: database, now: "2026-01-05T13:00")
        #expect(meals.status == 0 && meals.stdout.contains("Suppe\\u001B[2J") && !meals.stdout.contains("\u{1B}"), "\(meals.stdout)")
        // help and usage errors still behave as ArgumentParser's own main
        let help = try EndToEndTests.wdiet(["--help"], database: database, now: "2026-01-05T13:00")
        #expect(help.status == 0 && help.stdout.contains("USAGE: wdiet"))
        let unknown = try EndToEndTests.wdiet(["today", "--bogus"], database: database, now: "2026-01-05T13:00")
        #expect(unknown.status == 64 && unknown.stderr.contains("--bogus"))
    }
}

/// Numbers as a German-speaking person types them (issue 14): the decimal comma works in
/// every number argument, and refusals name field, range with unit and what was typed.
@Suite("wdiet reads numbers in the user's language")
struct DecimalCommaTests {
    @Test("`wdiet log weight 72,4` saves 72.4 kg instead of an English parser error")
    func weightComma() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let output = try await cli.run(["log", "weight", "72,4"], now: "2026-01-05T08:30", lang: "de")
        #expect(output.contains("72,4 kg"), "\(output)")
        let kg = try await DatabaseQueue(path: cli.database).read { db in try Double.fetchOne(db, sql: "SELECT weight_kg FROM weight_entries") }
        #expect(kg == 72.4)
    }

    @Test("--kcal 450,5 is 451 kcal; macros take a comma too")
    func kcalComma() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        _ = try await cli.run(
            ["log", "meal", "Kuchen", "--kcal", "450,5", "--protein", "6,5", "--carbs", "50", "--fat", "24,8"],
            now: "2026-01-05T12:30",
            lang: "de"
        )
        let row = try DatabaseQueue(path: cli.database).read { db in
            try Row.fetchOne(db, sql: "SELECT kcal, protein_g, fat_g FROM meal_logs")
        }
        #expect(row?["kcal"] == 451)
        #expect(row?["protein_g"] == 6.5)
        #expect(row?["fat_g"] == 24.8)
    }

    @Test("onboarding takes --weight 72,5 and --height 168,5")
    func onboardingComma() async throws {
        let cli = CLIHarness()
        _ = try await cli.run(
            [
                "onboard", "--sex", "female", "--age", "34", "--height", "168,5", "--weight", "72,5", "--activity", "light",
                "--goal", "lose",
            ],
            now: "2026-01-05T08:00",
            lang: "de"
        )
        let row = try DatabaseQueue(path: cli.database).read { db in try Row.fetchOne(db, sql: "SELECT weight_kg, height_cm FROM profile") }
        #expect(row?["weight_kg"] == 72.5)
        #expect(row?["height_cm"] == 168.5)
    }

    @Test("a bad number is refused in German, naming field, range with unit and what was typed; nothing saved")
    func germanRefusal() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let message = await failure { try await cli.run(["log", "meal", "Kuchen", "--kcal", "viel"], now: "2026-01-05T12:30", lang: "de") }
        #expect(message == "Kalorien: erlaubt ist 1 bis 9.999 kcal; du hast \"viel\" eingegeben.")
        let weight = await failure { try await cli.run(["log", "weight", "7,24,"], now: "2026-01-05T12:30", lang: "de") }
        #expect(weight?.hasPrefix("Gewicht: erlaubt ist 30,0 bis 200,0 kg") == true, "\(weight ?? "")")
        #expect(try InputBoundaryTests.count("meal_logs", cli) == 0)
    }

    @Test("a meal name too long says '81 Zeichen', not 'muss 1–80 sein; erhalten: 81'")
    func nameLength() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let message = await failure {
            try await cli.run(["log", "meal", String(repeating: "ä", count: 81), "--kcal", "300"], now: "2026-01-05T12:30", lang: "de")
        }
        #expect(message == "Name der Mahlzeit: erlaubt ist 1 bis 80 Zeichen; du hast 81 Zeichen eingegeben.")
    }

    @Test("quick add: calories alone are a meal named 'Schnell erfasst' in German")
    func quickAdd() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let output = try await cli.run(["log", "meal", "--kcal", "300"], now: "2026-01-05T12:30", lang: "de")
        #expect(output.contains("Schnell erfasst"), "\(output)")
    }

    @Test("--portion \"0,5 breast\" is 118 g in the CLI, as in the web")
    func halfBreast() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        _ = try await cli.run(["log", "meal", "--food", "5062", "--portion", "0,5 breast"], now: "2026-01-05T12:30")
        let grams = try await DatabaseQueue(path: cli.database).read { db in try Double.fetchOne(db, sql: "SELECT portion_g FROM meal_logs") }
        #expect(grams == 118)
    }

    @Test("1,390 of 1,373 kcal: today says 'kcal over', never 'left'")
    func overToday() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        _ = try await cli.run(["log", "meal", "Großes Essen", "--kcal", "2500"], now: "2026-01-05T12:30")
        let today = try await cli.run(["today"], now: "2026-01-05T13:00")
        #expect(today.contains("kcal over"), "\(today)")
        #expect(!today.contains(" left"), "\(today)")
        // the ring is full (a calories-only meal fills it with "=") and marked "+"
        let ring = try #require(today.split(separator: "\n").first { $0.hasPrefix("Ring") })
        #expect(ring.contains("[==============================]+"), "\(ring)")
    }
}
