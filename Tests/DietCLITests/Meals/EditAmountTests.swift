import DietCore
import Foundation
import Testing

@testable import DietCLI

/// Issue 29, finding 5: a meal from a food is changed by its amount, its values recomputed.
@Suite("wdiet edit meal --amount")
struct EditAmountTests {
    @Test(
        "60 g of oats become 80 g: calories and macros follow; a portion by its name; amount and calories together, or a meal of no food, are refused"
    )
    func editByAmount() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let saved = try await cli.run(["log", "meal", "--food", "8120", "--grams", "60"], now: "2026-01-05T08:00")
        let id = try #require(saved.firstMatch(of: /id ([0-9a-f]{8})/)?.output.1).description
        #expect(saved.contains("209 kcal"), "\(saved)")
        // 348 kcal per 100 g (BLS C133000): 80 g is 278 kcal
        #expect(try await cli.run(["edit", "meal", id, "--amount", "80", "--unit", "g"], now: "2026-01-05T08:05").hasSuffix("80 g, 278 kcal"))
        // the decimal comma, and the unit g by default
        #expect(try await cli.run(["edit", "meal", id, "--amount", "70,5"], now: "2026-01-05T08:06").hasSuffix("71 g, 245 kcal"))
        let portion = try await cli.run(["edit", "meal", id, "--amount", "2", "--unit", "Portion"], now: "2026-01-05T08:06", lang: "de")
        #expect(portion.hasSuffix("2 Portionen · 80 g, 278 kcal"), "\(portion)")
        // a portion by its German name: 1 Messbecher (a US cup of a solid) is 81 g, read where it
        // is typed, though a German screen shows the amount in grams (it offers no measuring cup)
        let cup = try await cli.run(["edit", "meal", id, "--amount", "1", "--unit", "Messbecher"], now: "2026-01-05T08:07", lang: "de")
        #expect(cup.hasSuffix(" 81 g, 282 kcal") && !cup.contains("Messbecher ·"), "\(cup)")
        #expect(
            await failure { try await cli.run(["edit", "meal", id, "--amount", "1", "--unit", "große"], now: "2026-01-05T08:08") }?
                .hasPrefix("No portion \"große\" for this food. Portions: g, cup, serving") == true
        )
        #expect(
            await failure { try await cli.run(["edit", "meal", id, "--amount", "80", "--kcal", "100"], now: "2026-01-05T08:08") }?
                .hasPrefix("Give either --amount") == true
        )
        #expect(
            await failure { try await cli.run(["edit", "meal", id, "--amount", "9000"], now: "2026-01-05T08:08") }?.contains("5,000 g") == true
        )
        let toast = try await cli.run(["log", "meal", "Toast", "--kcal", "200"], now: "2026-01-05T09:00")
        let toastID = try #require(toast.firstMatch(of: /id ([0-9a-f]{8})/)?.output.1).description
        #expect(
            await failure { try await cli.run(["edit", "meal", toastID, "--amount", "80"], now: "2026-01-05T09:01") }?
                .hasPrefix("This meal was not logged from a food") == true
        )
        let meals = try await cli.run(["meals"], now: "2026-01-05T10:00")
        #expect(meals.contains("282") && !meals.contains("209"), "\(meals)")
    }
}
