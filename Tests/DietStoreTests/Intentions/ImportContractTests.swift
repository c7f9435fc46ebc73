import DietCore
import Foundation
import GRDB
import SyncProtocol
import TestSupport
import Testing

@testable import DietStore

/// `wdiet import` keeps the row contract: a file with a row that would break the app is
/// refused with the table, row, field and reason, and nothing of it is stored.
@Suite("Import keeps the row contract")
struct ImportContractTests {
    func export() throws -> (DataExport, FixedClock) {
        let (store, clock) = try makeStore()
        try store.logMeal(try meal("Porridge", kcal: 420, at: clock))
        try store.logMeal(try meal("Linsensuppe", kcal: 520, at: clock))
        try store.logWeight(try WeightEntry(date: .ymd(2026, 1, 5), kg: 72.4), timeZone: Zones.berlin)
        return (try store.exportData(), clock)
    }

    func importing(_ change: (inout [String: JSONValue]) -> Void, table: String = "meal_logs") throws -> (String?, AppDatabase) {
        let (original, clock) = try export()
        var tables = original.tables
        var rows = try #require(tables[table])
        let index = rows.count > 1 ? 1 : 0
        change(&rows[index])
        tables[table] = rows
        let file = DataExport(format: original.format, version: 1, exportedAt: original.exportedAt, tables: tables)
        let fresh = try AppDatabase.inMemory(clock: clock, deviceID: "device1")
        do {
            try fresh.importData(file)
            return (nil, fresh)
        } catch StoreError.importRefused(let reason) {
            return (reason, fresh)
        }
    }

    func expectNothingStored(_ store: AppDatabase) throws {
        for table in DataExport.tables + ["sync_outbox"] {
            #expect(try store.count(table) == 0, "\(table)")
        }
    }

    @Test("a meal id that is not a UUID is refused (afterwards today and meals used to fail)")
    func mealIDNotUUID() throws {
        let (reason, store) = try importing { $0["id"] = .string("meal-1") }
        #expect(reason == "meal_logs row 2, field id: must be a UUID; got \"meal-1\"")
        try expectNothingStored(store)
    }

    @Test("a date that does not exist is refused (the meal used to disappear)")
    func impossibleDate() throws {
        let (reason, store) = try importing { $0["local_date"] = .string("2026-02-30") }
        #expect(reason == "meal_logs row 2, field local_date: must be a real date as YYYY-MM-DD; got \"2026-02-30\"")
        try expectNothingStored(store)
    }

    @Test("a stamp from the far future is refused (it used to win against every later change)")
    func farFutureStamp() throws {
        let (reason, store) = try importing { $0["updated_hlc"] = .string("0004102444800000-0000-device1") }
        #expect(reason == "meal_logs row 2: its clock stamp is more than a day ahead; check the device's date and time")
        try expectNothingStored(store)
    }

    @Test("a NUL character in a name is refused (it used to block the device's uploads for good)")
    func nulInName() throws {
        let (reason, store) = try importing { $0["name"] = .string("a\u{0}b") }
        #expect(reason == "meal_logs row 2, field name: must not contain the control character U+0000")
        try expectNothingStored(store)
    }

    @Test("a weight whose id is not its date's is refused (two rows for one day could not merge)")
    func weightWithRandomID() throws {
        let (reason, store) = try importing({ $0["id"] = .string(UUID().uuidString) }, table: "weight_entries")
        #expect(reason?.hasPrefix("weight_entries row 1, field id: must be ") == true)
        try expectNothingStored(store)
    }

    @Test("a profile the app cannot read is refused, naming the field and what inside it is wrong")
    func unreadableProfile() throws {
        let (reason, store) = try importing({ $0["eating_window"] = .string(#"{"colour":"blue"}"#) }, table: "profile")
        #expect(reason == #"profile row 1, field eating_window: has the field "colour", which it must not have"#)
        try expectNothingStored(store)
    }

    @Test("a lower-case id is stored in the store's form, so the app finds the row")
    func lowerCaseID() throws {
        let (reason, store) = try importing { $0["id"] = .string(($0["id"]?.stringValue ?? "").lowercased()) }
        #expect(reason == nil)
        let meals = try store.meals(on: .ymd(2026, 1, 5))
        #expect(meals.map(\.entry.name).sorted() == ["Linsensuppe", "Porridge"])
        #expect(try store.reader.read { db in try String.fetchAll(db, sql: "SELECT id FROM meal_logs") }.allSatisfy { $0 == $0.uppercased() })
    }

    @Test("after an import, a new edit is stamped after every imported row")
    func clockMovesPastImport() throws {
        let (original, clock) = try export()
        let fresh = try AppDatabase.inMemory(clock: clock, deviceID: "device1")
        // The export was made a few hours "later" by another device's clock.
        var tables = original.tables
        let ahead = HLC(wallMs: Int64(clock.now().timeIntervalSince1970 * 1000) + 3_600_000, counter: 0, deviceID: "other")
        tables["meal_logs"]?[0]["updated_hlc"] = .string(ahead.description)
        try fresh.importData(DataExport(format: original.format, version: 1, exportedAt: original.exportedAt, tables: tables))
        let porridge = try #require(try fresh.meals(on: .ymd(2026, 1, 5)).first { $0.entry.name == "Porridge" })
        _ = try fresh.editMeal(porridge.id, to: try meal("Porridge with honey", kcal: 450, at: clock))
        let edit = try #require(try fresh.pendingChanges(limit: 100).first { $0.id == porridge.id })
        #expect(edit.hlc > ahead)
    }

    @Test("export files and a folder it creates are readable by their owner only")
    func ownerOnlyExport() throws {
        let (store, _) = try makeStore()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-export-\(UUID().uuidString)/inner")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let previous = umask(0o022)
        defer { umask(previous) }
        let files = try store.export(to: folder, timeZone: Zones.berlin)
        #expect(files.count == 1 + DataExport.tables.count)
        for file in files {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int)
            #expect(mode == 0o600, "\(file.lastPathComponent)")
        }
        let folderMode = try #require(try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int)
        #expect(folderMode == 0o700)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }
}
