import AsyncHTTPClient
import DietCore
import DietStore
import DietWeb
import FoodKit
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing

/// What the web app takes in and shows: no form field may carry a control character, stored
/// ones are shown visibly, a meal in words has limits, and HEAD answers like GET.
@Suite("Web input and output boundaries")
struct WebInputBoundaryTests {
    static func count(_ table: String, _ harness: WebHarness) throws -> Int {
        try DatabaseQueue(path: harness.databasePath).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }

    @Test("a manual meal named a%00b is refused naming the meal name; nothing is saved or queued")
    func nulInMealName() async throws {
        // Given an onboarded app
        let harness = try WebHarness()
        defer { harness.remove() }
        let outbox = try await harness.run { browser in
            try await browser.onboard()
            let outbox = try Self.count("sync_outbox", harness)
            // When the form's name holds a NUL
            let page = try await browser.post("/log/manual", [("name", "a\u{0}b"), ("kcal", "400")])
            // Then it is refused with the field, the rule and the value made visible
            #expect(page.status == .unprocessableContent)
            #expect(page.shows("Meal name must be text without control characters (tab and line break are fine); got \"a\\u0000b\"."))
            #expect(page.body.contains("\u{0}") == false)
            return outbox
        }
        // And nothing was saved or queued for sync
        #expect(try Self.count("meal_logs", harness) == 0)
        #expect(try Self.count("sync_outbox", harness) == outbox)
    }

    @Test(
        "every form field is checked, whatever the page",
        arguments: [
            ("/log/manual", [("name", "Cake"), ("kcal", "400"), ("time", "12:00\u{1B}")], "Time"),
            ("/log/text", [("text", "2 eggs\u{1B}[2J")], "Meal in words"),
            ("/weight", [("weight", "70\u{7F}")], "Weight"),
            ("/settings/account/signin", [("server", "http://127.0.0.1:9"), ("email", "a@example.org"), ("password", "se\u{0}cret")], "Password"),
            ("/briefing/calendars", [("url", "https://example.org/\u{85}.ics")], "Calendar address"),
            ("/settings/profile", [("age", "35"), ("unknown\u{1B}", "x")], "The field “unknown\\u001B”"),
        ]
    )
    func everyField(path: String, fields: [(String, String)], label: String) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let page = try await browser.post(path, fields)
            #expect(page.status == .unprocessableContent, "\(path)")
            #expect(page.shows(label + " must be text without control characters"), "\(page.body.prefix(2000))")
            #expect(TextRules.forbiddenControlCharacter(in: page.body) == nil)
            // a password is never shown back
            #expect(!page.body.contains("se\\u0000cret"))
        }
        #expect(try Self.count("meal_logs", harness) == 0)
    }

    @Test("an uploaded file whose name holds a control character is refused")
    func fileName() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let page = try await browser.upload("/import", file: Data("{}".utf8), filename: "export\u{1B}[2J.json")
            #expect(page.status == .unprocessableContent)
            #expect(page.shows("File name must be text without control characters"))
        }
    }

    @Test("a textarea's CRLF line breaks are line breaks, not control characters")
    func crlf() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let page = try await browser.post("/log/text", [("text", "2 eggs\r\n1 slice of toast")])
            #expect(page.status == .ok)
            #expect(page.shows(Localizer(.en).text("web.text.log", ["count": .integer(2)])))
        }
    }

    @Test("a meal name with an escape sequence in the store is shown visibly, never raw, on every page that lists it")
    func storedEscapes() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try await browser.post("/log/manual", [("name", "Soup"), ("kcal", "300")])
            try await DatabaseQueue(path: harness.databasePath).write { db in
                try db.execute(sql: "UPDATE meal_logs SET name = ?", arguments: ["<b>Soup</b>\u{1B}[2J\u{9B}"])
            }
            let id = try #require(try harness.store().meals(on: LocalDate(WebHarness.now, in: harness.timeZone)).first?.id)
            for path in ["/meals", "/meals/\(id.uuidString)"] {
                let page = try await browser.get(path)
                #expect(page.status == .ok)
                #expect(TextRules.forbiddenControlCharacter(in: page.body) == nil, "\(path)")
                #expect(page.shows("<b>Soup</b>\\u001B[2J\\u009B"), "\(path)")
            }
        }
    }

    @Test(
        "a meal in words beyond the limits is refused on the form with the limit; nothing is logged",
        arguments: [
            String(repeating: "egg, ", count: 200) + "toast", Array(repeating: "egg", count: 31).joined(separator: ", "), "10000 eggs",
        ]
    )
    func textLimits(text: String) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        // the message is the domain's, in the user's words (field, limit, what was received)
        var expected = ""
        do throws(ValidationError) { _ = try MealTextParser.checkedParse(text) } catch { expected = Localizer(.en).render(error.message) }
        #expect(!expected.isEmpty)
        try await harness.run { [expected] browser in
            try await browser.onboard()
            for fields in [[("text", text)], [("text", text), ("confirm", "yes")]] {
                let page = try await browser.post("/log/text", fields)
                #expect(page.status == .unprocessableContent)
                #expect(page.shows(expected), "\(page.body.prefix(3000))")
            }
        }
        #expect(try Self.count("meal_logs", harness) == 0)
    }

    @Test("confirming a meal in words whose food is over 9,999 kcal re-shows the form with the calories rule; nothing is logged")
    func textOverCalories() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let page = try await browser.post("/log/text", [("text", "5 kg butter"), ("confirm", "yes")])
            #expect(page.status == .unprocessableContent)
            let rule = Localizer(.en).render(
                ValidationError(
                    field: .calories,
                    allowed: .range(min: 1, max: 9999, digits: 0, unit: "kcal"),
                    received: "§"
                ).message
            ).components(separatedBy: "§")[0]
            #expect(page.shows(rule), "\(page.body.prefix(3000))")
        }
        #expect(try Self.count("meal_logs", harness) == 0)
    }

    @Test("HEAD on a page, an asset and a missing page answers like GET, without a body")
    func head() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let application = Application(router: harness.app.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await application.test(.live) { client in
            let port = try #require(client.port)
            try await withHTTPClient { http in
                for path in ["/no-such-page", "/onboarding", "/assets/app.css", "/learn"] {
                    let get = try await http.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(10))
                    var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
                    request.method = .HEAD
                    let head = try await http.execute(request, timeout: .seconds(10))
                    let body = try await head.body.collect(upTo: 1 << 20)
                    #expect(head.status == get.status, "\(path)")
                    #expect(head.headers["Content-Type"] == get.headers["Content-Type"], "\(path)")
                    #expect(body.readableBytes == 0, "\(path)")
                }
            }
        }
    }
}
