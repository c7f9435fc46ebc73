import DietCore
import DietStore
import DietWeb
import FoodKit
import Foundation
import TestSupport
import Testing

@Suite("Barcodes looked up online from the browser, against a fake Open Food Facts on loopback")
struct BarcodeLookupRouteTests {
    @Test(
        "a product Open Food Facts knows opens as a food of yours with the attribution, and is found offline next time",
        arguments: Language.allCases
    )
    func found(language: Language) async throws {
        let server = try FakeOpenFoodFacts()
        let harness = try WebHarness(environment: ["WDIET_OPEN_FOOD_FACTS_URL": server.baseURL.absoluteString])
        defer { harness.remove() }
        let store = try harness.store()
        try await harness.run { browser in
            try await browser.onboard(language: language)
            let found = try await browser.post("/barcode", [("code", "4006381333931")])
            let location = try #require(found.location)
            #expect(found.status == .seeOther && location.hasPrefix("/log/food/"))
            let page = try await browser.get(location)
            #expect(page.shows(Localizer(language).text("web.toast.food_from_off")) && page.missingStrings.isEmpty)
            #expect(try store.customFood(barcode: try Barcode("4006381333931")) != nil)
        }
    }

    @Test("each other outcome is worded in the user's language: unknown, incomplete, server error", arguments: Language.allCases)
    func outcomes(language: Language) async throws {
        let server = try FakeOpenFoodFacts()
        let l = Localizer(language)
        let harness = try WebHarness(environment: ["WDIET_OPEN_FOOD_FACTS_URL": server.baseURL.absoluteString])
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: language)
            let unknown = try await browser.post("/barcode", [("code", "0012345678905")])
            #expect(unknown.status == .notFound && unknown.shows(l.text("web.barcode.unknown", ["code": .text("0012345678905")])))
            #expect(unknown.body.contains("id=\"new-food\" open") && unknown.body.contains("value=\"0012345678905\""))
            let incomplete = try await browser.post("/barcode", [("code", "0036000291452")])
            #expect(incomplete.body.contains("Sparkling water") && incomplete.body.contains("id=\"new-food\" open"))
            #expect(incomplete.missingStrings.isEmpty)
        }
        let broken = try WebHarness(environment: ["WDIET_OPEN_FOOD_FACTS_URL": server.baseURL.appendingPathComponent("not-api").absoluteString])
        defer { broken.remove() }
        try await broken.run { browser in
            try await browser.onboard(language: language)
            let failed = try await browser.post("/barcode", [("code", "0012345678905")])
            #expect(failed.status == .badGateway && failed.shows(l.text("web.barcode.serverError", ["status": .integer(500)])))
        }
    }

    @Test("with WDIET_OFFLINE=1 the server is never asked: the code is not on this device")
    func offline() async throws {
        let server = try FakeOpenFoodFacts()
        let harness = try WebHarness(environment: ["WDIET_OFFLINE": "1", "WDIET_OPEN_FOOD_FACTS_URL": server.baseURL.absoluteString])
        defer { harness.remove() }
        let store = try harness.store()
        try await harness.run { browser in
            try await browser.onboard()
            let page = try await browser.post("/barcode", [("code", "4006381333931")])
            #expect(page.status == .notFound && page.shows(Localizer(.en).text("web.barcode.unknownHere", ["code": .text("4006381333931")])))
            #expect(try store.customFoods().isEmpty)
        }
    }
}
