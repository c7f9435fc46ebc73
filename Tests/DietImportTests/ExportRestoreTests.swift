import DietCore
import DietStore
import Foundation
import SyncProtocol
import TestSupport
import Testing

@testable import DietImport

/// A source handing out at most `chunk` bytes per read, so values split anywhere between reads.
final class TrickleSource: ByteSource {
    private let bytes: [UInt8]
    private let chunk: Int
    private(set) var consumed: Int64 = 0
    var total: Int64 { Int64(bytes.count) }

    init(_ text: String, chunk: Int) {
        bytes = Array(text.utf8)
        self.chunk = chunk
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        let start = Int(consumed)
        let count = min(chunk, buffer.count, bytes.count - start)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start..<(start + count)])) }
        consumed += Int64(count)
        return count
    }
}

@Suite("The JSON stream reads what Foundation's JSON decoder reads")
struct JSONStreamTests {
    static func streamed(_ text: String, chunk: Int = 1, limit: Int = 1 << 20) throws -> JSONValue {
        var stream = JSONStream(TrickleSource(text, chunk: chunk))
        let value = try stream.value(limit: limit)
        try stream.end()
        return value
    }

    @Test(
        "documents with escapes, surrogate pairs, exponents and nesting, split between reads anywhere",
        arguments: [
            #"{"a":"x\"y\\z\/\b\f\n\r\t","b":[1,-0.5,2e3,1E-2,0,-0],"c":{"d":[[],{}],"e":null,"f":true,"g":false}}"#,
            #"["\u00e4\u00DF","\ud83c\udf4e Apfel","Käsebrot 🥪","\u0000"]"#,
            "  \n {\n \"nested\" : [ 1 , [ 2 , [ 3 ] ] ] ,\r\n \"n\":123456789012345 }\n",
            #"-12.375e+2"#,
            #""""#,
        ]
    )
    func agreesWithFoundation(_ text: String) throws {
        let expected = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        for chunk in [1, 2, 3, 7, 64 << 10] {
            #expect(try Self.streamed(text, chunk: chunk) == expected, "chunk \(chunk)")
        }
    }

    @Test("random documents written by Foundation's encoder read back the same")
    func randomDocuments() throws {
        var random = SeededGenerator(seed: 29)
        for round in 0..<300 {
            let value = Self.randomValue(depth: 0, &random)
            let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
            #expect(try Self.streamed(text, chunk: Int.random(in: 1...40, using: &random)) == value, "round \(round): \(text)")
        }
    }

    @Test(
        "a damaged document is refused with its line and what is wrong",
        arguments: [
            ("{\"a\":1,}", "expected a key"),
            ("{a:1}", "expected a key"),
            ("[1,2", "ends inside an array"),
            ("[01]", "expected , or ]"),
            ("[1.]", "decimal point"),
            ("[-]", "minus sign"),
            ("[1e]", "exponent"),
            ("[tru]", "true, false or null"),
            ("[\"\\ud83c\"]", "lone surrogate"),
            ("[\"\\x\"]", "unknown escape"),
            ("[\"tab\tinside\"]", "control character"),
            ("{\"a\":1,\"a\":2}", "appears twice"),
            ("[1]\n[2]", "after the end"),
            ("[1e999]", "out of range"),
            ("\"unterminated", "ends inside a string"),
            (String(repeating: "[", count: 100) + String(repeating: "]", count: 100), "nested more than 64"),
        ]
    )
    func damaged(_ text: String, _ reason: String) throws {
        do {
            _ = try Self.streamed(text, chunk: 3)
            Issue.record("\(text) was read")
        } catch let error as ImportError {
            guard case .wdietExport(let detail) = error.reason else {
                Issue.record("\(error)")
                return
            }
            #expect(detail.contains(reason), "\(text): \(detail)")
            #expect(error.line != nil)
        }
    }

    @Test("a value longer than its limit is refused, however it is made long")
    func limits() throws {
        for text in ["\"" + String(repeating: "x", count: 2_000) + "\"", "[" + Array(repeating: "1", count: 1_000).joined(separator: ",") + "]"] {
            #expect(throws: ImportError.self) { try Self.streamed(text, chunk: 512, limit: 1_024) }
            #expect(try Self.streamed(text, chunk: 512, limit: 4_096) != .null)
        }
    }

    @Test("the line of a problem counts the line breaks before it")
    func lines() throws {
        let error = #expect(throws: ImportError.self) { try Self.streamed("{\n\"a\": [1,\n2,\n x]}", chunk: 2) }
        #expect(error?.line == 4)
    }

    static func randomValue(depth: Int, _ random: inout SeededGenerator) -> JSONValue {
        let pick = Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &random)
        switch pick {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2:
            let whole = Double(Int.random(in: -1_000_000...1_000_000, using: &random))
            return .number(Bool.random(using: &random) ? whole : whole / 64)
        case 3:
            let alphabet = Array("aäß\"\\/\n\t€🍎 z0\u{1}")
            return .string(String((0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
        case 4:
            return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in randomValue(depth: depth + 1, &random) })
        default:
            var fields: [String: JSONValue] = [:]
            for index in 0..<Int.random(in: 0...4, using: &random) { fields["k\(index)ü"] = randomValue(depth: depth + 1, &random) }
            return .object(fields)
        }
    }
}

