import DietCore
import DietStore
import Foundation

/// Imports of the data people already have (docs/rules.md §8): the w-diet JSON export, Apple Health
/// exports (export.xml or export.zip, streamed), Cronometer and MyFitnessPal CSV diaries.
///
/// An import reads and checks the WHOLE file first, then writes everything in one store
/// transaction (`AppDatabase.importEntries`), so a damaged file changes nothing. Imported meals
/// have ids derived from the file, so importing it again adds nothing twice.
public enum Importer {
    /// What the import needs to know about the person: where their diary's dates are, the
    /// language of default names, the unit of a weight column that names none.
    public struct Options: Sendable {
        public var timeZone: TimeZone
        public var language: Language
        public var weightUnit: String
        public var progress: ImportProgress?

        public init(timeZone: TimeZone, language: Language, weightUnit: String = "kg", progress: ImportProgress? = nil) {
            self.timeZone = timeZone
            self.language = language
            self.weightUnit = weightUnit
            self.progress = progress
        }
    }

    /// The format of the file at `path`, from its first bytes.
    public static func format(of path: String) throws(ImportError) -> ImportFormat {
        let file = try OpenFile(path: path)
        return try format(head: file.bytes(at: 0, count: 64 << 10))
    }

    static func format(head: [UInt8]) throws(ImportError) -> ImportFormat {
        if head.starts(with: [0x50, 0x4B]) { return .appleHealthZip }
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        bytes = bytes.drop(while: XMLScanner.isSpace)
        guard let first = bytes.first else { throw ImportError(line: nil, .empty) }
        if first == UInt8(ascii: "{") { return .wdietJSON }
        if first == UInt8(ascii: "<") {
            guard String(decoding: bytes, as: UTF8.self).contains("HealthData") else { throw ImportError(line: nil, .unknownFormat) }
            return .appleHealthXML
        }
        let firstLine = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
        guard let header = try? CSVTable(Data(firstLine)) else { throw ImportError(line: nil, .unknownFormat) }
        return try csvFormat(Set(header.normalizedHeader))
    }

    static func csvFormat(_ columns: Set<String>) throws(ImportError) -> ImportFormat {
        if columns.isSuperset(of: ["day", "group", "food name", "energy (kcal)"]) { return .cronometerServings }
        if columns.isSuperset(of: ["day", "metric", "unit", "amount"]) { return .cronometerBiometrics }
        if columns.isSuperset(of: ["date", "energy (kcal)"]) { return .cronometerDailySummary }
        if columns.isSuperset(of: ["date", "meal", "calories"]) { return .myFitnessPalNutrition }
        if columns.contains("date"), columns.contains(where: { $0 == "weight" || $0.hasPrefix("weight (") }) {
            return .myFitnessPalMeasurement
        }
        throw ImportError(line: 1, .unknownFormat)
    }

    /// Reads and checks the file into what would be written; nothing is written. Not for the
    /// w-diet JSON export, which restores whole tables (`run` handles it).
    public static func plan(path: String, options: Options) throws(ImportError) -> ImportPlan {
        let file = try OpenFile(path: path)
        let format = try format(head: file.bytes(at: 0, count: 64 << 10))
        let l = Localizer(options.language)
        let mealName = l.text("import.appleHealth.mealName")
        switch format {
        case .appleHealthXML:
            return try HealthImport.plan(FileSource(file), format: format, mealName: mealName, progress: options.progress)
        case .appleHealthZip:
            let source = try ZipEntrySource(file: file, entry: ZipEntry.healthExport(in: file))
            return try HealthImport.plan(source, format: format, mealName: mealName, progress: options.progress)
        case .wdietJSON:
            return ImportPlan(format: format)
        default:
            guard file.size <= 512 << 20 else { throw ImportError(line: nil, .unknownFormat) }
            let data = Data(try file.bytes(at: 0, count: Int(file.size)))
            options.progress?(file.size, file.size)
            let names = DiaryImport.DiaryNames(dailyTotal: l.text("import.diary.dailyTotal"), quickAdd: MealEntry.quickAddName(options.language))
            return try DiaryImport(
                table: CSVTable(data),
                format: format,
                timeZone: options.timeZone,
                names: names,
                weightUnit: options.weightUnit
            ).plan()
        }
    }

    /// Imports the file at `path` into `store`: the whole file is read and checked, then
    /// written in one transaction. Throws `ImportError` for a damaged file (nothing written),
    /// `StoreError` when the store refuses (e.g. a JSON export into a database holding data).
    public static func run(path: String, into store: AppDatabase, options: Options) throws -> ImportSummary {
        let plan = try plan(path: path, options: options)
        if plan.format == .wdietJSON { return try restore(path: path, into: store) }
        let outcome = try store.importEntries(meals: plan.meals, weights: plan.weights, format: plan.format.rawValue, timeZone: options.timeZone)
        return ImportSummary(format: plan.format, outcome: outcome, skipped: plan.skipped, restoredRows: nil)
    }

    /// The w-diet JSON export, restored as before: into an empty database, losslessly.
    static func restore(path: String, into store: AppDatabase) throws -> ImportSummary {
        let export: DataExport
        do {
            export = try JSONDecoder().decode(DataExport.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch let error as DecodingError {
            throw ImportError(line: nil, .wdietExport(describe(error)))
        } catch {
            throw ImportError(line: nil, .unreadable(path))
        }
        try store.importData(export)
        return ImportSummary(
            format: .wdietJSON,
            outcome: ImportOutcome(),
            skipped: [:],
            restoredRows: export.tables.values.map(\.count).reduce(0, +)
        )
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "missing \(key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.map(\.stringValue).joined(separator: ".") + ": " + context.debugDescription
        @unknown default: "not a w-diet export"
        }
    }
}
