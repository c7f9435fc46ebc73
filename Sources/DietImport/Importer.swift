import DietCore
import DietStore
import Foundation

/// Imports of the data people already have (docs/rules.md §8): the w-diet JSON export, Apple Health
/// exports (export.xml or export.zip, streamed), Cronometer and MyFitnessPal CSV diaries.
///
/// An import reads and checks the WHOLE file first, streaming, into a staging database on disk
/// (`ImportStaging`), so a damaged file is refused with its line and reason before anything is
/// written. Then the staged entries are written in short batches (`ImportPacing`: one
/// transaction each, the store's write lock free in between), so a large import holds up no
/// other write for more than about a batch. Memory stays the same for any number of rows.
/// Imported meals have ids derived from the file, so importing it again adds nothing twice,
/// also after an import that stopped between batches: its batches are there, the rest is added.
public enum Importer {
    /// What the import needs to know about the person: where their diary's dates are, the
    /// language of default names, the unit of a weight column that names none.
    public struct Options: Sendable {
        public var timeZone: TimeZone
        public var language: Language
        public var weightUnit: String
        public var progress: ImportProgress?
        /// How the writing shares the store with other writers.
        public var pacing: ImportPacing
        /// Told what was written so far after each committed batch; throwing stops the import
        /// there (what was committed stays, as after a crash).
        public var afterBatch: (@Sendable (ImportOutcome) throws -> Void)?
        /// `afterBatch` for the restore of a w-diet JSON export.
        public var afterRestoreBatch: (@Sendable (RestoreOutcome) throws -> Void)?

