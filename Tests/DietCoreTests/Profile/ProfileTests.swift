import DietCore
import Foundation
import TestSupport
import Testing

@Suite("Profile validation")
struct ProfileTests {
    private func make(age: Int = 34, heightCm: Double = 168, weightKg: Double = 72.5, deficit: Double = 0.30) throws(ValidationError) -> Profile {
        try Profile(sex: .female, age: age, heightCm: heightCm, weightKg: weightKg, activityLevel: .light, goal: .lose, deficit: deficit)
    }

    @Test("the edges of every range are accepted")
    func edgesAccepted() throws {
        for age in [18, 99] { _ = try make(age: age) }
        for height in [100.0, 250.0] { _ = try make(heightCm: height) }
        for weight in [30.0, 200.0, 72.3] { _ = try make(weightKg: weight) }
        for deficit in [0.10, 0.35] { _ = try make(deficit: deficit) }
    }

    @Test("age outside 18–99 names the field, the range and the value", arguments: [17, 100, -1])
    func badAge(age: Int) {
        #expect(throws: ValidationError(field: .age, allowed: .range(min: 18, max: 99, digits: 0, unit: nil), received: "\(age)")) {
            try make(age: age)
        }
    }

    @Test("height outside 100–250 cm is refused", arguments: [99.9, 250.5, .nan, .infinity])
    func badHeight(height: Double) {
        #expect(throws: ValidationError.self) { try make(heightCm: height) }
    }

    @Test("weight must lie in 30.0–200.0 kg on the 0.1 kg grid", arguments: [29.9, 200.1, 72.55, 70.01, .nan])
    func badWeight(weight: Double) {
        do {
            _ = try make(weightKg: weight)
            Issue.record("accepted \(weight)")
        } catch {
            #expect(error.field == .weight)
            #expect(error.allowed == .steps(min: 30, max: 200, step: 0.1, digits: 1, unit: "kg"))
        }
    }

    @Test("deficit outside 0.10–0.35 is refused", arguments: [0.09, 0.36, 0.5])
    func badDeficit(deficit: Double) {
        #expect(throws: ValidationError.self) { try make(deficit: deficit) }
    }

    @Test("the study preset fixes the deficit at 0.33")
    func studyDeficit() throws {
        let profile = try Profile(
            sex: .male,
            age: 40,
            heightCm: 180,
            weightKg: 100,
            activityLevel: .light,
            goal: .lose,
            deficit: 0.2,
            cyclePreset: .study
        )
        #expect(profile.deficit == 0.33)
    }

    @Test("binary noise in a weight is removed")
    func weightNormalised() throws {
        #expect(try make(weightKg: 72.1 + 0.2).weightKg == 72.3)
    }

    @Test("the error message names field, range and value in English and German")
    func errorMessage() {
        let error = ValidationError(field: .weight, allowed: .steps(min: 30, max: 200, step: 0.1, digits: 1, unit: "kg"), received: "250")
        #expect(error.description == "Weight must be from 30.0 to 200.0 kg in steps of 0.1 kg; you entered 250.")
        #expect(Localizer(.de).render(error.message) == "Gewicht: erlaubt ist 30,0 bis 200,0 kg in Schritten von 0,1 kg; du hast 250 eingegeben.")
    }

    @Test("age follows the birth date when one is known")
    func ageFromBirthDate() throws {
        let profile = try Profile(
            sex: .female,
            age: 34,
            birthDate: .ymd(1992, 3, 15),
            heightCm: 168,
            weightKg: 72.5,
            activityLevel: .light,
            goal: .lose
        )
        #expect(profile.age(on: .ymd(2026, 3, 14)) == 33)
        #expect(profile.age(on: .ymd(2026, 3, 15)) == 34)
    }

    @Test("locked calories below the safety floor are refused")
    func lockedBelowFloor() {
        #expect(throws: ValidationError.self) {
            try Profile(
                sex: .male,
                age: 40,
                heightCm: 180,
                weightKg: 100,
                activityLevel: .light,
                goal: .lose,
                lockedGoals: [.deficit: LockedGoals(kcal: 1400, proteinG: 180, carbsG: 100, fatG: 60)]
            )
        }
    }

    @Test("JSON round trip keeps every field and decoding re-validates")
    func codable() throws {
        var profile = Profile.alice
        profile.lockedGoals = [.deficit: LockedGoals(kcal: 1500, proteinG: 140, carbsG: 120, fatG: 55)]
        let data = try JSONEncoder().encode(profile)
        #expect(try JSONDecoder().decode(Profile.self, from: data) == profile)
        let json = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"age\":34", with: "\"age\":12")
        #expect(throws: ValidationError.self) { try JSONDecoder().decode(Profile.self, from: Data(json.utf8)) }
    }
}

@Suite("Eating window")
struct EatingWindowTests {
    @Test("the default is 12:00–18:00, six hours, with three moments")
    func standard() {
        #expect(EatingWindow.standard.minutes == 360)
        #expect(EatingWindow.standard.moments == [.hm(12), .hm(15), .hm(18)])
        #expect(EatingWindow.standard.contains(.hm(18)))
        #expect(!EatingWindow.standard.contains(.hm(18, 1)))
        #expect(!EatingWindow.standard.contains(.hm(11, 59)))
    }

    @Test("a window may cross midnight")
    func acrossMidnight() throws {
        let window = try EatingWindow(start: .hm(20), end: .hm(2), moments: [.hm(20), .hm(23, 30), .hm(1)])
        #expect(window.minutes == 360)
        #expect(window.contains(.hm(0, 30)))
        #expect(!window.contains(.hm(12)))
    }

    @Test("one to five moments, or moments outside the window, are refused")
    func moments() {
        #expect(throws: ValidationError.self) { try EatingWindow(start: .hm(12), end: .hm(18), moments: [.hm(13)]) }
        #expect(throws: ValidationError.self) {
            try EatingWindow(start: .hm(12), end: .hm(18), moments: [.hm(12), .hm(13), .hm(14), .hm(15), .hm(16), .hm(17)])
        }
        #expect(throws: ValidationError.self) { try EatingWindow(start: .hm(12), end: .hm(18), moments: [.hm(12), .hm(19)]) }
        #expect(throws: ValidationError.self) { try EatingWindow(start: .hm(12), end: .hm(18), moments: [.hm(12), .hm(12)]) }
    }

    @Test("a window shorter than 1 h or longer than 16 h is refused")
    func length() {
        #expect(throws: ValidationError.self) { try EatingWindow(start: .hm(12), end: .hm(12, 30)) }
        #expect(throws: ValidationError.self) { try EatingWindow(start: .hm(6), end: .hm(23)) }
    }
}
