import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

/// Issue 29: the food data's sources with the attribution BLS 4.0's licence (CC BY 4.0) asks for.
@Suite("The about page names the food data's sources")
struct AboutPageTests {
    @Test("in German, before and after onboarding, the about page gives BLS 4.0's attribution, licence and link, and the USDA's")
    func attribution() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            for onboarded in [false, true] {
                if onboarded { try await browser.onboard(language: .de) }
                let page = try await browser.get("/about")
                #expect(page.status == .ok)
                #expect(page.body.contains("Max Rubner-Institut (2025): Bundeslebensmittelschlüssel (BLS), Version 4.0"))
                #expect(page.body.contains("DOI: 10.25826/Data20251217-134202-0"))
                #expect(page.body.contains("CC BY 4.0") && page.body.contains(#"href="https://blsdb.de/download""#))
                #expect(page.body.contains("USDA National Nutrient Database for Standard Reference, Release 24"))
                // a source without a page (the project's dishes) shows no empty link
                #expect(!page.body.contains(#"<a href="" "#))
                if onboarded {
                    #expect(page.body.contains("7.140 Lebensmittel"), "\(page.body)")
                    let settings = try await browser.get("/settings")
                    #expect(settings.body.contains(#"href="/about""#))
                }
            }
        }
    }
}
