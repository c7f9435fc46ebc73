import Foundation
import GRDB
import TestSupport
import Testing

@testable import DietCLI

@Suite("wdiet food commands")
struct FoodCommandsTests {
    @Test("food search lists ranked foods in the user's language, or says to log by hand")
    func search() async throws {
        let cli = CLIHarness()
        let text = try await cli.run(["food", "search", "hähn"], now: "2026-01-05T08:00", lang: "de")
        #expect(text.split(separator: "\n")[1].contains("5062  Hähnchenbrust"))
        #expect(
            try await cli.run(["food", "search", "xqzzv"], now: "2026-01-05T08:00")
                == "No food matches \"xqzzv\". Log it by hand: wdiet log meal NAME --kcal …"
        )
    }

    @Test("log meal --food with grams or a portion computes calories and macros from the food")
    func logFood() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        // 150 g chicken breast at 109 kcal and 21.8 g protein per 100 g (BLS V4A6100)
        let saved = try await cli.run(["log", "meal", "--food", "5062", "--grams", "150"], now: "2026-01-05T12:30")
        #expect(saved.contains("Saved Chicken breast: 164 kcal"))
        let pretzel = try await cli.run(["log", "meal", "--food", "43109", "--portion", "1 medium"], now: "2026-01-05T13:00")
        // a German medium Brezel of 85 g (data/portions-de.tsv) at BLS Laugengebäck's 282 kcal per 100 g
        #expect(pretzel.contains(": 240 kcal"), "\(pretzel)")
        #expect(
            await failure { try await cli.run(["log", "meal", "--food", "43109", "--portion", "1 giant"], now: "2026-01-05T13:00") }
                == "No portion \"1 giant\" for this food. Portions: 1 large, 1 medium, 1 small."
        )
        #expect(
            await failure { try await cli.run(["log", "meal", "--food", "99999999"], now: "2026-01-05T13:00") }?
                .hasPrefix("No food with id 99999999.") == true
        )
        #expect(
            await failure { try await cli.run(["log", "meal", "--food", "5062", "--kcal", "100"], now: "2026-01-05T13:00") }?
                .hasPrefix("With --food the calories come from the food") == true
        )
    }

    @Test("log text shows the parse and logs only after confirmation, all items at once")
    func logText() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        // "toast" names toast and toast bread alike: the first answer chooses (1, the toast)
        cli.input = ["1", "n"]
        let declined = try await cli.run(["log", "text", "2 eggs and a slice of toast"], now: "2026-01-05T08:00")
        #expect(declined.contains("Egg (1 medium)") && declined.contains("Nothing was logged."))
        #expect(try await cli.run(["meals"], now: "2026-01-05T09:00").hasPrefix("No meals"))
        cli.input = ["", "y"]
        let logged = try await cli.run(["log", "text", "2 eggs and a slice of toast"], now: "2026-01-05T08:00")
        // two eggs of grade M (2 × 51 g, BLS E111100) and a 22 g slice of toast
        #expect(logged.contains("Logged 2 items, 208 kcal."), "\(logged)")
        #expect(try await cli.run(["meals"], now: "2026-01-05T09:00").contains("Total 208 kcal"))
    }

    @Test("Döner mit Pommes und eine Cola, typed in German, is saved as three items of 900 to 1,600 kcal; a range says its middle")
    func donerWithFries() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let logged = try await cli.run(["log", "text", "Döner mit Pommes und eine Cola", "--yes"], now: "2026-01-05T13:00", lang: "de")
        #expect(logged.contains("Döner") && logged.contains("Pommes") && logged.contains("Cola"), "\(logged)")
        #expect(logged.contains("3 Einträge gespeichert"), "\(logged)")
        let today = try await cli.run(["today", "--json"], now: "2026-01-05T14:00", lang: "de")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(today.utf8)) as? [String: Any])
        let eaten = try #require((json["calories"] as? [String: Any])?["eaten_kcal"] as? Int)
        #expect((900...1600).contains(eaten), "\(today)")
        let range = try await cli.run(["log", "text", "1 1/2–2 EL Zucker", "--yes"], now: "2026-01-05T15:00", lang: "de")
        #expect(range.contains("Spanne von 1,5 bis 2: gezählt wird die Mitte, 1,75."), "\(range)")
    }

    @Test("a unit the food has no measure of (1 Dose Tomaten): --yes takes nothing and says so; asked, the table shows what is counted")
    func unitIgnored() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let refused = await failure { try await cli.run(["log", "text", "1 Dose Tomaten", "--yes"], now: "2026-01-05T13:00", lang: "de") }
        #expect(refused?.hasPrefix("„1 Dose Tomaten“: Diese Menge kenne ich für Tomate nicht. Gib sie in Gramm an") == true, "\(refused ?? "")")
        #expect(try await cli.run(["meals"], now: "2026-01-05T13:01", lang: "de").contains("noch keine Mahlzeiten"))
        // asked: no food to choose, the table shows the portion counted, and the person confirms it
        cli.input = ["j"]
        let logged = try await cli.run(["log", "text", "1 Dose Tomaten"], now: "2026-01-05T13:00", lang: "de")
        #expect(logged.contains("Tomate") && logged.contains("123"), "\(logged)")
    }

    @Test("a word naming two foods alike: --yes takes nothing and names both; asked, the person chooses the second")
    func whichOne() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        // "Kartoffelsalat" is the northern one with mayonnaise and the Swabian one with broth alike
        let unsure = await failure {
            try await cli.run(["log", "text", "Bratwurst mit Kartoffelsalat", "--yes"], now: "2026-01-05T13:00", lang: "de")
        }
        #expect(unsure?.hasPrefix("„Kartoffelsalat“ ist nicht eindeutig: ") == true, "\(unsure ?? "")")
        #expect(unsure?.contains("Kartoffelsalat mit Mayonnaise") == true && unsure?.contains("Kartoffelsalat mit Essig und Öl") == true)
        #expect(unsure?.hasSuffix("Es wurde nichts eingetragen.") == true)
        #expect(try await cli.run(["meals"], now: "2026-01-05T13:01", lang: "de").contains("noch keine Mahlzeiten"))
        // asked, the person chooses the second of the choices, then confirms
        let mayonnaiseFirst = unsure?.contains("eindeutig: Kartoffelsalat mit Mayonnaise · ") == true
        let second = mayonnaiseFirst ? "Kartoffelsalat mit Essig und Öl" : "Kartoffelsalat mit Mayonnaise"
        cli.input = ["2", "j"]
        let logged = try await cli.run(["log", "text", "Bratwurst mit Kartoffelsalat"], now: "2026-01-05T13:00", lang: "de")
        #expect(logged.contains("Bratwurst") && logged.contains(second), "\(logged)")
        #expect(logged.contains("2 Einträge gespeichert"), "\(logged)")
    }

    @Test("food show lists portions in the user's language with its decimal comma, without USDA yield notes")
    func showInGerman() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let shown = try await cli.run(["food", "show", "5062"], now: "2026-01-05T08:00", lang: "de")
        // 0,5 is a count other than one: the plural, as "1,5 Portionen"
        #expect(shown.contains("0,5 Brüste, ohne Knochen und Haut = 118,0 g") && !shown.contains("yield"), "\(shown)")
        // the heading is the food's name alone: the source's description is raw English text
        let egg = try await cli.run(["food", "show", "1123"], now: "2026-01-05T08:00", lang: "de")
        #expect(egg.split(separator: "\n").first == "Ei", "\(egg)")
    }

    @Test("asked which one, an answer that is no choice logs nothing")
    func notChosen() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        for answer in ["7", "x", "0"] {
            cli.input = [answer]
            let reply = try await cli.run(["log", "text", "200 g Kartoffelsalat"], now: "2026-01-05T13:00", lang: "de")
            #expect(reply == "Nichts eingetragen: für „200 g Kartoffelsalat“ wurde kein Lebensmittel gewählt.", "\(reply)")
        }
        #expect(try await cli.run(["meals"], now: "2026-01-05T13:01", lang: "de").contains("noch keine Mahlzeiten"))
    }

    @Test("a typed meal naming nothing known logs nothing and says why")
    func nothing() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let message = await failure { try await cli.run(["log", "text", "3 zorblaxes", "--yes"], now: "2026-01-05T08:00") }
        #expect(message?.contains("Not found: \"zorblaxes\"") == true && message?.hasSuffix("Nothing to log.") == true)
    }
}

