import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

@Suite("Every page, in every language")
struct PageRouteTests {
    @Test("each page renders in the profile's language with every string resolved", arguments: Language.allCases)
    func pages(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(language)
        try await harness.run { browser in
            try await browser.onboard(language: language)
            let search = try await browser.get("/log?q=" + Browser.encode(language == .de ? "hähn" : language == .es ? "pollo" : "chicken"))
            let foodID = try #require(search.first(#"href="/log/food/(\d+)""#), "no result in \(search.body.prefix(2000))")
            try await browser.post("/log/manual", [("name", "Toast"), ("kcal", "250"), ("protein", "8"), ("carbs", "40"), ("fat", "6")])
            let meals = try await browser.get("/meals")
            let mealID = try #require(meals.first(#"href="/meals/([0-9A-F-]{36})""#))
            let pages: [(String, String)] = [
                ("/", "web.log.button"), ("/explain", "explain.bmr.title"), ("/log", "web.quick.title"),
                ("/log/food/\(foodID)", "web.portion.amount"),
                ("/meals", "web.meals.addAnother"), ("/meals/\(mealID)", "web.meals.editTitle"), ("/weight", "web.weight.title"),
                ("/progress", "web.progress.intakeTitle"), ("/learn", "web.learn.title"), ("/learn/matador-study", "education.matador-study.title"),
                ("/briefing", "web.briefing.empty.title"), ("/settings", "web.settings.plan"), ("/settings/window", "web.window.moments"),
                ("/import", "web.import.hint"),
            ]
            for (path, key) in pages {
                let page = try await browser.get(path)
                #expect(page.status == .ok, "\(path)")
                #expect(page.body.contains("<html lang=\"\(language.rawValue)\">"), "\(path)")
                #expect(l.hasKey(key), "\(key) missing in \(language)")
                #expect(page.shows(l.text(key)), "\(path) lacks \(key)")
                #expect(page.missingStrings.isEmpty, "\(path): \(page.missingStrings)")
                #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            }
            let fragment = try await browser.get("/foods/search?q=" + Browser.encode("xqzzy"))
            #expect(fragment.shows(l.text("web.search.none")) && fragment.shows(l.text("web.search.tryManual")))
            #expect(!fragment.body.contains("<html"))
        }
    }

    @Test("search as you type: 'hähn' finds chicken breast in German, results announced")
    func searchFragment() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard(language: .de)
            let page = try await browser.get("/foods/search?q=h%C3%A4hn")
            #expect(page.status == .ok)
            #expect(page.body.contains("Hähnchenbrust"), "\(page.body.prefix(1500))")
            #expect(page.body.contains("role=\"status\""))
            #expect(page.body.contains("Ergebnisse") || page.body.contains("Ergebnis"))
        }
    }

    @Test("pages before onboarding send the user to onboarding")
    func beforeOnboarding() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            for path in ["/", "/log", "/meals", "/weight", "/progress", "/settings", "/settings/window"] {
                let page = try await browser.get(path)
                #expect(page.status == .seeOther && page.location == "/onboarding", "\(path)")
            }
            // learn and import work without a profile (import restores one)
            #expect(try await browser.get("/learn").status == .ok)
            #expect(try await browser.get("/import").status == .ok)
        }
    }

    @Test("unknown pages, foods and meals are 404s with a message")
    func notFound() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let nowhere = try await browser.get("/nowhere")
            #expect(nowhere.status == .notFound)
            #expect(nowhere.shows(Localizer(.en).text("web.error.home")) && nowhere.body.contains("href=\"/\""), "a page with a way home")
            #expect(try await browser.get("/log/food/99999999").status == .notFound)
            let meal = try await browser.get("/meals/\(UUID().uuidString)")
            #expect(meal.status == .notFound && meal.body.contains(Localizer(.en).text("web.error.mealNotFound")))
            #expect(try await browser.get("/learn/astrology").status == .notFound)
        }
    }

    @Test("assets are served with their types and cached; the dashboard links them versioned")
    func assets() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            let css = try await browser.get("/assets/app.css")
            #expect(css.status == .ok && css.headers[.contentType] == "text/css; charset=utf-8")
            #expect(css.headers[.cacheControl]?.contains("immutable") == true)
            let js = try await browser.get("/assets/app.js")
            #expect(js.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(try await browser.get("/assets/../Package.swift").status == .notFound)
            let page = try await browser.get("/onboarding")
            #expect(page.body.contains("/assets/app.css?v="))
            #expect(!page.body.contains("http://") && !page.body.contains("https://"), "everything is served locally")
        }
    }
}
