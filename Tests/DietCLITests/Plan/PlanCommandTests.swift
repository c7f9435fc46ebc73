import DietCore
import Foundation
import TestSupport
import Testing

@testable import DietCLI

@Suite("wdiet plan")
struct PlanCommandTests {
    let alice = [
        "plan", "--sex", "female", "--age", "34", "--height", "168", "--weight", "72.5",
        "--activity", "light", "--goal", "lose", "--time-zone", "Europe/Berlin",
    ]
    let clock = FixedClock.at(.ymd(2026, 11, 22), 8, in: Zones.berlin)

    private func output(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let command = try #require(try WDiet.parseAsRoot(arguments) as? PlanCommand)
        return try command.render(clock: clock, environment: environment)
    }

    @Test("prints BMR, TDEE, today's target, macro goals and a 10-week table in English")
    func english() async throws {
        // Given Alice on her first day; When she asks for her plan in English
        let text = try output(alice + ["--lang", "en"])
        // Then the numbers of docs/rules.md §2 appear: BMR 1,444, TDEE 1,986, diet 1,390
        #expect(text.contains("1,444 kcal"))
        #expect(text.contains("BMR 1,444 kcal × 1.375 (light) = 1,986 kcal"))
        #expect(text.contains("Habit week, day 1 of 7"))
        #expect(text.contains("protein 141 g · carbs 231 g · fat 55 g"))
        #expect(text.contains("Diet from Sun, Nov 29, 2026: 1,390 kcal"))
        let rows = text.split(separator: "\n").filter { $0.range(of: #"^\s*\d+\s{2}"#, options: .regularExpression) != nil }
        #expect(rows.count == 10)
        #expect(rows[0].contains("Habit week") && rows[0].contains("1,986 kcal  ◀"))
        #expect(rows[1].contains("Diet") && rows[1].contains("1,390 kcal"))
        #expect(rows[3].contains("Maintenance") && rows[3].contains("Sun, Dec 13, 2026"))
        #expect(rows[9].contains("Diet"))
    }

    @Test("speaks German from LANG, with German number formats")
    func german() async throws {
        let text = try output(alice, environment: ["LANG": "de_DE.UTF-8"])
        #expect(text.contains("Dein w-diet-Plan"))
        #expect(text.contains("Grundumsatz 1.444 kcal × 1,375 (leicht aktiv) = 1.986 kcal"))
        #expect(text.contains("Gewohnheitswoche, Tag 1 von 7"))
    }

    @Test("a later start date and --weeks shape the table")
    func startAndWeeks() async throws {
        let text = try output(alice + ["--lang", "es", "--start", "2026-11-01", "--weeks", "3"])
        #expect(text.contains("Tus primeras 3 semanas"))
        // 2026-11-22 is programme day 22: the first day of maintenance
        #expect(text.contains("Mantenimiento, día 1 de 14"))
    }

    @Test("maintain and gain have a steady target and no cycle")
    func maintain() async throws {
        let arguments = alice.map { $0 == "lose" ? "gain" : $0 } + ["--lang", "en"]
        let text = try output(arguments)
        #expect(text.contains("3,395") == false)
        #expect(text.contains("2,486 kcal"))
        #expect(text.contains("no MATADOR cycling"))
    }

    @Test("an invalid age prints the typed error naming field, range and value")
    func invalidAge() async throws {
        let arguments = alice.map { $0 == "34" ? "12" : $0 } + ["--lang", "en"]
        #expect(throws: CLIError.self) { try output(arguments) }
        do {
            _ = try output(arguments)
        } catch let error as CLIError {
            #expect(error.description == "Age must be from 18 to 99; you entered 12.")
        }
    }

    @Test("the built executable exits non-zero on a weight off the 0.1 kg grid")
    func executableExitCode() async throws {
        let binary = EndToEndTests.binary
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build the package first")
        let output = try ChildProcess.run(binary, alice.map { $0 == "72.5" ? "72.55" : $0 } + ["--lang", "en"])
        let message = output.stderr
        #expect(output.status != 0)
        #expect(message.contains("Weight must be from 30.0 to 200.0 kg in steps of 0.1 kg; you entered 72.55."))
    }
}

extension PlanCommandTests {
    @Test("--json gives the numbers and the blocks as data")
    func json() async throws {
        let text = try output(alice + ["--json", "--weeks", "3"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["bmr_kcal"] as? Int == 1444 && object["tdee_kcal"] as? Int == 1986)
        #expect((object["blocks"] as? [[String: Any]])?.map { $0["phase"] as? String } == ["habit", "diet"])
    }
}