@Suite("wdiet food barcode and add")
struct FoodBarcodeCommandsTests {
    @Test("a barcode is checked, found in Open Food Facts, cached, and then found offline")
    func barcode() async throws {
        let server = try FakeOpenFoodFacts()
        let cli = CLIHarness(environment: ["WDIET_OPEN_FOOD_FACTS_URL": server.baseURL.absoluteString])
        try await cli.onboardAlice()
        #expect(
            await failure { try await cli.run(["food", "barcode", "4006381333932"], now: "2026-01-05T08:00") }
                == "The last digit should be 1, not 2: check for a typo."
        )
        let found = try await cli.run(["food", "barcode", "4006381333931"], now: "2026-01-05T08:00", lang: "de")
        #expect(found.hasPrefix("Schoko-Knuspermüsli (id "))
        #expect(found.contains("452 kcal") && found.contains("Open Food Facts (openfoodfacts.org), ODbL"))
        let cached = try await cli.run(["food", "barcode", "4006381333931", "--offline"], now: "2026-01-05T08:00", lang: "de")
        #expect(cached.hasPrefix("Schoko-Knuspermüsli") && !cached.contains("ODbL"))
        let unknown = try await cli.run(["food", "barcode", "96385074"], now: "2026-01-05T08:00")
        #expect(unknown.hasPrefix("No product with the barcode 96385074."))
        withExtendedLifetime(server) {}
    }

    @Test("an added food is searchable and loggable by its short id")
    func add() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let added = try await cli.run(
            [
                "food", "add", "Omas", "Müsli", "--kcal", "380", "--protein", "11", "--carbs", "60", "--fat", "8",
                "--portion", "1 Schale=60",
            ],
            now: "2026-01-05T08:00"
        )
        let id = try #require(added.firstMatch(of: /id ([0-9a-f]{8})/)?.output.1).description
        let logged = try await cli.run(["log", "meal", "--food", id, "--portion", "1 Schale"], now: "2026-01-05T12:30")
        // 60 g at 380 kcal per 100 g
        #expect(logged.contains("Saved Omas Müsli: 228 kcal"))
        #expect(
            await failure { try await cli.run(["food", "add", "X", "--kcal", "1200"], now: "2026-01-05T08:00") }
                == "Calories must be from 0 to 900 kcal; you entered 1200.0."
        )
    }
}

