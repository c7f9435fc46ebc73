import DietCore
import DietStore
import Foundation

/// The diaries of the apps people switch from, as their CSV exports lay them out.
///
/// Cronometer (More › Account › Export Data; layouts as read by jonh-a/cronometer-analysis and
/// the Cronometer parsers of open-source importers): "Food & Recipe Entries" (`servings.csv`:
/// Day, Time, Group, Food Name, Amount, Energy (kcal), … Carbs (g), Fiber (g), … Fat (g), …
/// Protein (g), …), "Daily Nutrition" (`dailysummary.csv`: Date, Energy (kcal), … Completed)
/// and "Biometrics" (`biometrics.csv`: Day, Group, Metric, Unit, Amount).
/// MyFitnessPal (Settings › Export data; layouts as in the MyFitnessPal importers'
/// documented columns): "Nutrition" (Date, Meal, Time, Calories, Fat (g), Saturated Fat, …
/// Carbohydrates (g), Fiber, Sugar, Protein (g), …, Note) and "Measurement" (Date, Weight).
///
/// Dates and times carry no zone: they are read in the user's time zone. A row without a time
/// gets its meal group's usual time (breakfast 08:00, lunch 12:30, dinner 18:30, snacks 15:30).
struct DiaryImport {
    let survey: CSVSurvey
    let format: ImportFormat
    let timeZone: TimeZone
    let names: DiaryNames
    /// The unit of a weight column that names none (MyFitnessPal writes the account's unit).
    let weightUnit: String

    struct DiaryNames {
        let dailyTotal: String
        let quickAdd: String
    }

    var header: CSVHeader { survey.header }

    /// The second pass: reads every row of `source` (the survey has checked the file's shape)
    /// and stages what it holds; a bad row throws with its line before anything is written.
    /// Returns the rows left out, by reason.
    func stage(_ source: ByteSource, into staging: ImportStaging.Writer) throws -> [SkipReason: Int] {
        switch format {
        case .cronometerServings:
            return try meals(
                source,
                staging,
                source: "cronometer/servings",
                date: "day",
                name: "food name",
                group: "group",
                kcal: "energy (kcal)",
                protein: "protein (g)",
                carbs: "carbs (g)",
                fat: "fat (g)",
                fiber: "fiber (g)"
            )
        case .cronometerDailySummary:
            return try meals(
                source,
                staging,
                source: "cronometer/daily",
                date: "date",
                name: nil,
                group: nil,
                kcal: "energy (kcal)",
                protein: "protein (g)",
                carbs: "carbs (g)",
                fat: "fat (g)",
                fiber: "fiber (g)"
            )
        case .myFitnessPalNutrition:
            return try meals(
                source,
                staging,
                source: "myfitnesspal/nutrition",
                date: "date",
                name: "meal",
                group: "meal",
                kcal: "calories",
                protein: "protein (g)",
                carbs: "carbohydrates (g)",
                fat: "fat (g)",
                fiber: "fiber"
            )
        case .cronometerBiometrics: return try weights(source, staging, date: "day", metric: "metric", unit: "unit", amount: "amount")
        case .myFitnessPalMeasurement: return try weights(source, staging, date: "date", metric: nil, unit: nil, amount: "weight")
        case .wdietJSON, .appleHealthXML, .appleHealthZip: return [:]
        }
    }

    /// Every data row of `source`, with its line (the header is passed over).
    private func rows(_ source: ByteSource, _ body: (CSVReader.Record) throws -> Void) throws {
        var first = true
        try CSVReader(source: source).read { record in
            if first {
                first = false
                return
            }
            do {
                try body(record)
            } catch let error as ImportError {
                throw ImportError(line: error.line ?? record.line, error.reason)
            }
        }
    }

