import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

/// Issue 30: "the confirm screen shows 65 g carbs and the saved entry 66 g".
@Suite("A meal in words: the confirm screen and the saved meal round alike")
struct ConfirmRoundingTests {
    @Test("for 1–60 g of rice, the macros confirmed are the macros saved")
    func sameNumbers() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(.en)
        try await harness.run { browser in
            try await browser.onboard()
            let store = try harness.store()
            var compared = 0
            for grams in stride(from: 1, through: 60, by: 1) {
                let text = "\(grams) g rice"
                let confirm = try await browser.post("/log/text", [("text", text)])
                let saved = try await browser.post("/log/text", [("text", text), ("confirm", "yes")])
                #expect(saved.status == .seeOther, "\(text)")
                let meal = try #require(try store.meals(on: LocalDate(WebHarness.now, in: harness.timeZone)).last)
                let shown = l.text(
                    "web.food.macros",
                    [
                        "protein": .decimal(meal.entry.proteinG ?? 0, digits: 0), "carbs": .decimal(meal.entry.carbsG ?? 0, digits: 0),
                        "fat": .decimal(meal.entry.fatG ?? 0, digits: 0),
                    ]
                )
                #expect(confirm.body.contains(shown), "\(text): saved \(shown)")
                compared += 1
            }
            #expect(compared == 60)
        }
    }
}
