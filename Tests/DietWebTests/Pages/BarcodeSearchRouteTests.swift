import DietCore
import DietStore
import DietWeb
import FoodKit
import Foundation
import TestSupport
import Testing

/// Issue 30, finding 9: a barcode works from the main search and from the log screen, and a
/// code nobody knows yet offers "add this product" without any error shown.
@Suite("Barcodes from the main search and the log screen; an unknown code is no error")
struct BarcodeSearchRouteTests {
    /// What marks a form as wrong: a red field, the form's red line, a field's message.
    static func errorMarkup(in body: String) -> [String] {
        ["is-invalid", "form-error", "field-error", "aria-invalid"].filter { body.contains($0) }
    }

    @Test(
        "the digits of a barcode typed into the search find your food with it, spaces and all, as you type and on the log page",
        arguments: Language.allCases
    )
    func ownFood(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(language)
        try await harness.run { browser in
            try await browser.onboard(language: language)
            // Given a food of your own with a barcode
            let saved = try await browser.post("/foods", [("name", "Müsliriegel"), ("kcal", "389"), ("barcode", "4006381333931")])
            let location = try #require(saved.location)
            #expect(saved.status == .seeOther && location.hasPrefix("/log/food/"))
            // When its digits are typed into the search (as you type, and sent without scripts)
            for path in ["/foods/search?q=4006381333931", "/log?q=" + Browser.encode(" 4006 3813 33931 ")] {
                let page = try await browser.get(path)
                // Then the one result is that food, linked like any other
                #expect(page.status == .ok, "\(path)")
                #expect(page.body.contains("<a class=\"result\" href=\"\(location)\">"), "\(path): \(page.body.prefix(1500))")
                #expect(page.shows("Müsliriegel") && page.shows(l.text("web.search.count", ["count": .integer(1)])), "\(path)")
                #expect(!page.body.contains("barcode-lookup") && !page.shows(l.text("web.search.none")), "\(path)")
                #expect(page.missingStrings.isEmpty, "\(path): \(page.missingStrings)")
            }
        }
    }

    @Test("a barcode none of your foods has is offered for lookup, a form to /barcode with the code", arguments: Language.allCases)
    func lookupOffered(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(language)
        try await harness.run { browser in
            try await browser.onboard(language: language)
            for (path, isFragment) in [("/foods/search?q=0012345678905", true), ("/log?q=0012345678905", false)] {
                let page = try await browser.get(path)
                #expect(page.status == .ok && page.body.contains("<html") != isFragment, "\(path)")
                let offer = try #require(page.first(#"(<form class="barcode-lookup"[\s\S]*?</form>)"#), "\(path): \(page.body.prefix(1500))")
                #expect(offer.contains("method=\"post\" action=\"/barcode\""), "\(offer)")
                #expect(offer.contains("name=\"code\" value=\"0012345678905\""), "\(offer)")
                #expect(offer.contains("name=\"_csrf\" value=\"\(browser.csrf)\""), "\(offer)")
                #expect(offer.contains(escaped(l.text("web.search.barcode.lookup", ["code": .text("0012345678905")]))), "\(offer)")
                #expect(page.shows(l.text("web.search.barcode.notYours")) && !page.shows(l.text("web.search.none")), "\(path)")
                #expect(page.missingStrings.isEmpty, "\(path): \(page.missingStrings)")
            }
            // and the offer's form looks the code up (offline here: the calm add-it page)
            let looked = try await browser.post("/barcode", [("code", "0012345678905")])
            #expect(looked.status == .notFound && looked.body.contains("id=\"new-food\" open"))
            #expect(Self.errorMarkup(in: looked.body) == [])
        }
    }

