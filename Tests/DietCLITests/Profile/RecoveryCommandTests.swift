import DietCore
import DietStore
import Foundation
import TestSupport
import Testing

@testable import DietCLI

/// `wdiet set recovery-mode on|off` and mindful logging (docs/rules.md §8).
@Suite("wdiet in recovery mode")
struct RecoveryCommandTests {
    /// Alice, onboarded on Mon 2026-01-05; recovery mode on from Fri 2026-01-16 (programme day 12, a diet day).
    func inRecovery() async throws -> CLIHarness {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let on = try await cli.run(["set", "recovery-mode", "on"], now: "2026-01-16T08:00")
        #expect(on.hasPrefix("Recovery mode is on."))
        return cli
    }

    @Test("turning it on is one step; the dashboard then shows the eating moments and no number")
    func turnOn() async throws {
        let cli = try await inRecovery()
        let today = try await cli.run(["today"], now: "2026-01-16T13:00")
        #expect(today.hasPrefix("Recovery mode · since Fri, Jan 16, 2026"))
        #expect(today.contains("The cycle rests at maintenance"))
        #expect(today.split(separator: "\n").contains { $0.contains("○  Lunch · 12:00") && $0.hasSuffix("  not yet") })
        #expect(today.split(separator: "\n").contains { $0.contains("○  Dinner · 18:00") && $0.hasSuffix("  later today") })
        #expect(!today.contains("kcal") && !today.contains("Streak") && !today.contains(" kg"))
    }