    private func meals(
        _ file: ByteSource,
        _ staging: ImportStaging.Writer,
        source: String,
        date: String,
        name: String?,
        group: String?,
        kcal: String,
        protein: String,
        carbs: String,
        fat: String,
        fiber: String
    ) throws -> [SkipReason: Int] {
        var skipped: [SkipReason: Int] = [:]
        let columns = (
            date: try header.require(date), kcal: try header.require(kcal), time: header.column("time"),
            name: name.flatMap { header.column($0) }, group: group.flatMap { header.column($0) }
        )
        let macros = [protein, carbs, fat, fiber].map { header.column($0) }
        var moments = MomentCache(timeZone: timeZone)
        try rows(file) { row in
            let day = try CSVValues.date(row.field(columns.date))
            let groupName = columns.group.map { row.field($0) } ?? ""
            let time = try CSVValues.time(columns.time.map { row.field($0) } ?? "") ?? Self.usualTime(of: groupName)
            var values = MealValues()
            values.kcal = try energy(row, columns.kcal)
            var grams: [Double?] = []
            for index in macros {
                if let index { grams.append(try gramsValue(row, index)) } else { grams.append(nil) }
            }
            (values.protein, values.carbs, values.fat, values.fiber) = (grams[0], grams[1], grams[2], grams[3])
            let mealName = columns.name.map { row.field($0).trimmingCharacters(in: .whitespaces) } ?? names.dailyTotal
            let moment = moments.moment(day, minutes: time.hour * 60 + time.minute)
            var key = "\(source)/\(day.iso)/\(groupName)/\(mealName)"
            if columns.time != nil { key += "/\(time.hour):\(time.minute)" }
            let occurrence = try staging.occurrence(of: key)
            switch values.entry(name: mealName.isEmpty ? names.quickAdd : mealName, fallbackName: names.quickAdd, at: moment) {
            case .success(let entry): try staging.add(ImportedMeal(id: AppDatabase.importedMealID("\(key)/\(occurrence)"), entry: entry))
            case .failure(let reason): skipped[reason, default: 0] += 1
            }
        }
        return skipped
    }

    private func weights(
        _ file: ByteSource,
        _ staging: ImportStaging.Writer,
        date: String,
        metric: String?,
        unit: String?,
        amount: String
    ) throws -> [SkipReason: Int] {
        var skipped: [SkipReason: Int] = [:]
        var amountColumn = header.column(amount) ?? header.column("weight (kg)", "weight (lbs)", "weight (lb)")
        if amountColumn == nil { amountColumn = try header.require(amount) }
        let columns = (
            date: try header.require(date), amount: amountColumn ?? 0, metric: metric.flatMap { header.column($0) },
            unit: unit.flatMap { header.column($0) }
        )
        let headerUnit = Self.unitInHeader(header.names[columns.amount]) ?? weightUnit
        try rows(file) { row in
            if let index = columns.metric, CSVReader.normalized(row.field(index)) != "weight" {
                skipped[.otherMeasurement, default: 0] += 1
                return
            }
            let day = try CSVValues.date(row.field(columns.date))
            let shown = row.field(columns.amount)
            guard let value = try CSVValues.number(shown, column: header.names[columns.amount], decimal: survey.decimalSeparator) else {
                return
            }
            let unit = columns.unit.map { row.field($0) } ?? headerUnit
            // later rows of a day win, as a later weigh-in does in the app; measured at noon of
            // that day: an import never wins over a weight logged later that day
            let kg = try Units.kilograms(value, unit: unit, shown: shown)
            let instant = day.instant(at: TimeOfDay(minutesSinceMidnight: 12 * 60), in: timeZone)
            try staging.setWeight(day: day, kg: kg, measuredAt: instant, offsetSeconds: nil, rule: .laterRowWins)
        }
        return skipped
    }

    private func energy(_ row: CSVReader.Record, _ index: Int) throws(ImportError) -> Double? {
        let text = row.field(index)
        guard let value = try CSVValues.number(text, column: header.names[index], decimal: survey.decimalSeparator) else { return nil }
        return try Units.kilocalories(value, unit: "kcal", shown: text)
    }

    private func gramsValue(_ row: CSVReader.Record, _ index: Int) throws(ImportError) -> Double? {
        let text = row.field(index)
        guard let value = try CSVValues.number(text, column: header.names[index], decimal: survey.decimalSeparator) else { return nil }
        return try Units.grams(value, unit: "g", shown: text)
    }

    /// `Weight (lbs)` → `lbs`.
    static func unitInHeader(_ name: String) -> String? {
        guard let open = name.lastIndex(of: "("), let close = name.lastIndex(of: ")"), open < close else { return nil }
        return String(name[name.index(after: open)..<close])
    }

    static func usualTime(of group: String) -> (hour: Int, minute: Int) {
        switch CSVReader.normalized(group) {
        case "breakfast", "frühstück", "desayuno": (8, 0)
        case "lunch", "mittagessen", "almuerzo", "comida": (12, 30)
        case "dinner", "abendessen", "cena": (18, 30)
        case "snacks", "snack", "zwischenmahlzeit", "merienda": (15, 30)
        default: (12, 0)
        }
    }
}
