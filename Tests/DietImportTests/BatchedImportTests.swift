import DietCore
import DietStore
import Foundation
import TestSupport
import Testing

@testable import DietImport

/// A Cronometer food-entries diary of `rows` rows, ten a day from 2020-01-01, each a food of
/// its own (`Food <n>`); `bad` replaces the energy of that data row (1-based) with text.
func largeDiary(rows: Int, bad: Int? = nil) -> String {
    var text = "Day,Time,Group,Food Name,Amount,Energy (kcal),Carbs (g),Fiber (g),Fat (g),Protein (g)\n"
    text.reserveCapacity(rows * 70)
    let first = LocalDate.ymd(2020, 1, 1).dayNumber
    for row in 1...rows {
        let day = LocalDate(dayNumber: first + (row - 1) / 10)
        let minutes = 7 * 60 + ((row - 1) % 10) * 75
        let energy = row == bad ? "lots" : "\(100 + row % 700).5"
        text += "\(day.iso),\(minutes / 60):\(String(format: "%02d", minutes % 60)),Snacks,Food \(row),1 serving,\(energy),20.5,2,7.25,9\n"
    }
    return text
}

/// The last day of `largeDiary(rows:)`.
func lastDay(ofDiary rows: Int) -> LocalDate { LocalDate(dayNumber: LocalDate.ymd(2020, 1, 1).dayNumber + (rows - 1) / 10) }

/// A store in a real SQLite file (WAL, as the apps open it), with Alice onboarded.
func fileStore(in folder: ImportFolder) throws -> (store: AppDatabase, path: String) {
    let path = folder.url.appendingPathComponent("w-diet.sqlite").path
    let store = try AppDatabase.open(path: path, clock: FixedClock.at(.ymd(2024, 2, 1), 9, in: Zones.berlin))
    try store.completeOnboarding(.alice, timeZone: Zones.berlin)
    return (store, path)
}

@Suite("Large imports: batches, other writers, exactly once")
struct BatchedImportTests {
    /// What the concurrent writer saw: how long each of its writes waited, and how many
    /// happened while the import had written part of the diary (the first day there, the last
    /// not yet).
    final class Observed: @unchecked Sendable {
        let lock = NSLock()
        var importEnded = false
        var waits: [Duration] = []
        var duringImport = 0
        var failure: (any Error)?
    }

