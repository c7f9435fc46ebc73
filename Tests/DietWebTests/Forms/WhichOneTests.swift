import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

/// Issue 29: no food is chosen in silence. The confirm screen of a meal in words asks "which
/// one?" where the words name several foods alike; another food chosen there keeps the grams.
@Suite("Meal in words: which one?")
struct WhichOneTests {
    @Test("'200 g Kartoffelsalat' names two foods alike: the confirm screen asks which, with both to choose; a sure item is not asked about")
    func asksWhichOne() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(.de)
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            // the northern one with mayonnaise and the Swabian one with broth
            let confirm = try await browser.post("/log/text", [("text", "200 g Kartoffelsalat und 1 Apfel")])
            #expect(confirm.status == .ok)
            #expect(confirm.shows(l.text("web.text.whichOne", ["typed": .text("200 g Kartoffelsalat")])), "\(confirm.body)")
            #expect(confirm.body.contains(#"<option value="11414""#) && confirm.body.contains(#"<option value="95010""#))
            #expect(!confirm.shows(l.text("web.text.whichOne", ["typed": .text("1 Apfel")])))
        }
    }

    @Test("another food chosen on the confirm screen keeps the grams of the unit the first one had")
    func otherFoodKeepsGrams() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let apple = try #require(try harness.store().food(id: "9003", language: .de))
        let large = try #require(apple.householdPortions.firstIndex { $0.name == "große" })
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            // the apple's unit "große" (223 g) sent with the pear chosen instead
            let page = try await browser.post(
                "/log/text",
                [
                    ("text", "1 großer Apfel"), ("items[i0][query]", "Apfel"), ("items[i0][typed]", "1 großer Apfel"),
                    ("items[i0][food]", "9252"), ("items[i0][amount]", "1"), ("items[i0][unit]", "p\(large)"),
                    ("items[i0][unitFood]", "9003"),
                ]
            )
            #expect(page.status == .ok)
            #expect(page.body.contains(#"value="223""#), "\(page.body)")
            #expect(page.body.contains(#"<option value="g" selected>"#))
        }
    }
}
