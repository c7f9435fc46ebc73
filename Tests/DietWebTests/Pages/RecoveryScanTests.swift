import DietCore
import DietStore
import DietWeb
import FoodKit
import Foundation
import Hummingbird
import Testing

/// THE SCAN (docs/rules.md §8): with recovery mode on, no GET route of the web app shows a
/// digit string of a hidden quantity: the seeded meals' calories and grams, the weights, the
/// targets, the streak count, the points. The routes come from the router itself; a GET route
/// the scan does not know fails the test until it is listed here.
@Suite("Recovery mode: the scan over every GET route")
struct RecoveryScanTests {
    /// Routes that hold nothing of the user's: the same static files for everyone, the
    /// live-update stream (store versions only, and it never ends), and the about page (the
    /// bundled food data's sources with their food counts, the same for every user: "43 foods"
    /// of the project's dishes is no 43 g of protein).
    static let unscanned: Set<String> = ["/assets/{name}", "/favicon.ico", "/sw.js", "/events", "/about"]

    @Test("with recovery mode on, no GET route shows a calorie, gram, weight, target, streak count or points figure")
    func everyRouteHidesNumbers() async throws {
        let seed = try ScanSeed()
        defer { seed.harness.remove() }
        try await seed.harness.run { browser in
            let fixture = try await seed.prepare(browser)
            try seed.harness.store().setRecoveryMode(true, timeZone: seed.harness.timeZone)
            var leaks: [String] = []
            for url in try seed.urls(fixture) {
                let page = try await browser.get(url)
                #expect(page.status.code < 500 && (page.status != .notFound || ScanSeed.unknownOnPurpose.contains(url)), "GET \(url): \(page.status)")
                leaks += RecoveryScan.leaks(in: page.body, forbidden: fixture.forbidden, csrf: browser.csrf).map { "GET \(url): \($0)" }
            }
            #expect(leaks.isEmpty, "hidden numbers shown in recovery mode:\n\(leaks.joined(separator: "\n"))")
        }
    }

    @Test("the scan knows every GET route of the router (a new page must be added to the scan)")
    func everyRouteIsListed() throws {
        let seed = try ScanSeed()
        defer { seed.harness.remove() }
        let known = Set(ScanSeed.routeTable.keys).union(Self.unscanned)
        let routes = Set(seed.harness.app.router().routes.filter { $0.method == .get }.map { "\($0.path)" })
        #expect(routes.subtracting(known).isEmpty, "GET routes missing from the scan: \(routes.subtracting(known).sorted())")
        #expect(known.subtracting(routes).isEmpty, "routes listed but gone: \(known.subtracting(routes).sorted())")
    }

    @Test("the numbers come back: with recovery mode off the same pages show them (the scan's values are real)")
    func numbersComeBack() async throws {
        let seed = try ScanSeed()
        defer { seed.harness.remove() }
        try await seed.harness.run { browser in
            let fixture = try await seed.prepare(browser)
            let store = try seed.harness.store()
            try store.setRecoveryMode(true, timeZone: seed.harness.timeZone)
            try store.setRecoveryMode(false, timeZone: seed.harness.timeZone)
            let dashboard = try await browser.get("/")
            let shown = RecoveryScan.leaks(in: dashboard.body, forbidden: fixture.forbidden, csrf: browser.csrf)
            for value in ["1,234", fixture.streak, fixture.targetKcal] {
                #expect(shown.contains { $0.hasPrefix("\(value) ") }, "the dashboard shows \(value) again: \(shown)")
            }
            let weight = try await browser.get("/weight")
            #expect(weight.body.contains("87.6"))
            let meals = try await browser.get("/meals")
            #expect(meals.body.contains("1,234 kcal"))
            // the scan is not empty-handed: the pages of others it covers show these numbers too
            for url in ["/progress", "/insights", "/badges"] {
                let page = try await browser.get(url)
                #expect(
                    !RecoveryScan.leaks(in: page.body, forbidden: fixture.forbidden, csrf: browser.csrf).isEmpty,
                    "\(url) shows none of the scan's numbers with recovery mode off"
                )
            }
        }
    }
}

/// Finds hidden quantities in a page: every number of the text (a run of digits, with a
/// decimal point or comma and its digits) compared with the forbidden ones as written.
enum RecoveryScan {
    /// What is not a quantity: ids, the drawing of icons, the mascot and charts (coordinates),
    /// the assets' version.
    static let noise = [
        "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}",
        #"\s(d|points|viewBox|cx|cy|r|x|y|x1|x2|y1|y2|width|height|transform|stroke-width|stroke-dasharray|stroke-dashoffset|rx|ry)="[^"]*""#,
        #"\?v=[0-9a-z]+"#,
    ]
    /// A number as written: digits, with decimal points or commas between digits; not part of a word.
    static let number = #"(?<![0-9A-Za-z_.,])[0-9]+(?:[.,][0-9]+)*(?![0-9])"#