    @Test("while 60,000 diary rows are imported, another connection logs meals, each within a second or so, not after the import")
    func otherWritersAreNotHeld() throws {
        // Given a store in a file, a second connection to it (as the web app has while the CLI
        // imports), and a diary large enough to take several seconds
        let rows = 60_000
        let folder = try ImportFolder()
        let diary = try folder.write("servings.csv", largeDiary(rows: rows))
        let (store, path) = try fileStore(in: folder)
        let other = try AppDatabase.open(path: path, clock: FixedClock.at(.ymd(2024, 2, 1), 9, in: Zones.berlin))
        let observed = Observed()

        // When the diary is imported on one thread, and the other connection logs a meal every
        // 50 ms on another until the import has ended
        let writer = Thread {
            let clock = ContinuousClock()
            while !observed.lock.withLock({ observed.importEnded }) {
                do {
                    let entry = try MealEntry(name: "Lunch", kcal: 500, at: Zones.berlinDate(2024, 2, 1, 12), in: Zones.berlin)
                    let started = clock.now
                    try other.logMeal(entry)
                    let waited = started.duration(to: clock.now)
                    let partly = try !other.meals(on: .ymd(2020, 1, 1)).isEmpty && other.meals(on: lastDay(ofDiary: rows)).isEmpty
                    observed.lock.withLock {
                        observed.waits.append(waited)
                        if partly { observed.duringImport += 1 }
                    }
                } catch {
                    observed.lock.withLock { observed.failure = error }
                    return
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        writer.start()
        let summary: ImportSummary
        do {
            defer { observed.lock.withLock { observed.importEnded = true } }
            summary = try Importer.run(path: diary, into: store, options: berlinOptions)
        }
        while !writer.isFinished { Thread.sleep(forTimeInterval: 0.01) }

        // Then every row is imported once, and no meal of the other connection waited long
        let (waits, during, failure) = observed.lock.withLock { (observed.waits, observed.duringImport, observed.failure) }
        #expect(failure == nil, "the other connection's write failed: \(String(describing: failure))")
        #expect(summary.outcome.mealsAdded == rows)
        #expect(during >= 3, "the other connection wrote \(during) times while the import had written part of the diary")
        // No write is held more than a second (the 95th percentile: one late wake-up of a loaded
        // machine is not the import's), and none more than a few (the old import held each for
        // all of its 60 s)
        let sorted = waits.sorted()
        let longest = sorted.last ?? .zero
        let p95 = sorted.isEmpty ? .zero : sorted[(sorted.count * 95) / 100]
        #expect(p95 < .seconds(1), "95 % of another connection's writes waited less than \(p95)")
        #expect(longest < .seconds(3), "the longest wait of another connection's write was \(longest)")
        print(
            "BatchedImportTests: \(waits.count) writes of another connection, \(during) while the import was half-way; 95th percentile wait \(p95), longest \(longest)"
        )
    }

    @Test("an import stopped between batches and run again adds each row exactly once")
    func interruptedThenAgain() throws {
        // Given a diary of 3,000 rows, with rows that look alike (same day, time and food) across batches
        let folder = try ImportFolder()
        var text = largeDiary(rows: 3_000)
        for _ in 0..<3 { text += "2020-01-01,7:00,Snacks,Food 1,1 serving,101.5,20.5,2,7.25,9\n" }
        let diary = try folder.write("servings.csv", text)
        let (store, _) = try fileStore(in: folder)
        struct Stop: Error {}

        // When the import stops after the batch that brings it to 1,000 meals or more (as a
        // crash would; batches are at most 500, fewer when they take longer than 0.4 s)
        var options = berlinOptions
        options.pacing = ImportPacing(firstBatch: 500, maxBatch: 500, pause: .zero)
        let stoppedAt = Observed()
        options.afterBatch = { written in
            if written.mealsAdded >= 1_000 {
                stoppedAt.lock.withLock { stoppedAt.duringImport = written.mealsAdded }
                throw Stop()
            }
        }
        #expect(throws: Stop.self) { try Importer.run(path: diary, into: store, options: options) }
        let committed = stoppedAt.lock.withLock { stoppedAt.duringImport }
        #expect((1_000..<1_500).contains(committed))
        let firstDay = try store.meals(on: .ymd(2020, 1, 1)).count
        #expect(firstDay == 10, "the first batch is committed")
        #expect(try store.meals(on: lastDay(ofDiary: 3_000)).isEmpty, "the last rows are not")

        // Then importing the file again adds the rest, and a third import adds nothing
        options.afterBatch = nil
        let again = try Importer.run(path: diary, into: store, options: options)
        #expect(again.outcome.mealsAlreadyThere == committed)
        #expect(again.outcome.mealsAdded == 3_003 - committed)
        let third = try Importer.run(path: diary, into: store, options: options)
        #expect(third.outcome.mealsAdded == 0 && third.outcome.mealsAlreadyThere == 3_003)
        #expect(try store.meals(on: .ymd(2020, 1, 1)).count == 13)
        var total = 0
        for offset in 0..<300 { total += try store.meals(on: LocalDate(dayNumber: LocalDate.ymd(2020, 1, 1).dayNumber + offset)).count }
        #expect(total == 3_003)
    }

    @Test("a diary bad in its last row is refused with that row's line and reason, and nothing of its 20,000 good rows is written")
    func badLastRow() throws {
        let folder = try ImportFolder()
        let diary = try folder.write("servings.csv", largeDiary(rows: 20_000, bad: 20_000))
        let (store, _) = try fileStore(in: folder)
        let before = try dump(store)
        var options = berlinOptions
        options.pacing = ImportPacing(firstBatch: 500, maxBatch: 500, pause: .zero)
        let error = importError { _ = try Importer.run(path: diary, into: store, options: options) }
        #expect(error == ImportError(line: 20_001, .badNumber(column: "Energy (kcal)", value: "lots")))
        #expect(error?.message(Localizer(.en)).contains("Energy (kcal)") == true)
        #expect(try dump(store) == before)
    }

    @Test("an Apple Health export imported twice in small batches adds nothing the second time")
    func healthTwiceInBatches() throws {
        let folder = try ImportFolder()
        var records: [String] = []
        for day in 1...28 {
            let date = String(format: "2024-01-%02d", day)
            records.append(record("DietaryEnergyConsumed", "400", unit: "kcal", start: "\(date) 08:00:00 +0100"))
            records.append(record("DietaryEnergyConsumed", "700", unit: "kcal", start: "\(date) 13:00:00 +0100"))
            records.append(record("DietaryProtein", "30", unit: "g", start: "\(date) 13:00:00 +0100"))
            records.append(record("BodyMass", "72", unit: "kg", start: "\(date) 07:00:00 +0100"))
        }
        let path = try folder.write("export.xml", healthXML(records))
        let store = try onboardedStore()
        var options = berlinOptions
        options.pacing = ImportPacing(firstBatch: 7, maxBatch: 7, pause: .zero)
        let first = try Importer.run(path: path, into: store, options: options)
        let before = try dump(store)
        let second = try Importer.run(path: path, into: store, options: options)
        #expect(first.outcome.mealsAdded == 56 && first.outcome.weightsAdded == 28)
        #expect(second.outcome.mealsAdded == 0 && second.outcome.weightsAdded == 0)
        #expect(second.outcome.mealsAlreadyThere == 56 && second.outcome.weightsKept == 28)
        #expect(try dump(store) == before)
        #expect(try store.meals(on: .ymd(2024, 1, 9)).map(\.entry.proteinG) == [nil, 30])
    }

    @Test("records split anywhere between two reads are read the same: quotes, doubled quotes, CRLF, a byte order mark")
    func chunkBoundaries() throws {
        // Given a diary whose interesting bytes fall on the 64 KiB boundary of the reader
        let folder = try ImportFolder()
        let header = "\u{FEFF}Date,Meal,Time,Calories,Fat (g),Carbohydrates (g),Protein (g),Fiber\r\n"
        let special = "2024-01-05,\"Snack, \"\"late\"\"\",21:00,250,1,2,3,4\r\n"
        for shift in 0..<40 {
            let filler = "2024-01-04,Breakfast,08:00,300,1,2,3,4\r\n"
            var text = header
            while text.utf8.count + filler.utf8.count < 65_536 - 6 - shift { text += filler }
            text += String(repeating: " ", count: max(0, 65_536 - 6 - shift - text.utf8.count)) + "\r\n"
            text += special
            let path = try folder.write("split\(shift).csv", text)
            // When it is planned, then the special row is one meal with its name as written
            let plan = try Importer.plan(path: path, options: berlinOptions)
            #expect(plan.meals.last?.entry.name == "Snack, \"late\"", "shift \(shift)")
            #expect(plan.meals.count == plan.meals.filter { $0.entry.kcal == 300 }.count + 1, "shift \(shift)")
            #expect(plan.meals.last?.entry.kcal == 250)
            #expect(plan.format == .myFitnessPalNutrition)
        }
    }
}

extension Zones {
    static func berlinDate(_ year: Int, _ month: Int, _ day: Int, _ hour: Int) -> Date {
        LocalDate.ymd(year, month, day).instant(at: .hm(hour, 0), in: berlin)
    }
}
