import DietCore
import DietStore
import Foundation
import TestSupport
import Testing

@testable import DietCLI

@Suite("wdiet import")
struct ImportCommandTests {
    static func health(_ records: [String]) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE HealthData [\n<!ELEMENT HealthData (ExportDate,Me,(Record)*)>\n]>\n"
            + "<HealthData locale=\"de_DE\">\n" + records.map { " " + $0 + "\n" }.joined() + "</HealthData>\n"
    }

    static func record(_ type: String, _ value: String, _ unit: String, _ start: String) -> String {
        "<Record type=\"HKQuantityTypeIdentifier\(type)\" sourceName=\"Health\" unit=\"\(unit)\" startDate=\"\(start)\" "
            + "endDate=\"\(start)\" value=\"\(value)\"/>"
    }

    static let export = health([
        record("DietaryEnergyConsumed", "450", "kcal", "2026-01-04 08:00:00 +0100"),
        record("DietaryProtein", "20", "g", "2026-01-04 08:00:00 +0100"),
        record("BodyMass", "160.5", "lb", "2026-01-04 07:00:00 +0100"),
    ])

    func write(_ cli: CLIHarness, _ name: String, _ text: String) throws -> String {
        try FileManager.default.createDirectory(at: cli.folder, withIntermediateDirectories: true)
        let url = cli.folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test("an Apple Health export is recognised and imported; importing it again adds nothing")
    func health() async throws {
        // Given Alice onboarded and an export.xml under a name that hides its format
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let path = try write(cli, "data.bin", Self.export)
        // When it is imported twice
        let first = try await cli.run(["import", path], now: "2026-01-05T09:00")
        let second = try await cli.run(["import", path], now: "2026-01-05T09:05")
        // Then the first brings a meal and a weight (160.5 lb = 72.8 kg), the second nothing
        #expect(first == "Imported from Apple Health (export.xml): meals 1, weights 1.")
        #expect(
            second == "Imported from Apple Health (export.xml): meals 0, weights 0.\n"
                + "2 entries were already here from an earlier import; nothing was added twice."
        )
        let store = try AppDatabase.open(path: cli.database, clock: FixedClock(Date(timeIntervalSince1970: 1_767_600_000)))
        #expect(try store.meals(on: .ymd(2026, 1, 4)).map(\.entry.kcal) == [450])
        #expect(try store.weights(from: .ymd(2026, 1, 4), through: .ymd(2026, 1, 4)).map(\.kg) == [72.8])
    }

    @Test("a damaged file is refused with the line and the reason in the user's language; nothing is saved")
    func damaged() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let broken = Self.export.replacingOccurrences(of: "value=\"160.5\"", with: "value=\"9999\"").replacingOccurrences(
            of: "\"lb\"",
            with: "\"kg\""
        )
        let path = try write(cli, "export.xml", broken)
        let message = await failure { try await cli.run(["import", path], now: "2026-01-05T09:00", lang: "de") }
        #expect(message == "Import abgelehnt: Zeile 8: ein Gewicht von 9999 kg ist unmöglich. Es wurde nichts geändert.")
        let store = try AppDatabase.open(path: cli.database, clock: FixedClock(Date(timeIntervalSince1970: 1_767_600_000)))
        #expect(try store.meals(on: .ymd(2026, 1, 4)).isEmpty)
    }

    @Test("--weight-unit lb reads a MyFitnessPal measurement export in pounds; another unit is refused")
    func weightUnit() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let path = try write(cli, "Measurement-Summary.csv", "Date,Weight\n2026-01-03,160.5\n")
        #expect(
            try await cli.run(["import", path, "--weight-unit", "lb"], now: "2026-01-05T09:00")
                == "Imported from MyFitnessPal measurements: meals 0, weights 1."
        )
        let store = try AppDatabase.open(path: cli.database, clock: FixedClock(Date(timeIntervalSince1970: 1_767_600_000)))
        #expect(try store.weights(from: .ymd(2026, 1, 3), through: .ymd(2026, 1, 3)).map(\.kg) == [72.8])
        #expect(
            await failure { try await cli.run(["import", path, "--weight-unit", "st"], now: "2026-01-05T09:00") }
                == "--weight-unit must be kg or lb; got st"
        )
    }

    @Test("a file of no known format is refused and says which formats are known")
    func unknown() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let path = try write(cli, "notes.csv", "Name,Colour\nAnna,blue\n")
        #expect(
            await failure { try await cli.run(["import", path], now: "2026-01-05T09:00") }?
                .hasPrefix("Import refused: line 1: this is not a file w-diet can import") == true
        )
    }
}