    /// "1234 in …context…" for each forbidden number found.
    static func leaks(in body: String, forbidden: Set<String>, csrf: String) -> [String] {
        var text = body
        if !csrf.isEmpty { text = text.replacingOccurrences(of: csrf, with: "") }
        for pattern in noise {
            text = text.replacingOccurrences(of: pattern, with: "", options: .regularExpression)
        }
        let ns = text as NSString
        guard let regex = try? NSRegularExpression(pattern: number) else { return ["the number pattern does not compile"] }
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).compactMap { match in
            let token = ns.substring(with: match.range)
            guard forbidden.contains(token) else { return nil }
            let start = max(0, match.range.location - 60)
            let end = min(ns.length, match.range.location + match.range.length + 60)
            let context = ns.substring(with: NSRange(location: start, length: end - start)).replacingOccurrences(of: "\n", with: " ")
            return "\(token) in …\(context)…"
        }
    }

    /// A whole number as pages may write it: 1234, 1,234 and 1.234.
    static func spellings(_ value: Int) -> [String] {
        let plain = String(value)
        guard value >= 1000 else { return [plain] }
        let grouped = "\(value / 1000),\(String(format: "%03d", value % 1000))"
        return [plain, grouped, grouped.replacingOccurrences(of: ",", with: ".")]
    }
}

/// 38 days of one meal (1234 kcal, 43 g protein, 57 g carbs, 93 g fat) and a weight of 87.6 kg
/// a day, a food of 537 kcal per 100 g eaten today (250 g) and a recipe of it: numbers that
/// cannot be dates, times or ids.
struct ScanSeed {
    static let days = 38
    let harness: WebHarness

    init() throws {
        // 15:00 in Berlin on the last day, so 12:30 is always past
        harness = try WebHarness(now: WebHarness.now.addingTimeInterval(Double(6 * 3600 - (Self.days - 1) * 86_400)))
    }

    struct Fixture {
        let forbidden: Set<String>
        let mealID: UUID
        let foodID: String
        let recipeID: String
        let mindfulID: UUID
        let streak: String
        let targetKcal: String
    }

    /// Onboards, logs the 38 days, and collects every hidden number the pages could show.
    func prepare(_ browser: Browser) async throws -> Fixture {
        try await browser.onboard(weight: "87.6")
        let store = try harness.store()
        let zone = harness.timeZone
        var mealID = UUID()
        for day in 0..<Self.days {
            if day > 0 { harness.clock.advance(by: 86_400) }
            let date = harness.clock.today(in: zone)
            let entry = try MealEntry(
                name: "Scan lunch",
                kcal: 1234,
                proteinG: 43,
                carbsG: 57,
                fatG: 93,
                at: date.instant(at: TimeOfDay(minutesSinceMidnight: 12 * 60 + 30), in: zone),
                in: zone
            )
            mealID = UUID()
            try store.logMeal(entry, id: mealID)
            try store.logWeight(try WeightEntry(date: date, kg: 87.6), timeZone: zone)
        }
        let nutrients = Nutrients(kcal: 537, proteinG: 8, carbsG: 60, totalCarbsG: 60, fiberG: 0, sugarsG: 0, fatG: 28, sodiumMg: 0)
        let food = try store.addCustomFood(try CustomFood(name: "Scanbread", per100g: nutrients))
        let recipe = try store.addRecipe(name: "Scan stew", items: [Recipe.Item(foodID: food.id, grams: 250)], servings: 1)
        let logged = try await browser.post("/log/food/\(food.id)", [("amount", "250"), ("unit", "g"), ("time", "12:45")])
        #expect(logged.status == .seeOther)
        let noon = harness.clock.today(in: zone).instant(at: TimeOfDay(minutesSinceMidnight: 13 * 60), in: zone)
        let mindful = try store.logMindfulMeal(try MindfulMealEntry(name: "Scan soup", hunger: .hungry, fullness: .satisfied, at: noon, in: zone))
        let report = try #require(try store.today(timeZone: zone)).report
        #expect(report.streak.count == Self.days)
        return Fixture(
            forbidden: Self.forbidden(report, today: harness.clock.today(in: zone)),
            mealID: mealID,
            foodID: food.id,
            recipeID: recipe.id,
            mindfulID: mindful.id,
            streak: String(report.streak.count),
            targetKcal: Localizer(.en).number(Double(report.targets.kcal), digits: 0)
        )
    }