    @Test("digits with a wrong check digit say so plainly instead of finding nothing; other words are searched as before")
    func wrongCheckDigit() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(.de)
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            let hint = l.text("web.search.barcode.checkDigit", ["expected": .integer(1), "got": .integer(2)])
            for path in ["/foods/search?q=4006381333932", "/log?q=" + Browser.encode("4006 3813 33932")] {
                let page = try await browser.get(path)
                #expect(page.status == .ok && page.shows(hint), "\(path): \(page.body.prefix(1500))")
                #expect(!page.body.contains("barcode-lookup") && !page.body.contains("result-list"), "\(path)")
            }
            // fewer digits than a barcode's are a name like any other
            let words = try await browser.get("/foods/search?q=1234567")
            #expect(words.status == .ok && !words.shows(hint) && !words.body.contains("barcode-lookup"))
            let chicken = try await browser.get("/foods/search?q=h%C3%A4hn")
            #expect(chicken.body.contains("Hähnchenbrust"))
        }
    }

    @Test("the log screen has the camera's scan button, in a small form to /barcode as on the foods page", arguments: Language.allCases)
    func scanOnLog(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: language)
            let page = try await browser.get("/log")
            let form = try #require(page.first(#"(<form class="barcode-scan"[\s\S]*?</form>)"#), "\(page.body.prefix(2000))")
            #expect(form.contains("method=\"post\" action=\"/barcode\"") && form.contains("name=\"_csrf\" value=\"\(browser.csrf)\""))
            #expect(form.contains("name=\"code\""))
            // what bindBarcode looks for, once on the page
            for marker in ["data-barcode-scan", "data-barcode-video", "data-barcode-status"] {
                #expect(form.contains(marker), "\(marker)")
                #expect(page.body.components(separatedBy: marker).count == 2, "\(marker)")
            }
            #expect(page.shows(Localizer(language).text("web.barcode.scan")) && page.missingStrings.isEmpty)
            // the code a scan puts in that form is looked up
            let found = try await browser.post("/foods", [("name", "Riegel"), ("kcal", "400"), ("barcode", "4006381333931")])
            #expect(try await browser.post("/barcode", [("code", "4006381333931")]).location == found.location)
        }
    }

    @Test(
        "an unknown code opens the new-food form with the code and a calm notice, no error; errors come once that form is sent",
        arguments: Language.allCases
    )
    func unknownIsNoError(language: Language) async throws {
        let server = try FakeOpenFoodFacts()
        let l = Localizer(language)
        let harness = try WebHarness(environment: ["WDIET_OPEN_FOOD_FACTS_URL": server.baseURL.absoluteString])
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: language)
            // Open Food Facts does not know it
            let unknown = try await browser.post("/barcode", [("code", "0012345678905")])
            #expect(unknown.status == .notFound && unknown.shows(l.text("web.barcode.unknown", ["code": .text("0012345678905")])))
            #expect(unknown.body.contains("id=\"new-food\" open"))
            #expect(unknown.body.contains("name=\"barcode\" type=\"text\" inputmode=\"numeric\" autocomplete=\"off\" value=\"0012345678905\""))
            #expect(unknown.body.contains("<div class=\"notice\" role=\"status\">") && unknown.shows(l.text("web.barcode.add")))
            #expect(Self.errorMarkup(in: unknown.body) == [], "\(unknown.body)")
            #expect(unknown.missingStrings.isEmpty)
            // it knows the product but not its calories: the name filled in, still no error
            let incomplete = try await browser.post("/barcode", [("code", "0036000291452")])
            #expect(incomplete.body.contains("Sparkling water") && incomplete.body.contains("id=\"new-food\" open"))
            #expect(Self.errorMarkup(in: incomplete.body) == [], "\(incomplete.body)")
            // When the form is sent without its calories, then it says what to fix
            let sent = try await browser.post("/foods", [("name", "Tomato soup"), ("kcal", ""), ("barcode", "0012345678905")])
            #expect(sent.status == .unprocessableContent && sent.body.contains("class=\"form-error\"") && sent.body.contains("is-invalid"))
        }
        withExtendedLifetime(server) {}
    }

    @Test("without a connection to Open Food Facts the page says so plainly and offers to add the product by hand", arguments: Language.allCases)
    func unreachable(language: Language) async throws {
        let l = Localizer(language)
        // nothing listens on loopback's port 1: the connection is refused at once
        let harness = try WebHarness(environment: ["WDIET_OPEN_FOOD_FACTS_URL": "http://127.0.0.1:1"])
        defer { harness.remove() }
        let store = try harness.store()
        try await harness.run { browser in
            try await browser.onboard(language: language)
            let page = try await browser.post("/barcode", [("code", "4006381333931")])
            #expect(page.status == .notFound && page.shows(l.text("web.barcode.unreachable", ["code": .text("4006381333931")])), "\(page.body)")
            #expect(!page.shows(l.text("web.barcode.unknownHere", ["code": .text("4006381333931")])))
            #expect(page.body.contains("id=\"new-food\" open") && page.body.contains("value=\"4006381333931\""))
            #expect(Self.errorMarkup(in: page.body) == [], "\(page.body)")
            #expect(try store.customFoods().isEmpty)
        }
    }
}