        public init(
            timeZone: TimeZone,
            language: Language,
            weightUnit: String = "kg",
            progress: ImportProgress? = nil,
            pacing: ImportPacing = .default,
            afterBatch: (@Sendable (ImportOutcome) throws -> Void)? = nil,
            afterRestoreBatch: (@Sendable (RestoreOutcome) throws -> Void)? = nil
        ) {
            self.timeZone = timeZone
            self.language = language
            self.weightUnit = weightUnit
            self.progress = progress
            self.pacing = pacing
            self.afterBatch = afterBatch
            self.afterRestoreBatch = afterRestoreBatch
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
        let firstLine = Array(bytes.prefix { $0 != 0x0A && $0 != 0x0D })
        var header: CSVHeader?
        _ = try? CSVReader(source: BytesSource(firstLine)).read { record in
            if header == nil { header = CSVHeader(names: record.fields) }
        }
        guard let header else { throw ImportError(line: nil, .unknownFormat) }
        return try csvFormat(Set(header.normalized))
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
    /// w-diet JSON export, which restores whole tables (`run` handles it). Holds every entry
    /// in memory: for looking at a file; `run` imports one of any size.
    public static func plan(path: String, options: Options) throws -> ImportPlan {
        let file = try OpenFile(path: path)
        let format = try format(head: file.bytes(at: 0, count: 64 << 10))
        var plan = ImportPlan(format: format)
        guard format != .wdietJSON else { return plan }
        let staged = try stage(file, format: format, options: options)
        while let batch = try staged.next(limit: 10_000) {
            plan.meals += batch.meals
            plan.weights += batch.weights
        }
        plan.skipped = staged.skipped
        return plan
    }

    /// Imports the file at `path` into `store`: the whole file is read and checked into the
    /// staging (nothing written when it is refused), then written in batches. Throws
    /// `ImportError` for a damaged file (nothing written), `StoreError` when the store refuses
    /// (e.g. a JSON export into a database holding data, or no profile yet: nothing written);
    /// any other error while writing leaves the batches committed before it, which the outcome
    /// given to `Options.afterBatch` counts, and importing the file again adds the rest.
    public static func run(path: String, into store: AppDatabase, options: Options) throws -> ImportSummary {
        let file = try OpenFile(path: path)
        let format = try format(head: file.bytes(at: 0, count: 64 << 10))
        if format == .wdietJSON { return try restore(file, into: store, options: options) }
        let staged = try stage(file, format: format, options: options)
        let outcome = try store.importEntries(
            format: format.rawValue,
            timeZone: options.timeZone,
            pacing: options.pacing,
            afterBatch: options.afterBatch
        ) { limit in try staged.next(limit: limit) }
        return ImportSummary(format: format, outcome: outcome, skipped: staged.skipped)
    }

    /// The first pass: the whole file read, checked and staged.
    static func stage(_ file: OpenFile, format: ImportFormat, options: Options) throws -> StagedImport {
        let l = Localizer(options.language)
        let staging = try ImportStaging()
        let skipped: [SkipReason: Int] = try staging.fill { writer in
            switch format {
            case .appleHealthXML:
                return try HealthImport.stage(
                    FileSource(file),
                    into: writer,
                    mealName: l.text("import.appleHealth.mealName"),
                    progress: options.progress
                )
            case .appleHealthZip:
                let source = try ZipEntrySource(file: file, entry: ZipEntry.healthExport(in: file))
                return try HealthImport.stage(source, into: writer, mealName: l.text("import.appleHealth.mealName"), progress: options.progress)
            case .wdietJSON:
                return [:]
            default:
                // a diary: its shape and decimal separator first, then its rows
                let survey = try CSVSurvey(FileSource(file))
                let names = DiaryImport.DiaryNames(dailyTotal: l.text("import.diary.dailyTotal"), quickAdd: MealEntry.quickAddName(options.language))
                let source = FileSource(file)
                let progress = options.progress
                let diary = DiaryImport(survey: survey, format: format, timeZone: options.timeZone, names: names, weightUnit: options.weightUnit)
                return try diary.stage(source.reporting(progress), into: writer)
            }
        }
        return StagedImport(staging: staging, skipped: skipped, timeZone: options.timeZone)
    }

    /// The longest row of an export read; a longer one is refused (the row contract's fields
    /// are far shorter).
    static let exportRowLimit = 1 << 20

    /// The w-diet JSON export, restored losslessly into an empty database: read as a stream
    /// (`JSONStream`) into a `RestoreStaging`, which checks every row, then written in batches.
    static func restore(_ file: OpenFile, into store: AppDatabase, options: Options) throws -> ImportSummary {
        let staging = try RestoreStaging(for: store)
        var json = JSONStream(FileSource(file).reporting(options.progress))
        var format: String?
        var version: Int?
        var exportedAt: String?
        try json.beginObject("an export")
        while let key = try json.nextKey() {
            switch key {
            case "format":
                guard case .string(let text) = try json.value(limit: 1 << 10) else { throw json.problem("format must be text") }
                // refused at once: a file that is no export is not read to its end
                guard text == DataExport.formatName else { throw StoreError.importRefused(reason: "not a w-diet export (format \(text))") }
                format = text
            case "version":
                guard case .number(let number) = try json.value(limit: 64), let whole = Int(exactly: number) else {
                    throw json.problem("version must be a whole number")
                }
                version = whole
            case "exported_at":
                guard case .string(let text) = try json.value(limit: 1 << 10) else { throw json.problem("exported_at must be text") }
                exportedAt = text
            case "tables":
                try json.beginObject("tables")
                while let table = try json.nextKey() {
                    guard DataExport.tables.contains(table) else { throw StoreError.importRefused(reason: "unknown table \(table)") }
                    try json.beginArray("tables.\(table)")
                    while try json.nextElement() {
                        guard case .object(let row) = try json.value(limit: exportRowLimit) else {
                            throw json.problem("each row of \(table) must be a JSON object")
                        }
                        try staging.add(row, table: table)
                    }
                }
            default:
                // a field of a later version: read past it
                _ = try json.value(limit: exportRowLimit)
            }
        }
        try json.end()
        try staging.finish()
        guard let format else { throw ImportError(line: nil, .wdietExport("missing format")) }
        guard let version else { throw ImportError(line: nil, .wdietExport("missing version")) }
        try AppDatabase.checkHeader(format: format, version: version)
        let outcome = try store.restore(
            staging,
            export: "\(exportedAt ?? "an export"), \(staging.count) rows",
            pacing: options.pacing,
            afterBatch: options.afterRestoreBatch
        )
        return ImportSummary(format: .wdietJSON, outcome: ImportOutcome(), skipped: [:], restore: outcome)
    }
}
