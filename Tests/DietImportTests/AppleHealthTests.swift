import DietCore
import DietStore
import Foundation
import TestSupport
import Testing

@testable import DietImport

@Suite("Apple Health import")
struct AppleHealthTests {
    @Test("body mass in kg and lb becomes one weight per local day of the sample's offset; the later one wins")
    func weights() throws {
        // Given two weigh-ins on 5 January (+0100), one in lb, and one late on 6 January in New York time
        let folder = try ImportFolder()
        let path = try folder.write(
            "export.xml",
            healthXML([
                record("BodyMass", "73.4", unit: "kg", start: "2024-01-05 07:10:00 +0100"),
                record("BodyMass", "161.2", unit: "lb", start: "2024-01-05 21:40:00 +0100"),
                record("BodyMass", "72.9", unit: "kg", start: "2024-01-06 23:30:00 -0500"),
            ])
        )
        // When it is planned
        let plan = try Importer.plan(path: path, options: berlinOptions)
        // Then the 5th holds the evening's 161.2 lb (73.1 kg) and the 6th stays the 6th (its own offset, not Berlin's 7th)
        #expect(plan.format == .appleHealthXML)
        #expect(plan.weights.map(\.entry.date) == [.ymd(2024, 1, 5), .ymd(2024, 1, 6)])
        #expect(plan.weights.map(\.entry.kg) == [73.1, 72.9])
        #expect(plan.weights[1].timeZone.secondsFromGMT() == -5 * 3600)
    }

    @Test("energy and macros of one start time and source are one meal, named by HKFoodType, kJ converted to kcal")
    func meals() throws {
        // Given a lunch of four samples (energy in kJ, a German name with an entity) and a snack from another app
        let folder = try ImportFolder()
        let lunch = "2024-01-05 12:30:00 +0100"
        let path = try folder.write(
            "export.xml",
            healthXML([
                record("DietaryEnergyConsumed", "2092", unit: "kJ", start: lunch, source: "Yazio", children: [foodType("Käsespätzle &amp; Salat")]),
                record("DietaryProtein", "21.5", unit: "g", start: lunch, source: "Yazio"),
                record("DietaryCarbohydrates", "60000", unit: "mg", start: lunch, source: "Yazio"),
                record("DietaryFatTotal", "18", unit: "g", start: lunch, source: "Yazio"),
                record("DietaryFiber", "4", unit: "g", start: lunch, source: "Yazio"),
                record("DietaryEnergyConsumed", "150", unit: "kcal", start: lunch, source: "Lose It!"),
            ])
        )
        // When it is planned
        let plan = try Importer.plan(path: path, options: berlinOptions)
        // Then there are two meals: the lunch with everything, the snack named "Apple Health"
        #expect(plan.meals.count == 2)
        let meal = try #require(plan.meals.first { $0.entry.kcal == 500 })
        #expect(meal.entry.name == "Käsespätzle & Salat")
        #expect(meal.entry.proteinG == 21.5 && meal.entry.carbsG == 60 && meal.entry.fatG == 18 && meal.entry.fiberG == 4)
        #expect(meal.entry.localDate == .ymd(2024, 1, 5) && meal.entry.localTime == .hm(12, 30))
        #expect(plan.meals.map(\.entry.name).contains("Apple Health"))
    }

    @Test("a food correlation's records, which the export also lists on their own, are counted once")
    func correlation() throws {
        let folder = try ImportFolder()
        let breakfast = "2024-01-05 08:00:00 +0100"
        let energy = record("DietaryEnergyConsumed", "300", unit: "kcal", start: breakfast, source: "Yazio")
        let path = try folder.write(
            "export.xml",
            healthXML([
                energy,
                "<Correlation type=\"HKCorrelationTypeIdentifierFood\" sourceName=\"Yazio\" startDate=\"\(breakfast)\" endDate=\"\(breakfast)\">",
                "  " + energy,
                "</Correlation>",
            ])
        )
        let plan = try Importer.plan(path: path, options: berlinOptions)
        #expect(plan.meals.map(\.entry.kcal) == [300])
    }

