import DietCore
import Foundation
import Testing

@testable import DietCLI

@Suite("wdiet daily commands")
struct DailyCommandsTests {
    @Test("onboarding from flags starts the cycle today and greets in the chosen language")
    func onboardFlags() async throws {
        let cli = CLIHarness()
        let text = try await cli.run(
            [
                "onboard", "--sex", "female", "--age", "34", "--height", "168", "--weight", "72.5",
                "--activity", "light", "--goal", "lose",
            ],
            now: "2026-01-05T08:00",
            lang: "de"
        )
        #expect(text.contains("Mo. 5. Jan. 2026") && text.contains("1.986 kcal"))
        #expect(
            await failure {
                try await cli.run(
                    [
                        "onboard", "--sex", "male", "--age", "40", "--height", "180", "--weight", "80",
                        "--activity", "light", "--goal", "lose",
                    ],
                    now: "2026-01-06T08:00"
                )
            }
                == "You already have a profile; change it with `wdiet set`."
        )
    }

    @Test("interactive onboarding asks, re-asks on bad answers and accepts defaults")
    func onboardInteractive() async throws {
        let cli = CLIHarness()
        // sex, age (bad, then good), height, weight (default 90.0 for male), activity, goal (maintain: no window)
        cli.input = ["robot", "male", "12", "45", "182", "", "moderate", "maintain"]
        let text = try await cli.run(["onboard"], now: "2026-01-05T08:00")
        #expect(text.contains("2 of 9 · Select your gender"))
        #expect(text.contains("That didn't fit; please try again."))
        #expect(text.contains("Age must be from 18 to 99; you entered 12."))
        #expect(text.contains("> ") == false)
        let profile = try await cli.run(["profile"], now: "2026-01-05T09:00")
        #expect(profile.contains("90.0 kg") && profile.contains("Maintain weight"))
    }

    @Test("interactive onboarding that runs out of input names the missing flag")
    func onboardEOF() async {
        let cli = CLIHarness()
        cli.input = ["female", "34"]
        #expect(
            await failure { try await cli.run(["onboard"], now: "2026-01-05T08:00") }
                == "Onboarding needs an answer here: type it, or pass --height."
        )
    }

    @Test(
        "every command before onboarding says to onboard first",
        arguments: [
            ["today"], ["log", "meal", "Toast", "--kcal", "200"], ["log", "weight", "70"], ["meals"], ["history"], ["cycle"],
            ["profile"], ["export", "/tmp/x"],
        ]
    )
    func notOnboarded(arguments: [String]) async {
        #expect(await failure { try await CLIHarness().run(arguments, now: "2026-01-05T08:00") } == "No profile yet. Run `wdiet onboard` first.")
    }

    @Test("a logged meal appears in today and in meals with running totals; notes never block")
    func logMeal() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let saved = try await cli.run(
            [
                "log", "meal", "Porridge", "--kcal", "420", "--protein", "15", "--carbs", "60", "--fat", "12",
                "--at", "08:30",
            ],
            now: "2026-01-05T09:00"
        )
        #expect(saved.contains("Saved Porridge: 420 kcal on Mon, Jan 5, 2026 at 08:30"))
        #expect(saved.contains("Eating outside your window (12:00–18:00)"))
        _ = try await cli.run(["log", "meal", "Brezel", "--kcal", "250"], now: "2026-01-05T13:00")
        let meals = try await cli.run(["meals"], now: "2026-01-05T14:00")
        #expect(meals.contains("Total 670 kcal · protein 15 g · carbs 60 g · fat 12 g"))
        #expect(meals.contains("670"))
        let today = try await cli.run(["today"], now: "2026-01-05T14:00")
        #expect(today.contains("670 of 1,986 kcal · 1,316 left"))
        #expect(today.contains("1-day streak"))
    }

    @Test(
        "bad meal input names field, range and value, and saves nothing",
        arguments: [
            (["--kcal", "0"], "Calories must be from 1 to 9,999 kcal; you entered 0."),
            (["--kcal", "300", "--protein", "1200"], "Protein must be from 0 to 999 g; you entered 1200."),
            (["--kcal", "300", "--at", "25:00"], "Time must be in the format HH:MM; you entered 25:00."),
        ]
    )
    func badMeal(extra: [String], message: String) async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        #expect(await failure { try await cli.run(["log", "meal", "Toast"] + extra, now: "2026-01-05T13:00") } == message)
        #expect(try await cli.run(["meals"], now: "2026-01-05T14:00").contains("No meals on"))
    }

    @Test("weight: replaces the day's entry, refuses the future and off-grid values")
    func weight() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        _ = try await cli.run(["log", "weight", "72.4"], now: "2026-01-05T07:00")
        let again = try await cli.run(["log", "weight", "72.2"], now: "2026-01-05T07:30")
        #expect(again.contains("Saved 72.2 kg") && again.contains("7-entry average 72.2 kg"))
        #expect(
            await failure { try await cli.run(["log", "weight", "72.25"], now: "2026-01-05T08:00") }
                == "Weight must be from 30.0 to 200.0 kg in steps of 0.1 kg; you entered 72.25."
        )
        #expect(
            await failure { try await cli.run(["log", "weight", "72", "--date", "2026-01-09"], now: "2026-01-05T08:00") }?
                .contains("in the future") == true
        )
    }

    @Test("edit and delete a meal by its short id")
    func editDelete() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let saved = try await cli.run(["log", "meal", "Toast", "--kcal", "200"], now: "2026-01-05T13:00")
        let id = try #require(saved.firstMatch(of: /id ([0-9a-f]{8})/)?.output.1).description
        #expect(
            try await cli.run(["edit", "meal", id, "--kcal", "260", "--name", "Toast with butter"], now: "2026-01-05T13:05")
                == "Updated Toast with butter: 260 kcal"
        )
        #expect(
            try await cli.run(["delete", "meal", id], now: "2026-01-05T13:10")
                == "Deleted Toast with butter from Mon, Jan 5, 2026\nUndo: wdiet restore meal \(id)"
        )
        #expect(
            await failure { try await cli.run(["delete", "meal", id], now: "2026-01-05T13:11") }
                == "No meal with id \"\(id)\". `wdiet meals` lists the ids."
        )
        // Undo: the deleted meal comes back, once
        #expect(try await cli.run(["restore", "meal", id], now: "2026-01-05T13:12") == "Restored Toast with butter on Mon, Jan 5, 2026")
        #expect(try await cli.run(["meals"], now: "2026-01-05T13:13").contains("Toast with butter"))
        #expect(
            await failure { try await cli.run(["restore", "meal", id], now: "2026-01-05T13:14") }
                == "No meal with id \"\(id)\". `wdiet meals` lists the ids."
        )
    }

    @Test("meals are listed under the day's eating moments; a meal goes to the one given with --moment")
    func mealsByMoment() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        _ = try await cli.run(["log", "meal", "Joghurt", "--kcal", "150", "--moment", "3"], now: "2026-01-05T12:10")
        _ = try await cli.run(["log", "meal", "Toast", "--kcal", "200"], now: "2026-01-05T12:00")
        let meals = try await cli.run(["meals"], now: "2026-01-05T13:00", lang: "de")
        let first = try #require(meals.range(of: "Mittagessen · 12:00"))
        let third = try #require(meals.range(of: "Abendessen · 18:00"))
        #expect(first.lowerBound < (meals.range(of: "Toast")?.lowerBound ?? first.lowerBound))
        #expect(third.lowerBound < (meals.range(of: "Joghurt")?.lowerBound ?? meals.startIndex))
        #expect(!meals.contains("Nachmittag"))
        #expect(
            await failure { try await cli.run(["log", "meal", "X", "--kcal", "1", "--moment", "4"], now: "2026-01-05T13:00") }
                == "Eating moment must be from 1 to 3; you entered 4."
        )
    }

    @Test("the phase-switch message shows once on the first open of a new phase")
    func phaseSwitchOnce() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let first = try await cli.run(["today"], now: "2026-01-12T07:00")
        let second = try await cli.run(["today"], now: "2026-01-12T12:00")
        #expect(first.contains("🔔 Diet starts today: 1,390 kcal a day."))
        #expect(!second.contains("🔔"))
    }

    @Test("set changes the window and refuses an invalid deficit without saving")
    func set() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        _ = try await cli.run(["set", "--window", "11:00-17:00"], now: "2026-01-05T09:00")
        #expect(try await cli.run(["profile"], now: "2026-01-05T09:00").contains("11:00–17:00"))
        #expect(
            await failure { try await cli.run(["set", "--deficit", "0.5"], now: "2026-01-05T09:00") }
                == "Deficit must be from 0.10 to 0.35; you entered 0.5."
        )
        #expect(try await cli.run(["profile"], now: "2026-01-05T09:00").contains("30 %"))
    }

    @Test("json output of today parses and carries the phase and targets")
    func json() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let text = try await cli.run(["today", "--json"], now: "2026-01-13T09:00")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((object["cycle"] as? [String: Any])?["phase"] as? String == "diet")
        #expect((object["targets"] as? [String: Any])?["kcal"] as? Int == 1390)
    }

    @Test("export, delete-account with confirmation, then import restores the data")
    func dataRoundTrip() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        _ = try await cli.run(["log", "meal", "Toast", "--kcal", "200"], now: "2026-01-05T13:00")
        let out = cli.folder.appendingPathComponent("export").path
        #expect(try await cli.run(["export", out], now: "2026-01-05T14:00").contains("Exported 11 files"))
        cli.input = ["no"]
        #expect(try await cli.run(["delete-account"], now: "2026-01-05T14:00") == "Nothing was deleted.")
        cli.input = ["delete"]
        #expect(try await cli.run(["delete-account"], now: "2026-01-05T14:00") == "All your data on this device is deleted.")
        #expect(try await cli.run(["import", out + "/w-diet.json"], now: "2026-01-05T14:00").hasPrefix("Imported"))
        #expect(try await cli.run(["meals"], now: "2026-01-05T15:00").contains("Toast"))
        #expect(
            await failure { try await cli.run(["import", out + "/w-diet.json"], now: "2026-01-05T15:00") }?
                .hasPrefix("Import refused: the database already holds") == true
        )
    }
}
