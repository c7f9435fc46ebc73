import DietCore
import Foundation
import GRDB
import SyncProtocol
import TestSupport
import Testing

@testable import DietStore

@Suite("Export, import and purge")
struct ExportTests {
    /// A store with a week of varied data: meals with and without macros, a deletion, weights.
    func filledStore() throws -> (AppDatabase, FixedClock) {
        let (store, clock) = try makeStore()
        for day in 0..<7 {
            clock.set(FixedClock.at(LocalDate.ymd(2026, 1, 5).adding(days: day), 12, in: Zones.berlin).now())
            try store.logMeal(try meal("Quark, \"Magerstufe\"\nmit Beeren", kcal: 300 + day, at: clock))
            let noMacros = try store.logMeal(try meal("Brezel", kcal: 250, protein: nil, carbs: nil, fat: nil, at: clock))
            if day == 3 { try store.deleteMeal(noMacros.id, timeZone: Zones.berlin) }
            try store.logWeight(
                try WeightEntry(date: LocalDate(clock.now(), in: Zones.berlin), kg: 72.5 - Double(day) / 10),
                timeZone: Zones.berlin
            )
        }
        try store.checkCycle(timeZone: Zones.berlin)
        return (store, clock)
    }

    func allRows(_ store: AppDatabase) throws -> [String: [Row]] {
        try store.reader.read { db in
            var result: [String: [Row]] = [:]
            for table in DataExport.tables {
                result[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id")
            }
            return result
        }
    }

    @Test("an export imported into an empty database restores every row exactly")
    func roundTrip() throws {
        let (store, clock) = try filledStore()
        let json = try JSONEncoder().encode(try store.exportData())
        let fresh = try AppDatabase.inMemory(clock: clock, deviceID: "device1")
        try fresh.importData(try JSONDecoder().decode(DataExport.self, from: json))
        let original = try allRows(store)
        let restored = try allRows(fresh)
        #expect(original.values.map(\.count).reduce(0, +) > 20)
        for table in DataExport.tables {
            #expect(restored[table] == original[table], "\(table)")
        }
        // every imported row is queued for sync with its original stamp
        #expect(try fresh.count("sync_outbox") == original.values.map(\.count).reduce(0, +))
    }

    @Test("import into a database that already holds data is refused and changes nothing")
    func importIntoFull() throws {
        let (store, _) = try filledStore()
        let export = try store.exportData()
        let before = try allRows(store)
        #expect(throws: StoreError.importRefused(reason: "the database already holds profile rows")) {
            try store.importData(export)
        }
        #expect(try allRows(store) == before)
    }

    @Test("a damaged row refuses the whole import, naming table and row")
    func damagedImport() throws {
        let (store, clock) = try filledStore()
        let export = try store.exportData()
        var tables = export.tables
        tables["meal_logs"]?[2]["kcal"] = .number(0)
        let damaged = DataExport(format: export.format, version: 1, exportedAt: export.exportedAt, tables: tables)
        let fresh = try AppDatabase.inMemory(clock: clock, deviceID: "device1")
        do {
            try fresh.importData(damaged)
            Issue.record("the import should have been refused")
        } catch StoreError.importRefused(let reason) {
            #expect(reason == "meal_logs row 3, field kcal: must be a whole number from 1 to 9999; got 0")
        }
        #expect(try fresh.count("profile") == 0)
        #expect(try fresh.count("meal_logs") == 0)
        #expect(try fresh.count("sync_outbox") == 0)
    }

    @Test("a file that is not a w-diet export is refused", arguments: ["other-app", "w-diet-export@2"])
    func notAnExport(format: String) throws {
        let (_, clock) = try makeStore(onboard: nil)
        let fresh = try AppDatabase.inMemory(clock: clock)
        let parts = format.split(separator: "@")
        let export = DataExport(format: String(parts[0]), version: parts.count > 1 ? 2 : 1, exportedAt: "", tables: [:])
        #expect(throws: StoreError.self) { try fresh.importData(export) }
    }

    @Test("the CSV files have a header row and RFC 4180 quoting")
    func csv() throws {
        let (store, _) = try filledStore()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try store.export(to: folder, timeZone: Zones.berlin)
        #expect(
            files.map(\.lastPathComponent) == [
                "w-diet.json", "profile.csv", "cycle_states.csv", "meal_logs.csv",
                "weight_entries.csv", "analytics_events.csv", "custom_foods.csv", "recipes.csv", "mindful_meals.csv",
                "calendar_sources.csv", "whoop_records.csv",
            ]
        )
        let meals = try String(contentsOf: folder.appendingPathComponent("meal_logs.csv"), encoding: .utf8)
        let lines = meals.components(separatedBy: "\r\n")
        #expect(lines[0].hasPrefix("id,name,kcal,protein_g,carbs_g,fat_g,fiber_g,logged_at,local_date,local_time"))
        #expect(meals.contains(",\"Quark, \"\"Magerstufe\"\"\nmit Beeren\",300,15,60,12,,"))
        #expect(try store.eventNames().last == "data_exported")
    }

    @Test("purge leaves no row in any table")
    func purge() throws {
        let (store, _) = try filledStore()
        try store.purge()
        let counts = try store.reader.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'grdb_%'")
                .map { table in (table, try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? -1) }
        }
        #expect(counts.count >= 8)
        for (table, count) in counts {
            #expect(count == 0, "\(table)")
        }
    }
}
