import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

@Suite("Today's meals on the dashboard and in the list")
struct TodayMealsTests {
    @Test("a meal without all three macros shows its own values, never internal data", arguments: Language.allCases)
    func partialMacros(language: Language) async throws {
        // Given an onboarded app and a meal with calories and protein only
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: language)
            try await browser.post("/log/manual", [("name", "Skyr"), ("kcal", "150"), ("protein", "16,5")])
            // When today's meals are shown on the list and on the dashboard
            for path in ["/meals", "/"] {
                let page = try await browser.get(path)
                // Then the meal is there and no template data leaks into its row
                #expect(page.body.contains("Skyr"), "\(path)")
                #expect(!page.body.contains("&quot;bar&quot;") && !page.body.contains("&quot;spoken&quot;"), "\(path): \(page.body)")
                #expect(!page.body.contains("[&quot;"), "\(path)")
            }
        }
    }
}
