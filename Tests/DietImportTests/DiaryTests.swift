import DietCore
import DietStore
import Foundation
import TestSupport
import Testing

@testable import DietImport

/// Cronometer's and MyFitnessPal's CSV layouts, written here as their exports lay them out.
enum Diaries {
    static let cronometerServings = #"""
        Day,Time,Group,Food Name,Amount,Energy (kcal),Alcohol (g),Caffeine (mg),Water (g),Carbs (g),Fiber (g),Starch (g),Sugars (g),Net Carbs (g),Fat (g),Cholesterol (mg),Saturated (g),Protein (g),Sodium (mg),Category
        2024-01-05,7:45 AM,Breakfast,"Brötchen, Vollkorn",2.00 each,280.5,0,0,30,48.2,6.1,0,3,42.1,3.9,0,0.8,11.4,520,Baked Products
        2024-01-05,,Lunch,Käsespätzle,350 g,620,0,0,200,70,3,0,4,67,28,90,14,24,900,Meals
        2024-01-05,,Lunch,Water,500 ml,0,0,0,500,0,0,0,0,0,0,0,0,0,5,Beverages
        2024-01-06,19:10,Dinner,"Pasta ""al dente""",1 cup,220,0,0,50,43,2.5,0,1,40.5,1.3,0,0.2,8.1,1,Cereal-Grain-Pasta

        """#.replacingOccurrences(of: "\n", with: "\r\n")

    static let cronometerDaily = """
        Date,Energy (kcal),Alcohol (g),Caffeine (mg),Water (g),Carbs (g),Fiber (g),Net Carbs (g),Fat (g),Protein (g),Sodium (mg),Completed
        2024-01-05,1850.4,0,95,2100,190.2,28,162.2,70.1,110.5,2300,true
        2024-01-06,1720,0,80,1900,180,25,155,60,100,2000,false

        """

    static let cronometerBiometrics = """
        Day,Group,Metric,Unit,Amount
        2024-01-05,Weight,Weight,lbs,160.5
        2024-01-05,Heart,Heart Rate,bpm,62
        2024-01-06,Weight,Weight,kg,72.4

        """

    static let myFitnessPalNutrition = """
        Date,Meal,Time,Calories,Fat (g),Saturated Fat,Polyunsaturated Fat,Monounsaturated Fat,Trans Fat,Cholesterol,Sodium (mg),Potassium,Carbohydrates (g),Fiber,Sugar,Protein (g),Vitamin A,Vitamin C,Calcium,Iron,Note
        2024-01-05,Breakfast,08:05,410,12.5,4,1,5,0,30,400,300,55,6,12,18.2,10,5,15,10,
        2024-01-05,Dinner,,760,30,10,4,12,0,80,1200,900,80,8,9,40,20,30,25,20,"Essen bei Oma, lecker"

        """

    static let myFitnessPalMeasurement = """
        Date,Weight
        2024-01-05,72.4
        2024-01-06,72.0
        2024-01-06,71.8