    @Test("turning it off asks once; no answer or no keeps it on, yes turns it off")
    func turnOffAsks() async throws {
        let cli = try await inRecovery()
        let noInput = try await cli.run(["set", "recovery-mode", "off"], now: "2026-01-20T08:00")
        #expect(noInput == "Recovery mode stays on.\nTurning recovery mode off asks first: answer y, or pass --yes.")
        cli.input = ["n"]
        #expect(try await cli.run(["set", "recovery-mode", "off"], now: "2026-01-20T08:00") == "Recovery mode stays on.")
        cli.input = ["y"]
        #expect(
            try await cli.run(["set", "recovery-mode", "off"], now: "2026-01-20T08:00")
                == "Recovery mode is off. Your plan picks up where it paused."
        )
        #expect(try await cli.run(["today"], now: "2026-01-20T09:00").contains("kcal"))
    }

    @Test("--yes turns it off without asking, and the diet block resumes at the day it paused")
    func turnOffYes() async throws {
        let cli = try await inRecovery()
        let off = try await cli.run(["set", "recovery-mode", "off", "--yes"], now: "2026-01-26T08:00")
        #expect(off == "Recovery mode is off. Your plan picks up where it paused.")
        let json = try await cli.run(["today", "--json"], now: "2026-01-26T09:00")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let cycle = try #require(object["cycle"] as? [String: Any])
        #expect(cycle["phase"] as? String == "diet" && cycle["programme_day"] as? Int == 12 && cycle["day_in_phase"] as? Int == 5)
        #expect(try await cli.run(["set", "recovery-mode", "off"], now: "2026-01-26T09:00") == "Recovery mode is already off.")
    }

    @Test("a bad switch word is refused with the usage")
    func usage() async throws {
        let cli = try await inRecovery()
        #expect(
            await failure { try await cli.run(["set", "recovery-mode", "maybe"], now: "2026-01-16T09:00") }
                == "Say on or off: wdiet set recovery-mode on|off"
        )
        #expect(
            await failure { try await cli.run(["set", "recovery", "on"], now: "2026-01-16T09:00") } == "Say on or off: wdiet set recovery-mode on|off"
        )
    }

    @Test("a meal noted mindfully stays in the day's meals once recovery mode is off, without a number (issue 30)")
    func mindfulAfterOff() async throws {
        let cli = try await inRecovery()
        _ = try await cli.run(["log", "Pasta with friends", "--hunger", "4", "--fullness", "sehr satt"], now: "2026-01-16T12:30")
        _ = try await cli.run(["set", "recovery-mode", "off", "--yes"], now: "2026-01-16T12:40")
        let meals = try await cli.run(["meals"], now: "2026-01-16T13:00")
        #expect(meals.contains("12:30  Pasta with friends · noted mindfully"), "\(meals)")
    }

    @Test("wdiet log \"…\" --hunger --fullness --feeling logs a mindful meal, in words")
    func logMindful() async throws {
        let cli = try await inRecovery()
        let saved = try await cli.run(
            ["log", "Pasta with friends", "--hunger", "4", "--fullness", "sehr satt", "--feeling", "social"],
            now: "2026-01-16T12:30"
        )
        #expect(saved.hasPrefix("Saved Pasta with friends at 12:30 (id "))
        let meals = try await cli.run(["meals"], now: "2026-01-16T13:00")
        #expect(meals.contains("Pasta with friends — hunger before: satisfied · fullness after: very full · feeling in good company"))
        let today = try await cli.run(["today"], now: "2026-01-16T13:00")
        #expect(today.split(separator: "\n").contains { $0.contains("●  Lunch · 12:00") && $0.hasSuffix("  Pasta with friends") })
        let json = try await cli.run(["meals", "--json"], now: "2026-01-16T13:00")
        #expect(json.contains(#""hunger" : "satisfied""#) && json.contains(#""fullness" : "very_full""#))
    }

    @Test(
        "German and Spanish words are understood, and errors list the words of the language",
        arguments: [
            (["--hunger", "hungrig", "--fullness", "angenehm satt"], "de"), (["--hunger", "mucha hambre", "--fullness", "a gusto"], "es"),
        ]
    )
    func languages(words: [String], lang: String) async throws {
        let cli = try await inRecovery()
        _ = try await cli.run(["log", "Suppe"] + words, now: "2026-01-16T12:30", lang: lang)
        let store = try AppDatabase.open(path: cli.database, clock: FixedClock.at(.ymd(2026, 1, 16), 13, in: Zones.berlin))
        #expect(try store.mindfulMeals(on: .ymd(2026, 1, 16)).count == 1)
    }

    @Test(
        "hunger 0 or 6, a bad word, a missing fullness and a name of 81 characters are refused; nothing is saved",
        arguments: [
            (["Soup", "--hunger", "0", "--fullness", "3"], "Hunger before"),
            (["Soup", "--hunger", "6", "--fullness", "3"], "Hunger before"),
            (["Soup", "--hunger", "starving-ish", "--fullness", "3"], "Hunger before"),
            (["Soup", "--hunger", "2"], "Fullness after"),
            ([String(repeating: "a", count: 81), "--hunger", "2", "--fullness", "3"], "81 characters"),
        ]
    )
    func refused(arguments: [String], expected: String) async throws {
        let cli = try await inRecovery()
        let message = try #require(await failure { try await cli.run(["log"] + arguments, now: "2026-01-16T12:30") })
        #expect(message.contains(expected))
        let store = try AppDatabase.open(path: cli.database, clock: FixedClock.at(.ymd(2026, 1, 16), 13, in: Zones.berlin))
        #expect(try store.mindfulMeals(on: .ymd(2026, 1, 16)).isEmpty)
    }

    @Test("the refusal of a bad step lists the five words")
    func refusalLists() async throws {
        let cli = try await inRecovery()
        let message = try #require(await failure { try await cli.run(["log", "Soup", "--hunger", "6", "--fullness", "3"], now: "2026-01-16T12:30") })
        #expect(message.contains("1 very hungry, 2 hungry, 3 neutral, 4 satisfied, 5 very full"))
    }

    @Test("calories given in recovery mode are left out, gently, and the meal is kept without them")
    func amountLeftOut() async throws {
        let cli = try await inRecovery()
        let saved = try await cli.run(["log", "meal", "Soup", "--kcal", "1234", "--hunger", "2", "--fullness", "4"], now: "2026-01-16T12:30")
        #expect(saved.contains("Recovery mode keeps no amounts, so the numbers were left out."))
        #expect(!saved.contains("1234") && !saved.contains("1,234"))
        let store = try AppDatabase.open(path: cli.database, clock: FixedClock.at(.ymd(2026, 1, 16), 13, in: Zones.berlin))
        #expect(try store.meals(on: .ymd(2026, 1, 16)).isEmpty)
        #expect(try store.mindfulMeals(on: .ymd(2026, 1, 16)).map(\.entry.name) == ["Soup"])
    }

    @Test("a weight is kept without being shown")
    func weight() async throws {
        let cli = try await inRecovery()
        let saved = try await cli.run(["log", "weight", "87.6"], now: "2026-01-16T07:30")
        #expect(saved == "Saved. Recovery mode keeps weights out of sight.")
        let store = try AppDatabase.open(path: cli.database, clock: FixedClock.at(.ymd(2026, 1, 16), 13, in: Zones.berlin))
        #expect(try store.weights(from: .ymd(2026, 1, 16), through: .ymd(2026, 1, 16)).map(\.kg) == [87.6])
    }

    @Test(
        "commands that log amounts point to the mindful log",
        arguments: [
            ["log", "text", "2 eggs"], ["log", "copy-day", "--from", "2026-01-15"], ["recipe", "add", "Soup", "--item", "x=1"],
        ]
    )
    func amountsRefused(arguments: [String]) async throws {
        let cli = try await inRecovery()
        #expect(
            await failure { try await cli.run(arguments, now: "2026-01-16T12:30") }
                == "Recovery mode logs meals without amounts: wdiet log \"what you ate\" --hunger … --fullness …"
        )
    }

    @Test("a mindful meal can be deleted and restored by its id")
    func deleteRestore() async throws {
        let cli = try await inRecovery()
        let saved = try await cli.run(["log", "Toast", "--hunger", "3", "--fullness", "4"], now: "2026-01-16T08:30")
        let id = try #require(saved.firstMatch(of: /\(id ([0-9a-f]{8})\)/).map { String($0.output.1) })
        #expect(try await cli.run(["delete", "meal", id], now: "2026-01-16T09:00").hasPrefix("Deleted Toast"))
        #expect(try await cli.run(["meals"], now: "2026-01-16T09:00") == "No meals logged on Fri, Jan 16, 2026.")
        _ = try await cli.run(["restore", "meal", id], now: "2026-01-16T09:01")
        #expect(try await cli.run(["meals"], now: "2026-01-16T09:02").contains("Toast"))
    }

    @Test("a mindful meal's name, steps and feeling can be changed; what is not given stays")
    func edit() async throws {
        let cli = try await inRecovery()
        let saved = try await cli.run(["log", "Toast", "--hunger", "3", "--fullness", "4", "--feeling", "tired"], now: "2026-01-16T08:30")
        let id = try #require(saved.firstMatch(of: /\(id ([0-9a-f]{8})\)/).map { String($0.output.1) })
        #expect(try await cli.run(["edit", "meal", id, "--fullness", "very full"], now: "2026-01-16T09:00") == "Saved Toast.")
        let meals = try await cli.run(["meals"], now: "2026-01-16T09:00")
        #expect(meals.contains("08:30  Toast — hunger before: neutral · fullness after: very full · feeling tired"))
        #expect(
            await failure { try await cli.run(["edit", "meal", id, "--hunger", "9"], now: "2026-01-16T09:00") }?.contains("Hunger before") == true
        )
    }

    @Test("the cycle shows the pause, without targets")
    func cycle() async throws {
        let cli = try await inRecovery()
        let text = try await cli.run(["cycle"], now: "2026-01-18T09:00")
        #expect(text.contains("Paused (recovery mode)"))
        #expect(!text.contains("kcal"))
    }
}
