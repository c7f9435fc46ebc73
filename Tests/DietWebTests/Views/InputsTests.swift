import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

/// The controls of issue 16: the weight wheel beside the typeable weight field, and 24-hour
/// time fields whatever the device's locale.
@Suite("Weight wheel and 24-hour time fields")
struct InputsTests {
    @Test("the weight page carries the wheel next to the unchanged, labelled field, which still takes a German comma")
    func weightWheel() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            // Given a German user on the weight page
            try await browser.onboard(language: .de)
            let page = try await browser.get("/weight")
            // Then the field is unchanged: labelled, typeable text with the decimal keyboard
            let body = page.body
            let field = try #require(body.range(of: #"id="weight-kg" name="weight" type="text" inputmode="decimal""#), "the field is unchanged")
            #expect(body.contains(#"<label class="field" for="weight-kg">"#))
            // and the wheel follows it, hidden from assistive technology, before the save button
            let wheel = try #require(
                body.range(of: #"<div class="weight-wheel" data-weight-wheel data-for="weight-kg" data-min="30" data-max="200" aria-hidden="true""#)
            )
            let save = try #require(body.range(of: #"<button class="button button-primary" type="submit">"#))
            #expect(field.upperBound < wheel.lowerBound && wheel.upperBound < save.lowerBound)
            #expect(
                body.contains(#"data-wheel-kg tabindex="-1""#) && body.contains(#"data-wheel-tenth tabindex="-1""#),
                "no focus stop inside aria-hidden"
            )
            // When "92,1" is typed and saved
            let saved = try await browser.post("/weight", [("weight", "92,1")])
            // Then 92.1 kg is the day's weight
            #expect(saved.status == .seeOther)
            let today = LocalDate(harness.clock.now(), in: harness.timeZone)
            #expect(try harness.store().weights(from: today, through: today).map(\.kg) == [92.1])
        }
    }

    @Test(
        "time fields are 24-hour text fields in every language, never a type=time that follows the device; a posted 07:30 still saves",
        arguments: Language.allCases
    )
    func timeFields(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            // Given a user with a meal at 19:45
            try await browser.onboard(language: language)
            let posted = try await browser.post("/log/manual", [("name", "Abendbrot"), ("kcal", "600"), ("time", "19:45")])
            #expect(posted.status == .seeOther)
            let meals = try await browser.get("/meals")
            let mealID = try #require(meals.first(#"href="/meals/([0-9A-F-]{36})""#))
            #expect(meals.body.contains("19:45"), "the meal list shows 19:45")
            let search = try await browser.get("/log?q=" + Browser.encode(language == .de ? "hähn" : language == .es ? "pollo" : "chicken"))
            let foodID = try #require(search.first(#"href="/log/food/(\d+)""#))
            // When every page with a time field opens
            for path in ["/log", "/log/food/\(foodID)", "/meals/\(mealID)", "/settings/window"] {
                let page = try await browser.get(path)
                // Then no field is a device-formatted type=time; each is a 24-hour text field
                #expect(!page.body.contains(#"type="time""#), "\(language) \(path)")
                let fields = page.all(#"<input [^>]*name="(?:time|moment)"[^>]*>"#, groups: 0).map { $0[0] }
                #expect(!fields.isEmpty, "\(path) has time fields")
                for field in fields {
                    #expect(
                        field.contains(#"type="text" inputmode="numeric""#) && field.contains("data-time-input")
                            && field.contains(#"pattern="([01]?[0-9]|2[0-3]):[0-5][0-9]""#) && field.contains(#"placeholder="HH:MM""#),
                        "\(path): \(field)"
                    )
                    let value = field.range(of: #"value="([^"]*)""#, options: .regularExpression).map { String(field[$0]) } ?? ""
                    #expect(
                        value == #"value="""# || value.range(of: #"^value="([01][0-9]|2[0-3]):[0-5][0-9]"$"#, options: .regularExpression) != nil,
                        "\(path): \(value)"
                    )
                }
            }
            #expect(try await browser.get("/meals/\(mealID)").body.contains(#"value="19:45""#))
            // and a time typed as 07:30 is saved as 07:30
            try await browser.post("/log/manual", [("name", "Porridge"), ("kcal", "350"), ("time", "07:30")])
            let today = LocalDate(harness.clock.now(), in: harness.timeZone)
            let times = try harness.store().meals(on: today).map(\.entry.localTime.formatted)
            #expect(times.sorted() == ["07:30", "19:45"], "\(times)")
        }
    }
}