@Suite("Restoring a w-diet export: streamed, checked first, in batches, exactly once")
struct ExportRestoreTests {
    /// A store in a file with Alice and `meals` meals, exported to `w-diet.json` in `folder`.
    static func exported(meals: Int, in folder: ImportFolder) throws -> (path: String, export: DataExport) {
        let path = folder.url.appendingPathComponent("source.sqlite").path
        let store = try AppDatabase.open(path: path, clock: FixedClock.at(.ymd(2024, 2, 1), 9, in: Zones.berlin))
        try store.completeOnboarding(.alice, timeZone: Zones.berlin)
        let first = LocalDate.ymd(2023, 1, 1).dayNumber
        let entries = try (0..<meals).map { index in
            let day = LocalDate(dayNumber: first + index / 5)
            let entry = try MealEntry(
                name: "Mahlzeit \(index) \"Käse\"",
                kcal: 100 + index % 700,
                at: day.instant(at: .hm(8 + index % 5, 0), in: Zones.berlin),
                in: Zones.berlin
            )
            return ImportedMeal(id: UUID(), entry: entry)
        }
        try store.importEntries(meals: entries, weights: [], format: "test", timeZone: Zones.berlin)
        let out = folder.url.appendingPathComponent("export")
        let rows = try store.exportData()
        try store.export(to: out, timeZone: Zones.berlin)
        return (out.appendingPathComponent("w-diet.json").path, rows)
    }

    static func emptyStore(in folder: ImportFolder, _ name: String) throws -> AppDatabase {
        try AppDatabase.open(path: folder.url.appendingPathComponent(name).path, clock: FixedClock.at(.ymd(2024, 2, 2), 9, in: Zones.berlin))
    }

    /// The rows of `export` without the event the export itself recorded.
    static func rows(_ export: DataExport) -> [String: [[String: JSONValue]]] {
        export.tables.mapValues { rows in rows.filter { $0["name"] != .string("data_exported") } }
    }

    @Test("an export of 3,000 meals restored from its file: every row as it was, the device's clock after the newest stamp")
    func roundTrip() throws {
        let folder = try ImportFolder()
        let (file, original) = try Self.exported(meals: 3_000, in: folder)
        let store = try Self.emptyStore(in: folder, "restored.sqlite")
        let summary = try Importer.run(path: file, into: store, options: berlinOptions)
        let total = original.tables.values.map(\.count).reduce(0, +)
        #expect(summary.restore?.restored == total)
        #expect(summary.lines(Localizer(.en)) == ["Imported \(total.formatted(.number.locale(Locale(identifier: "en")))) rows."])
        #expect(Self.rows(try store.exportData()) == Self.rows(original))
        // a meal logged now stamps after every restored row
        let meal = try store.logMeal(try MealEntry(name: "Apfel", kcal: 80, at: Zones.berlinDate(2024, 2, 2, 9), in: Zones.berlin))
        let newest = original.tables.values.joined().compactMap { $0["updated_hlc"]?.stringValue.flatMap(HLC.init) }.max()
        let logged = try store.exportData().tables["meal_logs"]?.first { $0["id"]?.stringValue == meal.id.uuidString }
        #expect(try #require(logged?["updated_hlc"]?.stringValue.flatMap(HLC.init)) > #require(newest))
    }

    @Test("a restore stopped between batches and run again adds each row exactly once; meanwhile another export and a store with data are refused")
    func interruptedThenAgain() throws {
        let folder = try ImportFolder()
        let (file, original) = try Self.exported(meals: 2_000, in: folder)
        let total = original.tables.values.map(\.count).reduce(0, +)
        let store = try Self.emptyStore(in: folder, "restored.sqlite")
        struct Stop: Error {}

        // When the restore stops after the batch that brings it to 700 rows or more
        var options = berlinOptions
        options.pacing = ImportPacing(firstBatch: 300, maxBatch: 300, pause: .zero)
        options.afterRestoreBatch = { written in if written.restored >= 700 { throw Stop() } }
        #expect(throws: Stop.self) { try Importer.run(path: file, into: store, options: options) }
        let partly = Self.rows(try store.exportData()).values.map(\.count).reduce(0, +)
        #expect((700..<1_000).contains(partly), "\(partly) rows committed")

        // Then another export is refused while this one is unfinished, naming it
        let otherFolder = try ImportFolder()
        let (other, _) = try Self.exported(meals: 3, in: otherFolder)
        let refusal = #expect(throws: StoreError.self) { try Importer.run(path: other, into: store, options: berlinOptions) }
        #expect("\(String(describing: refusal))".contains("interrupted"))

        // …and the same export again adds the rest
        options.afterRestoreBatch = nil
        let again = try Importer.run(path: file, into: store, options: options)
        #expect(again.restore?.alreadyThere == partly)
        #expect(again.restore?.restored == total - partly)
        let l = Localizer(.de)
        #expect(
            again.lines(l) == [
                l.text("import.summary.restored", ["count": .integer(total - partly)]),
                l.text("import.summary.alreadyThere", ["count": .integer(partly)]),
            ]
        )
        #expect(Self.rows(try store.exportData()) == Self.rows(original))

