import DietCore
import Foundation
import TestSupport
import Testing

@Suite("Eating moments as meal slots")
struct EatingMomentTests {
    func window(_ moments: [Int], start: Int = 12, end: Int = 18) throws -> EatingWindow {
        try EatingWindow(
            start: TimeOfDay(hour: start)!,
            end: TimeOfDay(hour: end)!,
            moments: moments.map { TimeOfDay(minutesSinceMidnight: $0 * 60) }
        )
    }

    @Test(
        "a meal goes to the moment whose name fits its time (lunch, afternoon, dinner), else the nearest",
        arguments: [
            ("08:00", 1), ("12:00", 1), ("13:29", 1), ("14:29", 1), ("14:30", 2), ("16:59", 2), ("17:00", 3), ("23:00", 3),
        ]
    )
    func byName(time: String, moment: Int) throws {
        #expect(try window([12, 15, 18]).moment(at: TimeOfDay(string: time)!) == moment)
    }

    @Test("a 10:00 breakfast is breakfast, not the meal nearer on the clock (issue 30: it landed in \"Mahlzeit 2 · 12:30\")")
    func breakfastAtTen() throws {
        let day = try EatingWindow(
            start: TimeOfDay(hour: 7, minute: 30)!,
            end: TimeOfDay(hour: 18, minute: 30)!,
            moments: [TimeOfDay(hour: 7, minute: 30)!, TimeOfDay(hour: 12, minute: 30)!, TimeOfDay(hour: 18, minute: 30)!]
        )
        let l = Localizer(.de)
        #expect(day.eatingMoments.map { l.render($0.label) } == ["Frühstück · 07:30", "Mittagessen · 12:30", "Abendessen · 18:30"])
        #expect(day.moment(at: TimeOfDay(hour: 10)!) == 1)
        #expect(day.moment(at: TimeOfDay(hour: 14)!) == 2)
        #expect(day.moment(at: TimeOfDay(hour: 22)!) == 3)
    }

    @Test("the default names follow the time of day; the second breakfast only where there are 4–5 moments")
    func defaultNames() throws {
        let five = try EatingWindow(
            start: TimeOfDay(hour: 7)!,
            end: TimeOfDay(hour: 22)!,
            moments: [7, 11, 13, 16, 22].map { TimeOfDay(hour: $0)! }
        )
        #expect(five.eatingMoments.map(\.kind) == [.breakfast, .secondBreakfast, .lunch, .afternoon, .snack])
        let three = try window([11, 13, 19], start: 11, end: 19)
        #expect(three.eatingMoments.map(\.kind) == [.snack, .lunch, .dinner])
        let es = Localizer(.es)
        #expect(five.eatingMoments.map { es.render($0.kind.nameMessage) } == ["Desayuno", "Media mañana", "Comida", "Merienda", "Tentempié"])
    }

    @Test("a renamed moment keeps its place and its meals; an empty name is the default again")
    func renamed() throws {
        let day = try window([12, 15, 18]).renamed(["Brunch", nil, "  "])
        let l = Localizer(.de)
        #expect(day.eatingMoments.map { l.render($0.label) } == ["Brunch · 12:00", "Nachmittag · 15:00", "Abendessen · 18:00"])
        #expect(day.moment(at: TimeOfDay(hour: 13)!) == 1)
        #expect(throws: ValidationError.self) { try window([12, 15, 18]).renamed([String(repeating: "x", count: 31)]) }
        #expect(throws: ValidationError.self) { try window([12, 15, 18]).renamed(["a\u{7}b"]) }
        // stored and read back, and an old profile without names reads as before
        let data = try JSONEncoder().encode(day)
        #expect(try JSONDecoder().decode(EatingWindow.self, from: data) == day)
        let plain = try JSONEncoder().encode(try window([12, 15, 18]))
        #expect(String(decoding: plain, as: UTF8.self).contains("names") == false)
    }

