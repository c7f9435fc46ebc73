import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

/// Issue 29, finding 5: an entry made from a food is edited by amount and unit in the web app.
@Suite("Editing a meal from a food by its amount")
struct EditAmountRouteTests {
    @Test("60 g of oats edited to 80 g: the page offers amount and unit, the values are recomputed; a portion by id; the values form on request")
    func editByAmount() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let day = LocalDate(WebHarness.now, in: harness.timeZone)
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            try await browser.post("/log/food/8120", [("amount", "60"), ("unit", "g"), ("time", "08:00")])
            let meal = try #require(try harness.store().meals(on: day).first)
            #expect(meal.entry.kcal == 209)
            let page = try await browser.get("/meals/\(meal.id.uuidString)")
            #expect(page.body.contains(#"name="amount""#) && page.body.contains(#"value="60""#), "\(page.body)")
            // a German screen offers the Portion by its id, no US measuring cup (p0, 81 g)
            #expect(page.body.contains(#"<option value="p1" data-grams="40.0">1 Portion ≈ 40 g</option>"#), "\(page.body)")
            #expect(!page.body.contains("Messbecher") && !page.body.contains(#"value="p0""#))
            #expect(!page.body.contains(#"name="kcal""#))
            // 80 g: 348 kcal per 100 g (BLS C133000) makes 278 kcal; name, time and day stay
            let saved = try await browser.post(
                "/meals/\(meal.id.uuidString)",
                [("name", meal.entry.name), ("amount", "80"), ("unit", "g"), ("time", "08:00")]
            )
            #expect(saved.status == .seeOther)
            var edited = try #require(try harness.store().meal(meal.id))
            #expect(edited.entry.kcal == 278 && edited.entry.localTime == meal.entry.localTime && edited.entry.localDate == day)
            #expect(try harness.store().lastGrams(of: "8120") == 80)
            // three and a half portions by the unit's id, with the decimal comma: 140 g
            try await browser.post("/meals/\(meal.id.uuidString)", [("name", meal.entry.name), ("amount", "3,5"), ("unit", "p1"), ("time", "08:00")])
            edited = try #require(try harness.store().meal(meal.id))
            #expect(edited.entry.kcal == 487, "\(edited.entry.kcal)")
            #expect(try harness.store().lastGrams(of: "8120") == 140)
            // bad amounts are explained and change nothing
            for amount in ["", "0", "abc", "99999"] {
                let bad = try await browser.post("/meals/\(meal.id.uuidString)", [("name", meal.entry.name), ("amount", amount), ("unit", "g")])
                #expect(bad.status == .unprocessableContent, "amount \(amount)")
            }
            let refused = try await browser.post("/meals/\(meal.id.uuidString)", [("name", meal.entry.name), ("amount", "1"), ("unit", "Tasse")])
            #expect(refused.status == .unprocessableContent)
            #expect(try harness.store().meal(meal.id)?.entry.kcal == 487)
            // the values form when asked for
            let values = try await browser.get("/meals/\(meal.id.uuidString)?values=1")
            #expect(values.body.contains(#"name="kcal""#) && values.body.contains(#"value="487""#))
            // a meal typed by hand has no amount: its values form
            try await browser.post("/log/manual", [("name", "Toast"), ("kcal", "200")])
            let toast = try #require(try harness.store().meals(on: day).first { $0.entry.name == "Toast" })
            let toastPage = try await browser.get("/meals/\(toast.id.uuidString)")
            #expect(toastPage.body.contains(#"name="kcal""#) && !toastPage.body.contains(#"name="amount""#))
        }
    }
}
