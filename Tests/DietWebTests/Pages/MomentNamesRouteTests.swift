import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

/// The eating moments carry names, by their time unless the user renamed them in settings,
/// beside each moment's time on the eating window page.
@Suite("Eating moments renamed in settings")
struct MomentNamesRouteTests {
    /// The window form of 12:00–18:00 with `moments` and `names` in their fields, by place.
    static func window(_ moments: [String], names: [String]) -> [(String, String)] {
        [("window_start", "12:00"), ("window_end", "18:00")] + moments.map { ("moment", $0) } + names.map { ("moment_name", $0) }
    }

    @Test("a moment renamed in settings is named so on the dashboard; a name stays with its place", arguments: Language.allCases)
    func rename(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(language)
        try await harness.run { browser in
            try await browser.onboard(language: language)
            // Given the window page: beside each moment a name field, labelled with its time,
            // empty, the name by its time as its placeholder
            let page = try await browser.get("/settings/window")
            #expect(page.body.components(separatedBy: #"name="moment_name""#).count == 6, "five name fields")
            #expect(page.shows(l.text("web.settings.momentName", ["time": .text("12:00")])))
            #expect(page.body.contains(#"placeholder="\#(escaped(l.text("moment.lunch")))" value="""#))
            #expect(page.body.contains(#"placeholder="\#(escaped(l.text("moment.dinner")))" value="""#))
            #expect(page.missingStrings.isEmpty, "\(page.missingStrings)")
            // When the 12:00 moment is renamed
            let saved = try await browser.post(
                "/settings/window",
                Self.window(["12:00", "15:00", "18:00", "", ""], names: ["Brunch", "", "", "", ""])
            )
            #expect(saved.status == .seeOther)
            // Then the dashboard names it so, and the others by their time
            let dashboard = try await browser.get("/")
            #expect(dashboard.shows("Brunch · 12:00"))
            #expect(dashboard.shows(l.text("moment.dinner") + " · 18:00"))
            #expect(try await browser.get("/settings/window").body.contains(#"value="Brunch""#))
            // A name stays with its moment when the moments come in another order, and its
            // time may change
            try await browser.post("/settings/window", Self.window(["15:00", "12:30", "18:00"], names: ["", "Brunch", "Abendbrot"]))
            let moved = try await browser.get("/")
            #expect(moved.shows("Brunch · 12:30") && moved.shows("Abendbrot · 18:00") && moved.shows(l.text("moment.afternoon") + " · 15:00"))
            // Fewer moments: the name of a moment left empty goes with it
            try await browser.post("/settings/window", Self.window(["12:30", "", "18:00"], names: ["Brunch", "Kaffee", "Abendbrot"]))
        }
        let window = try #require(try harness.store().settings()).profile.eatingWindow
        #expect(window.moments.map(\.formatted) == ["12:30", "18:00"])
        #expect(window.names == ["Brunch", "Abendbrot"])
    }

    @Test("a bad name gets the field's message in the user's language and nothing is saved", arguments: Language.allCases)
    func badNames(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(language)
        try await harness.run { browser in
            try await browser.onboard(language: language)
            try await browser.post("/settings/window", Self.window(["12:00", "15:00", "18:00"], names: ["Brunch"]))
            // When a name is too long, with a time changed beside it
            for bad in [String(repeating: "x", count: 31), String(repeating: "y", count: 5000)] {
                let page = try await browser.post("/settings/window", Self.window(["12:00", "15:30", "18:00"], names: ["Frühstück", bad, ""]))
                // Then the page says which field and why, in the user's language, and keeps what was typed
                #expect(page.status == .unprocessableContent)
                let message = l.render(ValidationError(field: .momentName, allowed: .length(min: 1, max: 30), received: "\(bad.count)").message)
                #expect(page.shows(message), "lacks «\(message)»")
                #expect(page.body.contains(#"value="\#(bad)" aria-invalid="true" aria-describedby="form-error""#))
                #expect(page.body.contains(#"value="15:30""#) && page.body.contains(#"value="Frühstück""#))
                #expect(page.body.contains("<html lang=\"\(language.rawValue)\">"))
                #expect(page.missingStrings.isEmpty, "\(page.missingStrings)")
            }
            // A control character is refused before the page's handler, naming the field
            let control = try await browser.post("/settings/window", Self.window(["12:00", "15:30", "18:00"], names: ["a\u{7}b"]))
            #expect(control.status == .unprocessableContent)
            let named = l.text(
                "web.error.control",
                [
                    "field": .text(l.text("field.momentName")), "allowed": .message(ValidationError.Allowed.noControlCharacters.message),
                    "received": .text(TextRules.quoted("a\u{7}b")),
                ]
            )
            #expect(control.shows(named), "lacks «\(named)»")
        }
        // Nothing of the refused forms was saved: not the name, not the time beside it
        let window = try #require(try harness.store().settings()).profile.eatingWindow
        #expect(window.moments.map(\.formatted) == ["12:00", "15:00", "18:00"])
        #expect(window.names == ["Brunch", nil, nil])
    }

    @Test("<script> is a name like any other, and every page shows it as text")
    func markupIsText() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let saved = try await browser.post("/settings/window", Self.window(["12:00", "15:00", "18:00"], names: ["<script>", "", ""]))
            #expect(saved.status == .seeOther)
            let dashboard = try await browser.get("/")
            #expect(dashboard.body.contains("&lt;script&gt; · 12:00"))
            #expect(!dashboard.body.contains("<script> ·"))
            let form = try await browser.get("/settings/window")
            #expect(form.body.contains(#"value="&lt;script&gt;""#))
            #expect(!form.body.contains("value=\"<script>"))
        }
        #expect(try #require(try harness.store().settings()).profile.eatingWindow.names == ["<script>", nil, nil])
    }

    @Test("onboarding's window step has no name fields and saves the window without names")
    func onboarding() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            var fields: [(String, String)] = [("language", "en")]
            let steps: [(String, [(String, String)])] = [
                ("welcome", []), ("sex", [("sex", "female")]), ("age", [("age", "35")]), ("height", [("height", "168")]),
                ("weight", [("weight", "70")]), ("activity", [("activity", "light")]), ("goal", [("goal", "lose")]),
                ("goal_weight", []),
            ]
            var page = try await browser.get("/onboarding")
            for (step, answers) in steps {
                fields += answers
                page = try await browser.post("/onboarding", fields + [("step", step), ("action", "next")])
            }
            #expect(page.body.contains(#"name="moment""#) && !page.body.contains("moment_name"))
            fields += [("window_start", "12:00"), ("window_end", "18:00"), ("moment", "12:00"), ("moment", "15:00"), ("moment", "18:00")]
            let done = try await browser.post("/onboarding", fields + [("step", "eating_window"), ("action", "next")])
            #expect(done.status == .seeOther)
        }
        let window = try #require(try harness.store().settings()).profile.eatingWindow
        #expect(window.moments.map(\.formatted) == ["12:00", "15:00", "18:00"] && window.names.isEmpty)
    }
}