    @Test("a name is one line of 1–30 characters without control characters, and a refusal says so in plain words")
    func nameRules() throws {
        #expect(try EatingWindow.checkedName(" Kaffee\tund\nKuchen ") == "Kaffee und Kuchen")
        #expect(try EatingWindow.checkedName("👩\u{200D}🍳 Kochen") == "👩\u{200D}🍳 Kochen", "a joiner inside an emoji is no control character")
        #expect(try EatingWindow.checkedName(" \t ") == nil)
        let de = Localizer(.de)
        func refusal(_ name: String) -> String? {
            do throws(ValidationError) {
                _ = try EatingWindow.checkedName(name)
                return nil
            } catch {
                return de.render(error.message)
            }
        }
        #expect(refusal(String(repeating: "x", count: 31)) == "Name der Mahlzeit: erlaubt ist 1 bis 30 Zeichen; du hast 31 Zeichen eingegeben.")
        #expect(
            refusal("a\u{7}b")
                == "Name der Mahlzeit: erlaubt ist Text ohne Steuerzeichen (Tabulator und Zeilenumbruch sind erlaubt); du hast \"a\\u0007b\" eingegeben."
        )
    }

    @Test("around midnight the clock wraps: 01:00 belongs to a 23:00 moment")
    func midnight() throws {
        let late = try window([20, 23], start: 19, end: 1)
        #expect(late.moment(at: TimeOfDay(hour: 1)!) == 2)
        #expect(late.moment(at: TimeOfDay(hour: 19)!) == 1)
    }

    @Test("a stored moment beyond today's moments falls to the last one")
    func clamped() throws {
        let two = try window([12, 18])
        #expect(two.clampedMoment(5) == 2)
        #expect(two.clampedMoment(nil) == nil)
        #expect(two.eatingMoments.map(\.number) == [1, 2])
        #expect(Localizer(.de).render(two.eatingMoments[1].label) == "Abendessen · 18:00")
    }

    @Test("a meal's moment must be 1–5")
    func momentRange() {
        #expect(throws: ValidationError.self) {
            try MealEntry(name: "x", kcal: 10, at: Date(timeIntervalSince1970: 0), in: .gmt, moment: 6)
        }
    }

    @Test("quick add needs only calories; the name defaults to 'Quick add' in the user's language")
    func quickAdd() throws {
        let entry = try MealEntry.quickAdd(kcal: 250, at: Date(timeIntervalSince1970: 0), in: .gmt, language: .de)
        #expect(entry.name == "Schnell erfasst" && entry.kcal == 250 && !entry.hasMacros)
        #expect(MealEntry.quickAddName(.en) == "Quick add")
        #expect(try MealEntry.quickAdd(kcal: 90, name: "  Apfel ", at: .now, in: .gmt, language: .de).name == "Apfel")
    }

    @Test("the weight picker starts at the onboarding weight before the first entry, not at 70.0")
    func pickerStart() throws {
        // Given a woman who entered 72.5 kg at onboarding and has logged no weight
        let card = WeightCard(entries: [], today: LocalDate(year: 2026, month: 3, day: 2)!, onboardingKg: 72.5, sex: .female)
        #expect(card.pickerStartKg == 72.5)
        #expect(WeightTrend.pickerDefault(entries: [], sex: .female) == 70.0)
    }

    @Test("the study preset always restricts by 0.33; locked goals are all four or none, with decimal commas")
    func planRules() throws {
        #expect(Profile.alice.applying(preset: .study, deficit: 0.2).deficit == 0.33)
        #expect(Profile.alice.applying(preset: .openEnded, deficit: 0.2).deficit == 0.2)
        #expect(try LockedGoals.parse(kcal: "", protein: nil, carbs: " ", fat: "", floor: 1200) == nil)
        #expect(
            try LockedGoals.parse(kcal: "1500", protein: "130,5", carbs: "140", fat: "50", floor: 1200)
                == LockedGoals(kcal: 1500, proteinG: 130.5, carbsG: 140, fatG: 50)
        )
        let missing = #expect(throws: ValidationError.self) {
            try LockedGoals.parse(kcal: "1500", protein: "130", carbs: "", fat: "50", floor: 1200)
        }
        #expect(missing?.field == .lockedCarbs)
        #expect(throws: ValidationError.self) { try LockedGoals.parse(kcal: "900", protein: "1", carbs: "1", fat: "1", floor: 1200) }
    }
}