@Suite("wdiet log again, copy-day, food recent")
struct CopyCommandsTests {
    @Test("yesterday's meal again, a whole day copied, and the foods used lately")
    func flow() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let saved = try await cli.run(["log", "meal", "--food", "9040"], now: "2026-01-05T08:00")
        _ = try await cli.run(["log", "meal", "Toast", "--kcal", "200"], now: "2026-01-05T08:05")
        let id = try #require(saved.firstMatch(of: /id ([0-9a-f]{8})/)?.output.1).description
        let again = try await cli.run(["log", "again", id], now: "2026-01-06T08:00")
        #expect(again.contains("Saved Banana: 93 kcal on Tue, Jan 6, 2026 at 08:00"))
        let copied = try await cli.run(["log", "copy-day", "--from", "2026-01-05", "--to", "2026-01-07"], now: "2026-01-06T09:00")
        #expect(copied == "Copied 2 meals (293 kcal) from Mon, Jan 5, 2026 to Wed, Jan 7, 2026.")
        let recent = try await cli.run(["food", "recent", "--frequent"], now: "2026-01-06T09:00", lang: "de")
        #expect(recent.split(separator: "\n")[1].range(of: #"^9040  Banane\s+3  Mi\. 7\. Jan\. 2026\s+118 g$"#, options: .regularExpression) != nil)
        // into today at 07:00 the 08:00 and 08:05 meals are ahead of now: not copied unasked
        let early = try await cli.run(["log", "copy-day", "--from", "2026-01-05"], now: "2026-01-06T07:00")
        #expect(early == "Nothing copied: the 2 meals are later in the day than now; --later copies them anyway.")
        let asked = try await cli.run(["log", "copy-day", "--from", "2026-01-05", "--later"], now: "2026-01-06T07:00")
        #expect(asked.hasPrefix("Copied 2 meals (293 kcal)"))
    }
}

@Suite("wdiet recipe")
struct RecipeCommandsTests {
    @Test("a recipe of catalog foods is listed per serving and logged by servings")
    func recipe() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        // 80 g oats (348 kcal/100 g, BLS) + 300 g whole milk (62) = 278.4 + 186 = 464.4 kcal; 2 servings → 232 kcal, 190 g
        let added = try await cli.run(
            ["recipe", "add", "Overnight", "oats", "--servings", "2", "--item", "8120=80", "--item", "1077=300"],
            now: "2026-01-05T08:00"
        )
        #expect(added.contains("one serving is 190 g, 232 kcal"))
        let id = try #require(added.firstMatch(of: /id ([0-9a-f]{8})/)?.output.1).description
        #expect(try await cli.run(["recipe", "list"], now: "2026-01-05T08:00").contains("Overnight oats"))
        let logged = try await cli.run(["log", "meal", "--recipe", id, "--servings", "1.5"], now: "2026-01-05T12:30")
        #expect(logged.contains("Saved Overnight oats: 348 kcal"))
        #expect(
            await failure { try await cli.run(["recipe", "add", "X", "--item", "99999999=10"], now: "2026-01-05T08:00") }?
                .hasPrefix("No food with id 99999999.") == true
        )
        #expect(
            await failure { try await cli.run(["recipe", "add", "X", "--servings", "0", "--item", "8120=10"], now: "2026-01-05T08:00") }
                == "Servings must be from 0.5 to 100.0; you entered 0.0."
        )
    }
}

@Suite("wdiet repeat foods")
struct RepeatFoodTests {
    @Test("a food logged again without an amount takes the amount logged last time; food recent shows it")
    func lastAmount() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        _ = try await cli.run(["log", "meal", "--food", "5062", "--grams", "150"], now: "2026-01-05T12:30")
        _ = try await cli.run(["log", "meal", "--food", "5062"], now: "2026-01-06T12:30")
        let grams = try await DatabaseQueue(path: cli.database).read { db in
            try Double.fetchAll(db, sql: "SELECT portion_g FROM meal_logs ORDER BY created_at")
        }
        #expect(grams == [150, 150])
        #expect(try await cli.run(["food", "recent"], now: "2026-01-06T13:00").contains("150 g"))
    }
}