    @Test("other records are passed over; values outside the app's ranges are left out and counted with their reason")
    func skipped() throws {
        // Given step counts, a 250 kg weight, a 12,000 kcal day and a protein sample alone
        let folder = try ImportFolder()
        let path = try folder.write(
            "export.xml",
            healthXML([
                "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"iPhone\" unit=\"count\" startDate=\"2024-01-05 08:00:00 +0100\" endDate=\"2024-01-05 08:10:00 +0100\" value=\"812\"/>",
                record("BodyMass", "250", unit: "kg", start: "2024-01-05 07:00:00 +0100"),
                record("DietaryEnergyConsumed", "12000", unit: "kcal", start: "2024-01-05 20:00:00 +0100"),
                record("DietaryProtein", "30", unit: "g", start: "2024-01-05 21:00:00 +0100"),
            ])
        )
        // When it is planned
        let plan = try Importer.plan(path: path, options: berlinOptions)
        // Then nothing is kept and each is counted under its reason
        #expect(plan.meals.isEmpty && plan.weights.isEmpty)
        #expect(plan.skipped == [.weightOutOfRange: 1, .mealOutOfRange: 1, .noCalories: 1])
    }

    @Test("records read across the scanner's chunk boundaries are all seen")
    func chunks() throws {
        // Given 40,000 step records (about 8 MB) around weights at the start, the middle and the end
        let noise = (0..<40_000).map { index in
            "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"iPhone von Jörg\" unit=\"count\" startDate=\"2024-01-05 08:00:00 +0100\" endDate=\"2024-01-05 08:10:00 +0100\" value=\"\(index)\"/>"
        }
        let weights = (1...3).map { record("BodyMass", "7\($0).0", unit: "kg", start: "2024-01-0\($0) 07:00:00 +0100") }
        let folder = try ImportFolder()
        let path = try folder.write("export.xml", healthXML([weights[0]] + noise[..<20_000] + [weights[1]] + noise[20_000...] + [weights[2]]))
        // When it is planned
        let plan = try Importer.plan(path: path, options: berlinOptions)
        // Then all three weights are there
        #expect(plan.weights.map(\.entry.kg) == [71, 72, 73])
    }

    @Test(
        "a broken file is refused with the line and the reason",
        arguments: [
            ("</Recrod>", ImportError.Reason.xml(.mismatchedEnd)),
            (
                "<Record type=\"HKQuantityTypeIdentifierBodyMass\" unit=\"stones\" value=\"11\" sourceName=\"x\" startDate=\"2024-01-05 07:00:00 +0100\"/>",
                .unknownUnit("stones")
            ),
            (
                "<Record type=\"HKQuantityTypeIdentifierBodyMass\" unit=\"kg\" value=\"9999\" sourceName=\"x\" startDate=\"2024-01-05 07:00:00 +0100\"/>",
                .impossible(.weight, value: "9999 kg")
            ),
            (
                "<Record type=\"HKQuantityTypeIdentifierBodyMass\" unit=\"kg\" value=\"70\" sourceName=\"x\" startDate=\"5.1.2024\"/>",
                .badDate("5.1.2024")
            ),
            (
                "<Record type=\"HKQuantityTypeIdentifierDietaryEnergyConsumed\" unit=\"kcal\" value=\"1&nbsp;0\" sourceName=\"x\" startDate=\"2024-01-05 07:00:00 +0100\"/>",
                .xml(.unknownEntity)
            ),
        ]
    )
    func broken(line: String, reason: ImportError.Reason) throws {
        // Given an export with one wrong line
        let folder = try ImportFolder()
        let records =
            line.hasPrefix("</")
            ? [record("BodyMass", "70", unit: "kg", start: "2024-01-04 07:00:00 +0100"), line]
            : [line]
        let text = healthXML(records)
        let path = try folder.write("export.xml", text)
        // When it is planned, then it is refused at that line for that reason
        let error = importError { _ = try Importer.plan(path: path, options: berlinOptions) }
        #expect(error == ImportError(line: lineNumber(of: line, in: text), reason))
    }