    static func forbidden(_ report: DayReport, today: LocalDate) -> Set<String> {
        var whole: [Int] = [1234, 43, 57, 93, 172, 228, 837, 537, 250, 1343, 1342, 2577, 2576, Self.days]
        whole += [report.calories.eatenKcal, report.calories.targetKcal, report.calories.remainingKcal, report.calories.overKcal]
            .filter { $0 > 0 }
        for targets in [report.targets] + (report.nextTargets.map { [$0] } ?? []) {
            whole += [targets.kcal, Int(targets.proteinG.rounded()), Int(targets.carbsG.rounded()), Int(targets.fatG.rounded())]
        }
        whole += report.macros.flatMap { [Int($0.eatenG.rounded()), Int($0.goalG.rounded())] }
        whole += [report.totals.proteinKcal, report.totals.carbsKcal, report.totals.fatKcal].map { Int($0.rounded()) }
        whole += [Int(report.plan.tdee.rounded()), Int(report.plan.bmr.rounded()), report.plan.maintenanceKcal]
        whole.append(report.streak.count)
        // the points of these days, as DietCore's ledger counts them (with and without the
        // day's opening and the all-macros bonus)
        for opened in [false, true] {
            for good in [false, true] {
                let records = (0..<days).map { offset in
                    DayRecord(
                        date: today.adding(days: offset - days + 1),
                        mealCount: offset == days - 1 ? 2 : 1,
                        weightKg: 87.6,
                        allMacrosGood: good,
                        opened: opened
                    )
                }
                whole.append(PointsLedger(records: records, through: today).total)
            }
        }
        return Set(whole.filter { $0 > 0 }.flatMap(RecoveryScan.spellings) + ["87.6", "87,6"])
    }

    /// Addresses scanned although they name nothing: an import's progress needs an import
    /// running (its JSON holds counts of rows, which the contract allows).
    static let unknownOnPurpose: Set<String> = ["/import/status/none"]

    /// Each GET route with the addresses that reach its pages (its parameters filled in).
    static var routeTable: [String: (Fixture) -> [String]] {
        [
            "/": { _ in ["/"] },
            "/explain": { _ in ["/explain"] },
            "/log": { _ in ["/log", "/log?q=Scanbread"] },
            "/log/copy": { _ in ["/log/copy", "/log/copy?from=2026-01-04"] },
            "/foods/search": { _ in ["/foods/search?q=Scanbread", "/foods/search?q=Scan"] },
            "/log/food/{id}": { ["/log/food/\($0.foodID)"] },
            "/meals": { _ in ["/meals"] },
            "/meals/{id}": { ["/meals/\($0.mealID.uuidString)"] },
            "/weight": { _ in ["/weight"] },
            "/progress": { _ in ["/progress"] + ["7d", "30d", "90d", "1y", "all"].map { "/progress?range=\($0)" } },
            "/foods": { _ in ["/foods"] },
            "/foods/{id}/edit": { ["/foods/\($0.foodID)/edit"] },
            "/recipes/{id}/edit": { ["/recipes/\($0.recipeID)/edit"] },
            "/settings": { _ in ["/settings"] },
            "/settings/window": { _ in ["/settings/window"] },
            "/settings/recovery/off": { _ in ["/settings/recovery/off"] },
            "/mindful/{id}": { ["/mindful/\($0.mindfulID.uuidString)"] },
            "/learn": { _ in ["/learn"] },
            "/learn/{topic}": { _ in EducationTopic.allCases.map { "/learn/\($0.rawValue)" } },
            "/briefing": { _ in ["/briefing"] },
            "/briefing/whoop/connect": { _ in ["/briefing/whoop/connect"] },
            "/briefing/whoop/callback": { _ in ["/briefing/whoop/callback"] },
            "/import": { _ in ["/import"] },
            "/import/status/{id}": { _ in ["/import/status/none"] },
            "/insights": { _ in ["/insights", "/insights?weeks=8"] },
            "/badges": { _ in ["/badges"] },
            "/onboarding": { _ in ["/onboarding"] },
            "/signin": { _ in ["/signin"] },
            "/setup": { _ in ["/setup"] },
        ]
    }

    func urls(_ fixture: Fixture) throws -> [String] {
        let routes = harness.app.router().routes.filter { $0.method == .get }.map { "\($0.path)" }
        return routes.filter { !RecoveryScanTests.unscanned.contains($0) }.sorted().flatMap { Self.routeTable[$0]?(fixture) ?? [$0] }
    }
}
