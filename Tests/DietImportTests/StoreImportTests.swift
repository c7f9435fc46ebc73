import DietCore
import DietStore
import Foundation
import TestSupport
import Testing

@testable import DietImport

@Suite("Importing into the store")
struct StoreImportTests {
    @Test("importing the same file twice adds nothing the second time")
    func twice() throws {
        // Given a store and an Apple Health export with two meals and a weight
        let store = try onboardedStore()
        let folder = try ImportFolder()
        let path = try folder.write(
            "export.xml",
            healthXML([
                record("DietaryEnergyConsumed", "400", unit: "kcal", start: "2024-01-05 08:00:00 +0100"),
                record("DietaryEnergyConsumed", "700", unit: "kcal", start: "2024-01-05 13:00:00 +0100"),
                record("BodyMass", "72", unit: "kg", start: "2024-01-05 07:00:00 +0100"),
            ])
        )
        // When it is imported twice
        let first = try Importer.run(path: path, into: store, options: berlinOptions)
        let before = try dump(store)
        let second = try Importer.run(path: path, into: store, options: berlinOptions)
        // Then the first adds two meals and a weight, the second nothing
        #expect(first.outcome.mealsAdded == 2 && first.outcome.weightsAdded == 1)
        #expect(second.outcome.mealsAdded == 0 && second.outcome.weightsAdded == 0)
        #expect(second.outcome.mealsAlreadyThere == 2 && second.outcome.weightsKept == 1)
        #expect(try dump(store) == before)
        #expect(try store.meals(on: .ymd(2024, 1, 5)).map(\.entry.kcal) == [400, 700])
        #expect(second.lines(Localizer(.en)).contains("3 entries were already here from an earlier import; nothing was added twice."))
    }

    @Test("the same diary as CSV twice adds nothing twice, and a meal deleted after the import does not come back")
    func deletedStaysDeleted() throws {
        let store = try onboardedStore()
        let folder = try ImportFolder()
        let path = try folder.write("servings.csv", Diaries.cronometerServings)
        _ = try Importer.run(path: path, into: store, options: berlinOptions)
        let meal = try #require(try store.meals(on: .ymd(2024, 1, 5)).first)
        try store.deleteMeal(meal.id, timeZone: Zones.berlin)
        let again = try Importer.run(path: path, into: store, options: berlinOptions)
        #expect(again.outcome.mealsAdded == 0)
        #expect(try store.meals(on: .ymd(2024, 1, 5)).count == 1)
    }

    @Test("a damaged file changes nothing in the store, even when its good part comes first")
    func damaged() throws {
        // Given a store with an import already in it, and an export whose last record is impossible
        let store = try onboardedStore()
        let folder = try ImportFolder()
        _ = try Importer.run(path: try folder.write("a.csv", Diaries.myFitnessPalNutrition), into: store, options: berlinOptions)
        let before = try dump(store)
        let path = try folder.write(
            "export.xml",
            healthXML([
                record("DietaryEnergyConsumed", "400", unit: "kcal", start: "2024-01-07 08:00:00 +0100"),
                record("BodyMass", "9999", unit: "kg", start: "2024-01-07 07:00:00 +0100"),
            ])
        )
        // When it is imported, then it is refused and the store is as it was
        #expect(
            importError { _ = try Importer.run(path: path, into: store, options: berlinOptions) }?.reason
                == .impossible(.weight, value: "9999 kg")
        )
        #expect(try dump(store) == before)
    }

    @Test("a weight logged by hand later that day is kept over an imported one from the morning")
    func laterWins() throws {
        let store = try onboardedStore()
        try store.logWeight(try WeightEntry(date: .ymd(2024, 2, 1), kg: 70), timeZone: Zones.berlin)
        let folder = try ImportFolder()
        let path = try folder.write("export.xml", healthXML([record("BodyMass", "75", unit: "kg", start: "2024-02-01 07:00:00 +0100")]))
        let summary = try Importer.run(path: path, into: store, options: berlinOptions)
        #expect(summary.outcome.weightsKept == 1)
        #expect(try store.weights(from: .ymd(2024, 2, 1), through: .ymd(2024, 2, 1)).map(\.kg) == [70])
    }

    @Test("imported meals are queued for sync; the import is one data_imported event, not one event per meal, and a second import records none")
    func synced() throws {
        let store = try onboardedStore()
        let folder = try ImportFolder()
        let path = try folder.write("n.csv", Diaries.myFitnessPalNutrition)
        func events() throws -> [String] { try store.exportData().tables["analytics_events"]?.compactMap { $0["name"]?.stringValue } ?? [] }
        let before = try events()
        _ = try Importer.run(path: path, into: store, options: berlinOptions)
        #expect(try events().count == before.count + 1)
        #expect(try events().filter { $0 == "data_imported" }.count == 1)
        #expect(try store.pendingChanges(limit: 1000).filter { $0.table.rawValue == "meal_logs" }.count == 2)
        _ = try Importer.run(path: path, into: store, options: berlinOptions)
        #expect(try events().count == before.count + 1)
    }
}