    @Test("a file cut off in the middle is refused as truncated, with the line where it ends")
    func truncated() throws {
        // Given an export cut in the middle of its third record
        let folder = try ImportFolder()
        let full = healthXML((1...3).map { record("BodyMass", "7\($0)", unit: "kg", start: "2024-01-0\($0) 07:00:00 +0100") })
        let cut = String(full[..<full.range(of: "2024-01-03 07:00:00 +0100\" endDate")!.lowerBound])
        let path = try folder.write("export.xml", cut)
        // When it is planned, then it is refused as cut off
        let error = importError { _ = try Importer.plan(path: path, options: berlinOptions) }
        #expect(error?.reason == .truncated)
        let last = lineNumber(of: "2024-01-03 07:00:00", in: full)
        #expect(error?.line == last)
        #expect(error?.message(Localizer(.de)) == "Zeile \(last): die Datei endet zu früh, sie ist wohl abgeschnitten; exportiere sie noch einmal")
    }

    @Test(
        "export.zip, deflated or stored, with or without ZIP64 fields, reads like export.xml",
        arguments: [(true, false), (false, false), (true, true)]
    )
    func zip(deflate: Bool, zip64: Bool) throws {
        // Given an export.zip holding the export and other files, as the Health app writes it
        let folder = try ImportFolder()
        let xml = healthXML(
            [record("BodyMass", "70.5", unit: "kg", start: "2024-01-05 07:00:00 +0100")]
                + (0..<3000).map { _ in record("StepCount", "10", unit: "count", start: "2024-01-05 08:00:00 +0100") }
        )
        let path = try folder.zip(
            "export.zip",
            [
                ("apple_health_export/export_cda.xml", "<ClinicalDocument/>"),
                ("apple_health_export/export.xml", xml),
            ],
            deflate: deflate,
            zip64: zip64
        )
        // When it is planned
        let plan = try Importer.plan(path: path, options: berlinOptions)
        // Then the weight is there
        #expect(plan.format == .appleHealthZip)
        #expect(plan.weights.map(\.entry.kg) == [70.5])
    }

    @Test("a zip of more than 65,535 entries, which ends with ZIP64 end records, is read")
    func zip64EndRecords() throws {
        let folder = try ImportFolder()
        let xml = healthXML([record("BodyMass", "70.5", unit: "kg", start: "2024-01-05 07:00:00 +0100")])
        let path = try folder.zip("export.zip", [("apple_health_export/export.xml", xml)], routes: 65_600)
        let plan = try Importer.plan(path: path, options: berlinOptions)
        #expect(plan.weights.map(\.entry.kg) == [70.5])
    }

    @Test("a zip cut off, or without the health export, is refused")
    func brokenZip() throws {
        // Given a good zip, the same cut in half, and a zip of something else
        let folder = try ImportFolder()
        let xml = healthXML((0..<2000).map { _ in record("BodyMass", "70.5", unit: "kg", start: "2024-01-05 07:00:00 +0100") })
        let good = try folder.zip("export.zip", [("apple_health_export/export.xml", xml)])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        let cut = try folder.write("cut.zip", bytes.prefix(bytes.count / 2))
        let other = try folder.zip("other.zip", [("notes.txt", "hello")])
        // When they are planned, then the cut one is damaged and the other has no export
        #expect(importError { _ = try Importer.plan(path: cut, options: berlinOptions) }?.reason == .zipDamaged)
        #expect(importError { _ = try Importer.plan(path: other, options: berlinOptions) }?.reason == .zipNoHealthExport)
    }
}

/// The 1-based line of `text` where `needle` first appears.
func lineNumber(of needle: String, in text: String) -> Int {
    guard let range = text.range(of: needle) else { return 0 }
    return text[..<range.lowerBound].filter { $0 == "\n" }.count + 1
}