        // A finished restore leaves nothing noted: the store now holds data, so a restore is refused as before
        let done = #expect(throws: StoreError.self) { try Importer.run(path: file, into: store, options: options) }
        #expect("\(String(describing: done))".contains("already holds"))
    }

    @Test("an export bad in its last row is refused with the table, row and field, and nothing of it is written; the store can be restored after")
    func badLastRow() throws {
        let folder = try ImportFolder()
        let (file, original) = try Self.exported(meals: 1_500, in: folder)
        var text = try String(contentsOfFile: file, encoding: .utf8)
        // the last meal row's kcal becomes impossible
        let meals = try #require(original.tables["meal_logs"])
        let lastID = try #require(meals.last?["id"]?.stringValue)
        let range = try #require(text.range(of: "\"id\" : \"\(lastID)\""))
        let kcal = try #require(text.range(of: "\"kcal\" : ", range: range.upperBound..<text.endIndex))
        let end = try #require(text[kcal.upperBound...].firstIndex(where: { !$0.isNumber }))
        text.replaceSubrange(kcal.upperBound..<end, with: "-5")
        let damaged = try folder.write("damaged.json", text)
        let store = try Self.emptyStore(in: folder, "restored.sqlite")

        let error = #expect(throws: StoreError.self) { try Importer.run(path: damaged, into: store, options: berlinOptions) }
        #expect("\(String(describing: error))".contains("meal_logs row \(meals.count), field kcal"))
        #expect(Self.rows(try store.exportData()).values.allSatisfy(\.isEmpty))
        #expect(
            try Importer.run(path: file, into: store, options: berlinOptions).restore?.restored == original.tables.values.map(\.count).reduce(0, +)
        )
    }

    @Test(
        "a file that is not a restorable export is refused with what is wrong, and nothing is written",
        arguments: [
            (#"{"format":"other","version":1,"tables":{}}"#, "not a w-diet export"),
            (#"{"format":"w-diet-export","version":2,"tables":{}}"#, "newer than this app"),
            (#"{"format":"w-diet-export","version":1.5,"tables":{}}"#, "whole number"),
            (#"{"format":"w-diet-export","tables":{}}"#, "missing version"),
            (#"{"format":"w-diet-export","version":1,"tables":{"secrets":[]}}"#, "unknown table secrets"),
            (#"{"format":"w-diet-export","version":1,"tables":{"meal_logs":[7]}}"#, "must be a JSON object"),
            (#"{"format":"w-diet-export","version":1,"tables":{"meal_logs":{}}}"#, "must be a JSON array"),
            (#"{"format":"w-diet-export","version":1,"tables":{"meal_logs":[{"id":"x"}]}}"#, "field id"),
            (#"{"format":"w-diet-export","version":1,"tables":{"meal_logs":[{"id":"x"}"#, "ends inside"),
        ]
    )
    func refused(_ text: String, _ reason: String) throws {
        let folder = try ImportFolder()
        let file = try folder.write("w-diet.json", text)
        let store = try Self.emptyStore(in: folder, "restored.sqlite")
        do {
            _ = try Importer.run(path: file, into: store, options: berlinOptions)
            Issue.record("\(text) was restored")
        } catch {
            let message = (error as? ImportError)?.message(Localizer(.en)) ?? "\(error)"
            #expect(message.contains(reason), "\(message)")
        }
        #expect(Self.rows(try store.exportData()).values.allSatisfy(\.isEmpty))
    }

    @Test("the same row id twice in one table is refused, not kept once in silence")
    func duplicateIDs() throws {
        let folder = try ImportFolder()
        let (file, _) = try Self.exported(meals: 3, in: folder)
        guard case .object(var document) = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: file))),
            case .object(var tables) = document["tables"], case .array(var meals) = tables["meal_logs"]
        else { throw ImportError(line: nil, .empty) }
        meals.append(meals[0])
        tables["meal_logs"] = .array(meals)
        document["tables"] = .object(tables)
        let twice = try folder.write("twice.json", try JSONEncoder().encode(JSONValue.object(document)))
        let store = try Self.emptyStore(in: folder, "restored.sqlite")
        let error = #expect(throws: StoreError.self) { try Importer.run(path: twice, into: store, options: berlinOptions) }
        #expect("\(String(describing: error))".contains("is the id of an earlier row too"))
        #expect(Self.rows(try store.exportData()).values.allSatisfy(\.isEmpty))
    }
}