        """
}

@Suite("Cronometer and MyFitnessPal diaries")
struct DiaryTests {
    @Test("Cronometer food entries: a meal per food with its own name and time, or its group's usual time; water left out")
    func cronometerServings() throws {
        // Given the food entries export (quoted names with commas and doubled quotes, CRLF lines)
        let folder = try ImportFolder()
        let path = try folder.write("servings.csv", Diaries.cronometerServings)
        // When it is planned
        let plan = try Importer.plan(path: path, options: berlinOptions)
        // Then there are three meals, in Berlin time, and the water is counted as without calories
        #expect(plan.format == .cronometerServings)
        #expect(plan.meals.map(\.entry.name) == ["Brötchen, Vollkorn", "Käsespätzle", "Pasta \"al dente\""])
        #expect(plan.meals.map(\.entry.kcal) == [281, 620, 220])
        #expect(plan.meals.map(\.entry.localTime) == [.hm(7, 45), .hm(12, 30), .hm(19, 10)])
        #expect(plan.meals[0].entry.proteinG == 11.4 && plan.meals[0].entry.carbsG == 48.2 && plan.meals[0].entry.fiberG == 6.1)
        #expect(plan.meals[0].entry.timeZoneIdentifier == "Europe/Berlin")
        #expect(plan.skipped == [.noCalories: 1])
    }

    @Test("Cronometer daily nutrition: one day total per date")
    func cronometerDaily() throws {
        let folder = try ImportFolder()
        let path = try folder.write("dailysummary.csv", Diaries.cronometerDaily)
        let plan = try Importer.plan(path: path, options: Importer.Options(timeZone: Zones.berlin, language: .de))
        #expect(plan.format == .cronometerDailySummary)
        #expect(plan.meals.map(\.entry.kcal) == [1850, 1720])
        #expect(plan.meals.map(\.entry.name) == ["Tagessumme (Cronometer)", "Tagessumme (Cronometer)"])
        #expect(plan.meals[0].entry.fatG == 70.1 && plan.meals[0].entry.proteinG == 110.5)
    }

    @Test("Cronometer biometrics: weights in lbs and kg; other measurements left out")
    func cronometerBiometrics() throws {
        let folder = try ImportFolder()
        let path = try folder.write("biometrics.csv", Diaries.cronometerBiometrics)
        let plan = try Importer.plan(path: path, options: berlinOptions)
        #expect(plan.format == .cronometerBiometrics)
        #expect(plan.weights.map(\.entry.kg) == [72.8, 72.4])
        #expect(plan.skipped == [.otherMeasurement: 1])
    }

    @Test("MyFitnessPal nutrition: one meal per diary meal, named by it")
    func myFitnessPalNutrition() throws {
        let folder = try ImportFolder()
        let path = try folder.write("Nutrition-Summary.csv", Diaries.myFitnessPalNutrition)
        let plan = try Importer.plan(path: path, options: berlinOptions)
        #expect(plan.format == .myFitnessPalNutrition)
        #expect(plan.meals.map(\.entry.name) == ["Breakfast", "Dinner"])
        #expect(plan.meals.map(\.entry.localTime) == [.hm(8, 5), .hm(18, 30)])
        #expect(plan.meals[1].entry.carbsG == 80 && plan.meals[1].entry.fiberG == 8 && plan.meals[1].entry.proteinG == 40)
    }

    @Test("MyFitnessPal measurements: the later row of a day wins; a weight unit given for the file converts lb")
    func myFitnessPalMeasurement() throws {
        let folder = try ImportFolder()
        let path = try folder.write("Measurement-Summary.csv", Diaries.myFitnessPalMeasurement)
        let kilograms = try Importer.plan(path: path, options: berlinOptions)
        #expect(kilograms.weights.map(\.entry.kg) == [72.4, 71.8])
        let pounds = try Importer.plan(
            path: try folder.write("lb.csv", "Date,Weight\n2024-01-05,160.5\n"),
            options: Importer.Options(timeZone: Zones.berlin, language: .en, weightUnit: "lb")
        )
        #expect(pounds.weights.map(\.entry.kg) == [72.8])
    }

    @Test("the format comes from the content, whatever the file is called")
    func recognition() throws {
        let folder = try ImportFolder()
        let cases: [(String, ImportFormat)] = [
            (Diaries.cronometerServings, .cronometerServings), (Diaries.cronometerDaily, .cronometerDailySummary),
            (Diaries.cronometerBiometrics, .cronometerBiometrics), (Diaries.myFitnessPalNutrition, .myFitnessPalNutrition),
            (Diaries.myFitnessPalMeasurement, .myFitnessPalMeasurement), (healthXML([]), .appleHealthXML),
            ("\u{FEFF}{\"format\": \"w-diet-export\"}", .wdietJSON),
        ]
        for (index, (text, format)) in cases.enumerated() {
            #expect(try Importer.format(of: folder.write("file\(index).txt", text)) == format)
        }
        #expect(importError { _ = try Importer.format(of: folder.write("x.csv", "Name,Color\nA,red\n")) }?.reason == .unknownFormat)
        #expect(importError { _ = try Importer.format(of: folder.write("y.csv", "")) }?.reason == .empty)
    }

    @Test(
        "a bad row is refused with its line and reason",
        arguments: [
            ("2024-01-05,Breakfast,08:05,4x0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,", ImportError.Reason.badNumber(column: "Calories", value: "4x0")),
            ("2024-13-05,Breakfast,08:05,400,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,", .badDate("2024-13-05")),
            ("2024-01-05,Breakfast,25:00,400,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,", .badTime("25:00")),
            ("2024-01-05,Breakfast,08:05,400", .csvColumns(expected: 21, got: 4)),
            ("2024-01-05,Breakfast,08:05,-400,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,", .impossible(.energy, value: "-400 kcal")),
            ("2024-01-05,\"Breakfast,08:05,400,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,", .csvQuote),
        ]
    )
    func badRow(row: String, reason: ImportError.Reason) throws {
        // Given the nutrition export with a bad third data row (line 4)
        let folder = try ImportFolder()
        var lines = Diaries.myFitnessPalNutrition.split(separator: "\n").map(String.init)
        lines.insert(row, at: 3)
        let path = try folder.write("n.csv", lines.joined(separator: "\n") + "\n")
        // When it is planned, then it is refused at line 4
        #expect(importError { _ = try Importer.plan(path: path, options: berlinOptions) } == ImportError(line: 4, reason))
    }

    @Test(
        "a number is read as written, never as another",
        arguments: [
            ("1.234,5", Character?("."), 1234.5), ("1,234.5", ".", 1234.5), ("72,4", ".", 72.4), ("72.4", ",", 72.4),
            ("0,125", ".", 0.125), ("1,234", ".", 1234), ("1.234", ".", 1.234), ("1.234", ",", 1234), ("1,234", ",", 1.234),
            ("1,234,567", ".", 1_234_567), ("-1.234,5", ".", -1234.5), ("  410 ", ".", 410),
        ] as [(String, Character?, Double)]
    )
    func numbersAsWritten(text: String, decimal: Character?, expected: Double) throws {
        #expect(try CSVValues.number(text, column: "Calories", decimal: decimal) == expected)
    }

    @Test(
        "a number that could be read two ways, or is not grouped in threes, is refused",
        arguments: [
            ("1,234", Character?.none, ImportError.Reason.ambiguousNumber(column: "Calories", value: "1,234")),
            ("1,2,3", ".", .badNumber(column: "Calories", value: "1,2,3")), ("12,34,567", ".", .badNumber(column: "Calories", value: "12,34,567")),
            ("1.2.3,4", ".", .badNumber(column: "Calories", value: "1.2.3,4")), ("1e3", ".", .badNumber(column: "Calories", value: "1e3")),
            ("1234,567,8", ".", .badNumber(column: "Calories", value: "1234,567,8")),
        ] as [(String, Character?, ImportError.Reason)]
    )
    func numbersRefused(text: String, decimal: Character?, reason: ImportError.Reason) {
        #expect(importError { _ = try CSVValues.number(text, column: "Calories", decimal: decimal) } == ImportError(line: nil, reason))
    }

    @Test("German numbers in a MyFitnessPal export: \"1.234,5\" kcal is 1234.5, never 1; the file's decimal comma decides \"1.234\"")
    func germanNumbers() throws {
        // Given a nutrition export written with decimal commas (quoted, as the comma also separates fields)
        let folder = try ImportFolder()
        let path = try folder.write(
            "n.csv",
            """
            Date,Meal,Calories,Fat (g),Carbohydrates (g),Protein (g)
            2024-01-05,Breakfast,"1.234,5","12,5",55,"18,2"
            2024-01-05,Dinner,"1.001","30,0",80,40

            """
        )
        // When it is planned
        let plan = try Importer.plan(path: path, options: berlinOptions)
        // Then each amount is the one written
        #expect(plan.meals.map(\.entry.kcal) == [1235, 1001])
        #expect(plan.meals.first?.entry.fatG == 12.5 && plan.meals.first?.entry.proteinG == 18.2)
    }
}
