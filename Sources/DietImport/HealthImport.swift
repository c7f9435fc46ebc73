import DietCore
import DietStore
import Foundation

/// Reads an Apple Health export (`export.xml`, alone or inside `export.zip`) into an import
/// plan: body mass as one weight per local day (the later measurement wins, the store's rule),
/// dietary energy and macros as meals.
///
/// The layout is Apple's: `<HealthData>` with one `<Record type=… sourceName=… unit=…
/// startDate="2024-01-05 08:30:00 +0100" endDate=… value=…/>` per sample, optionally with
/// `<MetadataEntry key=… value=…/>` children, under a DOCTYPE with an internal subset (seen
/// in exports shown by chrislemke/ios-health-explorer and others; identifiers from HealthKit's
/// HKQuantityTypeIdentifier: BodyMass, DietaryEnergyConsumed, DietaryProtein,
/// DietaryCarbohydrates, DietaryFatTotal, DietaryFiber; food names from the HKFoodType
/// metadata key). Samples of one start time and source are one meal. Memory stays flat: meals
/// and weights are added up in the import's staging (on disk), not in memory.
struct HealthImport {
    enum Kind: CaseIterable {
        case bodyMass, energy, protein, carbs, fat, fiber

        var identifier: [UInt8] {
            let suffix =
                switch self {
                case .bodyMass: "BodyMass"
                case .energy: "DietaryEnergyConsumed"
                case .protein: "DietaryProtein"
                case .carbs: "DietaryCarbohydrates"
                case .fat: "DietaryFatTotal"
                case .fiber: "DietaryFiber"
                }
            return Array("HKQuantityTypeIdentifier\(suffix)".utf8)
        }
    }

    struct Sample {
        let kind: Kind
        let amount: Double
        let start: String
        let moment: HealthDate
        let source: String
        var foodName: String?
    }

    let mealName: String
    let staging: ImportStaging.Writer
    /// Why the staging refused a write (the scanner's callbacks can only throw `ImportError`).
    private(set) var stagingFailure: (any Error)?
    private(set) var skipped: [SkipReason: Int] = [:]
    private var pending: Sample?
    /// Inside a `<Correlation>` (a food correlation repeats samples that are also listed on
    /// their own): its records are not counted twice.
    private var correlationDepth = 0
    private var skippedWeights = 0

    private static let record = Array("Record".utf8), metadata = Array("MetadataEntry".utf8), correlation = Array("Correlation".utf8)
    private static let typeKey = Array("type".utf8), valueKey = Array("value".utf8), unitKey = Array("unit".utf8)
    private static let startKey = Array("startDate".utf8), sourceKey = Array("sourceName".utf8), keyKey = Array("key".utf8)
    private static let foodType = Array("HKFoodType".utf8)
    private static let identifiers = Kind.allCases.map { ($0, $0.identifier) }

    init(mealName: String, staging: ImportStaging.Writer) {
        self.mealName = mealName
        self.staging = staging
    }

    /// Scans `source` to the end into `staging`; a broken file throws with its line. Returns
    /// the meals left out, by reason.
    static func stage(
        _ source: ByteSource,
        into staging: ImportStaging.Writer,
        mealName: String,
        progress: ImportProgress?
    ) throws -> [SkipReason: Int] {
        var collector = HealthImport(mealName: mealName, staging: staging)
        let scanner = XMLScanner(source: source)
        if let progress { scanner.onChunk = { progress(source.consumed, source.total) } }
        do {
            try scanner.run(
                start: { tag throws(ImportError) in try collector.start(tag) },
                close: { tag throws(ImportError) in try collector.close(tag) }
            )
        } catch {
            throw collector.stagingFailure ?? error
        }
        try collector.finish()
        return collector.skipped
    }

    mutating func start(_ tag: XMLTag) throws(ImportError) {
        if tag.isNamed(Self.correlation) {
            correlationDepth += 1
        } else if tag.isNamed(Self.record), correlationDepth == 0 {
            pending = nil
            guard let type = tag.attribute(Self.typeKey),
                let kind = Self.identifiers.first(where: { XMLScanner.equal(tag.bytes, type.value, $0.1) })?.0
            else { return }
            pending = try Self.sample(kind, tag)
        } else if tag.isNamed(Self.metadata), pending != nil, tag.attribute(Self.keyKey, is: Self.foodType),
            let value = tag.attribute(Self.valueKey)
        {
            pending?.foodName = try tag.text(value)
        }
    }

