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
    let table: CSVTable
    let format: ImportFormat
    let timeZone: TimeZone
    let names: DiaryNames
    /// The unit of a weight column that names none (MyFitnessPal writes the account's unit).
    let weightUnit: String

    struct DiaryNames {
        let dailyTotal: String
        let quickAdd: String
    }

    func plan() throws(ImportError) -> ImportPlan {
        try table.checkWidths()
        switch format {
        case .cronometerServings:
            return try meals(
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
        case .cronometerBiometrics: return try weights(date: "day", metric: "metric", unit: "unit", amount: "amount")
        case .myFitnessPalMeasurement: return try weights(date: "date", metric: nil, unit: nil, amount: "weight")
        case .wdietJSON, .appleHealthXML, .appleHealthZip: return ImportPlan(format: format)
        }
    }

    private func meals(
        source: String,
        date: String,
        name: String?,
        group: String?,
        kcal: String,
        protein: String,
        carbs: String,
        fat: String,
        fiber: String
    ) throws(ImportError) -> ImportPlan {
        var plan = ImportPlan(format: format)
        let columns = (
            date: try table.require(date), kcal: try table.require(kcal), time: table.column("time"),
            name: name.flatMap { table.column($0) }, group: group.flatMap { table.column($0) }
        )
        let macros = [protein, carbs, fat, fiber].map { table.column($0) }
        var seen: [String: Int] = [:]
        for row in table.rows {
            try atLine(row.line) { () throws(ImportError) in
                let day = try CSVValues.date(row.fields[columns.date])
                let groupName = columns.group.map { row.fields[$0] } ?? ""
                let time = try CSVValues.time(columns.time.map { row.fields[$0] } ?? "") ?? Self.usualTime(of: groupName)
                var values = MealValues()
                values.kcal = try energy(row, columns.kcal)
                var grams: [Double?] = []
                for index in macros {
                    if let index { grams.append(try gramsValue(row, index)) } else { grams.append(nil) }
                }
                (values.protein, values.carbs, values.fat, values.fiber) = (grams[0], grams[1], grams[2], grams[3])
                let mealName = columns.name.map { row.fields[$0].trimmingCharacters(in: .whitespaces) } ?? names.dailyTotal
                let instant = day.instant(at: TimeOfDay(minutesSinceMidnight: time.hour * 60 + time.minute), in: timeZone)
                var key = "\(source)/\(day.iso)/\(groupName)/\(mealName)"
                if columns.time != nil { key += "/\(time.hour):\(time.minute)" }
                seen[key, default: 0] += 1
                switch values.entry(name: mealName.isEmpty ? names.quickAdd : mealName, fallbackName: names.quickAdd, at: instant, in: timeZone) {
                case .success(let entry):
                    plan.meals.append(ImportedMeal(id: AppDatabase.importedMealID("\(key)/\(seen[key] ?? 1)"), entry: entry))
                case .failure(let reason): plan.skip(reason)
                }
            }
        }
        return plan
    }

    private func weights(date: String, metric: String?, unit: String?, amount: String) throws(ImportError) -> ImportPlan {
        var plan = ImportPlan(format: format)
        var amountColumn = table.column(amount) ?? table.column("weight (kg)", "weight (lbs)", "weight (lb)")
        if amountColumn == nil { amountColumn = try table.require(amount) }
        let columns = (
            date: try table.require(date), amount: amountColumn ?? 0, metric: metric.flatMap { table.column($0) },
            unit: unit.flatMap { table.column($0) }
        )
        let headerUnit = Self.unitInHeader(table.header[columns.amount]) ?? weightUnit
        var byDay: [LocalDate: (kg: Double, row: Int)] = [:]
        for row in table.rows {
            try atLine(row.line) { () throws(ImportError) in
                if let index = columns.metric, CSVTable.normalized(row.fields[index]) != "weight" {
                    plan.skip(.otherMeasurement)
                    return
                }
                let day = try CSVValues.date(row.fields[columns.date])
                guard
                    let value = try CSVValues.number(
                        row.fields[columns.amount],
                        column: table.header[columns.amount],
                        decimal: table.decimalSeparator
                    )
                else { return }
                let unit = columns.unit.map { row.fields[$0] } ?? headerUnit
                // later rows of a day win, as a later weigh-in does in the app
                byDay[day] = (try Units.kilograms(value, unit: unit, shown: row.fields[columns.amount]), row.line)
            }
        }
        for (day, weight) in byDay.sorted(by: { $0.key < $1.key }) {
            guard let entry = try? WeightEntry(date: day, kg: Units.tenths(weight.kg)) else {
                plan.skip(.weightOutOfRange)
                continue
            }
            // measured at noon of that day: an import never wins over a weight logged later that day
            let instant = day.instant(at: TimeOfDay(minutesSinceMidnight: 12 * 60), in: timeZone)
            plan.weights.append(ImportedWeight(entry: entry, measuredAt: instant, timeZone: timeZone))
        }
        return plan
    }

    private func energy(_ row: CSVTable.Row, _ index: Int) throws(ImportError) -> Double? {
        let text = row.fields[index]
        guard let value = try CSVValues.number(text, column: table.header[index], decimal: table.decimalSeparator) else { return nil }
        return try Units.kilocalories(value, unit: "kcal", shown: text)
    }

    private func gramsValue(_ row: CSVTable.Row, _ index: Int) throws(ImportError) -> Double? {
        let text = row.fields[index]
        guard let value = try CSVValues.number(text, column: table.header[index], decimal: table.decimalSeparator) else { return nil }
        return try Units.grams(value, unit: "g", shown: text)
    }

    private func atLine(_ line: Int, _ body: () throws(ImportError) -> Void) throws(ImportError) {
        do {
            try body()
        } catch {
            throw ImportError(line: error.line ?? line, error.reason)
        }
    }

    /// `Weight (lbs)` → `lbs`.
    static func unitInHeader(_ name: String) -> String? {
        guard let open = name.lastIndex(of: "("), let close = name.lastIndex(of: ")"), open < close else { return nil }
        return String(name[name.index(after: open)..<close])
    }

    static func usualTime(of group: String) -> (hour: Int, minute: Int) {
        switch CSVTable.normalized(group) {
        case "breakfast", "frühstück", "desayuno": (8, 0)
        case "lunch", "mittagessen", "almuerzo", "comida": (12, 30)
        case "dinner", "abendessen", "cena": (18, 30)
        case "snacks", "snack", "zwischenmahlzeit", "merienda": (15, 30)
        default: (12, 0)
        }
    }
}
