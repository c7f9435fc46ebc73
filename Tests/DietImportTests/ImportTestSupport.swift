import DietCore
import DietStore
import Foundation
import TestSupport
import Testing

@testable import DietImport

/// A folder of files written by a test, removed when it ends.
final class ImportFolder: @unchecked Sendable {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-import-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try write(name, Data(text.utf8))
    }

    @discardableResult
    func write(_ name: String, _ data: Data) throws -> String {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file.path
    }

    /// A zip of `entries` written by Python's zipfile (an independent writer): deflated, or
    /// stored; with `zip64`, every entry carries the ZIP64 extra field.
    /// `routes` adds that many small workout-route files first (a phone's export holds many):
    /// above 65,535 entries the zip ends with ZIP64 end records.
    func zip(_ name: String, _ entries: [(String, String)], deflate: Bool = true, zip64: Bool = false, routes: Int = 0) throws -> String {
        var sources: [String] = []
        for (index, entry) in entries.enumerated() {
            sources.append(try write("entry\(index).bin", entry.1))
        }
        let target = url.appendingPathComponent(name).path
        let script = """
            import sys, zipfile
            target, method, force, routes = sys.argv[1], sys.argv[2], sys.argv[3] == "1", int(sys.argv[4])
            pairs = sys.argv[5:]
            with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED if method == "deflate" else zipfile.ZIP_STORED) as z:
                for i in range(routes):
                    z.writestr(f"apple_health_export/workout-routes/route_{i}.gpx", "<gpx/>")
                for i in range(0, len(pairs), 2):
                    with open(pairs[i + 1], "rb") as f, z.open(pairs[i], "w", force_zip64=force) as out:
                        out.write(f.read())
            """
        let python = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-c", script, target, deflate ? "deflate" : "store", zip64 ? "1" : "0", "\(routes)",
            ] + Swift.zip(entries.map(\.0), sources).flatMap { [$0, $1] }
        )
        #expect(python.status == 0, "python3 wrote the zip: \(python.stderr)")
        return target
    }
}

/// An Apple Health export.xml as the Health app writes it: prolog, DOCTYPE with its internal
/// subset, `HealthData`, `ExportDate`, `Me`, then the records given (one per line).
func healthXML(_ records: [String]) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!-- HealthKit Export Version: 13 -->
    <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
    <!ATTLIST HealthData
      locale CDATA #REQUIRED
    >
    <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
    <!ATTLIST Record
      type          CDATA #REQUIRED
      unit          CDATA #IMPLIED
      value         CDATA #IMPLIED
      sourceName    CDATA #REQUIRED
      startDate     CDATA #REQUIRED
      endDate       CDATA #REQUIRED
    >
    ]>
    <HealthData locale="de_DE">
     <ExportDate value="2024-02-01 10:00:00 +0100"/>
     <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
    \(records.map { " " + $0 }.joined(separator: "\n"))
    </HealthData>

    """
}

/// One `<Record …/>` line.
func record(_ type: String, _ value: String, unit: String, start: String, source: String = "Health", children: [String] = []) -> String {
    let attributes =
        "type=\"HKQuantityTypeIdentifier\(type)\" sourceName=\"\(source)\" sourceVersion=\"17.2\" unit=\"\(unit)\" "
        + "creationDate=\"\(start)\" startDate=\"\(start)\" endDate=\"\(start)\" value=\"\(value)\""
    guard !children.isEmpty else { return "<Record \(attributes)/>" }
    return "<Record \(attributes)>\n" + children.map { "  " + $0 }.joined(separator: "\n") + "\n </Record>"
}

func foodType(_ name: String) -> String { "<MetadataEntry key=\"HKFoodType\" value=\"\(name)\"/>" }

/// A store with Alice onboarded on 2024-02-01 in Berlin.
func onboardedStore() throws -> AppDatabase {
    let store = try AppDatabase.inMemory(clock: FixedClock.at(.ymd(2024, 2, 1), 9, in: Zones.berlin))
    try store.completeOnboarding(.alice, timeZone: Zones.berlin)
    return store
}

/// Every user table's rows as sorted JSON: what "the store is unchanged" compares.
func dump(_ store: AppDatabase) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(store.exportData()), as: UTF8.self)
}

let berlinOptions = Importer.Options(timeZone: Zones.berlin, language: .en)

/// The error a call throws, or nil.
func importError(_ body: () throws -> Void) -> ImportError? {
    do {
        try body()
        return nil
    } catch let error as ImportError {
        return error
    } catch {
        Issue.record("unexpected \(error)")
        return nil
    }
}