    mutating func close(_ tag: XMLTag) throws(ImportError) {
        if tag.isNamed(Self.correlation) { correlationDepth -= 1 }
        guard tag.isNamed(Self.record), let sample = pending else { return }
        pending = nil
        do {
            try add(sample)
        } catch {
            stagingFailure = error
            throw ImportError(line: nil, .truncated)
        }
    }

    private static func sample(_ kind: Kind, _ tag: XMLTag) throws(ImportError) -> Sample {
        guard let valueAttribute = tag.attribute(valueKey), let startAttribute = tag.attribute(startKey) else {
            throw ImportError(line: nil, .xml(.attribute))
        }
        let text = try tag.text(valueAttribute)
        guard let value = Double(text), value.isFinite else { throw ImportError(line: nil, .badNumber(column: "value", value: text)) }
        var unit = ""
        if let attribute = tag.attribute(unitKey) { unit = try tag.text(attribute) }
        let start = try tag.text(startAttribute)
        guard let moment = HealthDate(start) else { throw ImportError(line: nil, .badDate(start)) }
        var source = ""
        if let attribute = tag.attribute(sourceKey) { source = try tag.text(attribute) }
        return Sample(
            kind: kind,
            amount: try Units.convert(value, unit: unit, for: kind, shown: text),
            start: start,
            moment: moment,
            source: source
        )
    }

    private func add(_ sample: Sample) throws {
        if sample.kind == .bodyMass {
            try staging.setWeight(
                day: sample.moment.localDate,
                kg: sample.amount,
                measuredAt: sample.moment.instant,
                offsetSeconds: sample.moment.offsetSeconds,
                rule: .laterMeasurementWins
            )
            return
        }
        var amounts = StagedMealSum.Amounts()
        switch sample.kind {
        case .energy: amounts.kcal = sample.amount
        case .protein: amounts.protein = sample.amount
        case .carbs: amounts.carbs = sample.amount
        case .fat: amounts.fat = sample.amount
        case .fiber: amounts.fiber = sample.amount
        case .bodyMass: break
        }
        try staging.addToMeal(
            key: "apple-health/\(sample.start)/\(sample.source)",
            instant: sample.moment.instant,
            offsetSeconds: sample.moment.offsetSeconds,
            amounts: amounts,
            name: sample.foodName
        )
    }

    /// Turns the added-up meals into the meals the store keeps, in the order of their instants;
    /// the rest counted as skipped with their reason.
    private mutating func finish() throws {
        var skipped = skipped
        try staging.forEachMealSum { sum in
            let timeZone = TimeZone(secondsFromGMT: sum.offsetSeconds) ?? .gmt
            let values = MealValues(
                kcal: sum.amounts.kcal,
                protein: sum.amounts.protein,
                carbs: sum.amounts.carbs,
                fat: sum.amounts.fat,
                fiber: sum.amounts.fiber
            )
            switch values.entry(name: sum.name ?? mealName, fallbackName: mealName, at: sum.instant, in: timeZone) {
            case .success(let entry): try staging.add(ImportedMeal(id: AppDatabase.importedMealID(sum.key), entry: entry))
            case .failure(let reason): skipped[reason, default: 0] += 1
            }
        }
        self.skipped = skipped
    }
}

/// Apple Health's `2024-01-05 08:30:00 +0100`: the local date and time are the ones of that
/// offset.
struct HealthDate {
    let localDate: LocalDate
    let instant: Date
    let offsetSeconds: Int

    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 25, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x20, bytes[13] == 0x3A, bytes[16] == 0x3A,
            bytes[19] == 0x20, bytes[20] == 0x2B || bytes[20] == 0x2D
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (0x30...0x39).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), let offsetHours = number(21..<23),
            let offsetMinutes = number(23..<25), hour < 24, minute < 60, second < 61, offsetHours < 15, offsetMinutes < 60,
            let date = LocalDate(year: year, month: month, day: day)
        else { return nil }
        let offset = (bytes[20] == 0x2D ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60)
        localDate = date
        offsetSeconds = offset
        instant = Date(timeIntervalSince1970: TimeInterval(date.dayNumber * 86_400 + hour * 3600 + minute * 60 + second - offset))
    }
}
