import DietCore
import DietStore
import FoodKit
import Foundation
import GRDB
import TestSupport
import Testing

/// Issue 29: the German everyday set (`german-everyday.tsv`), labelled from BLS 4.0 before the
/// search ran, answered by the food search and the meal-in-words resolver in German.
@Suite("German everyday searches and meals")
struct GermanEverydayTests {
    static func answers(_ store: AppDatabase) -> (GermanEverydaySet.Case) throws -> GermanEverydaySet.Answer? {
        { item in
            let zone = Zones.berlin
            if item.isMeal {
                let meal = try store.resolveMealText(item.text, language: .de, timeZone: zone)
                let codes = try blsCodes(store, ids: meal.items.map(\.food.id))
                return GermanEverydaySet.Answer(
                    foods: meal.items.map { ($0.food.id, codes[$0.food.id], $0.food.name) } + meal.unmatched.map { ("", nil, "? \($0.food)") },
                    kcal: meal.totals.kcal
                )
            }
            guard let hit = try store.searchFoods(item.text, language: .de, timeZone: zone, limit: 1).first else { return nil }
            return GermanEverydaySet.Answer(
                foods: [(hit.food.id, try blsCodes(store, ids: [hit.food.id])[hit.food.id], hit.food.name)],
                kcal: hit.food.per100g.kcal
            )
        }
    }

    static func blsCodes(_ store: AppDatabase, ids: [String]) throws -> [String: String] {
        try store.reader.read { db in
            var codes: [String: String] = [:]
            for id in ids {
                if let code = try String.fetchOne(db, sql: "SELECT bls_code FROM foods.foods WHERE id = ?", arguments: [id]) {
                    codes[id] = code
                }
            }
            return codes
        }
    }

    @Test("the set holds at least 300 searches and 150 meals, each kind a BLS code or a food of the database")
    func size() throws {
        let cases = try GermanEverydaySet.load()
        #expect(cases.filter { !$0.isMeal }.count >= 300)
        #expect(cases.filter(\.isMeal).count >= 150)
        let store = try AppDatabase.inMemory(clock: FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin))
        let known = try store.reader.read { db in
            (
                Set(try String.fetchAll(db, sql: "SELECT bls_code FROM foods.foods WHERE bls_code IS NOT NULL")),
                Set(try Int.fetchAll(db, sql: "SELECT id FROM foods.foods").map(String.init))
            )
        }
        for item in cases {
            for kind in item.groups.joined() {
                switch kind {
                case .bls(let code): #expect(known.0.contains(code), "\(item): \(code)")
                case .blsPrefix(let prefix): #expect(known.0.contains { $0.hasPrefix(prefix) }, "\(item): \(prefix)*")
                case .id(let id): #expect(known.1.contains(id), "\(item): \(id)")
                }
            }
        }
    }

    /// Issue 29 asks for 98 % right. Measured when the set landed (2026-11-28): searches 42.4 %,
    /// meals 29.1 %, most misses curated foods still carrying USDA values where BLS has the food;
    /// after 494 more foods and dishes took their BLS values: searches 77.5 %, meals 51.8 %; with
    /// the first hit independent of the limit: searches 78.6 %, meals 52.6 %; pieces counted:
    /// meals 53.4 %; German measures (Dose, Maß, Kugel): searches 78.8 %, meals 54.6 %.
    /// 2026-12-06: 173 more foods and dishes on BLS values and 57 new everyday foods (mapped by
    /// helpers who never opened this set), the parser of real lines, German measures (a Tafel,
    /// eine Halbe, "aus 2 Eiern", a size before a counted food), whole-word typo corrections
    /// first and two slips in long words: searches 90.4 %, meals 67.3 %.
    /// 2026-12-07: 165 more curated foods on BLS values, German portion sizes (data/portions-de.tsv),
    /// 392 everyday names and 100 BLS foods people name made curated (helpers blind to this set),
    /// food as on the plate in a meal (served forms), German measures (a TL by the EL, a Glas, a
    /// Reihe), a known word never "corrected": searches 98.2 %, meals 90.0 %. Then two foods a
    /// source names together ("Bratwurst mit Senf" of BLS) are two items, a BLS food's names on
    /// one of the foods that take its values, German sizes of main dishes (a plate of soup 300 g,
    /// Maultaschen, Leberkäse, a Bratwurst, a Hot Dog, Fischstäbchen, a can of tuna), a dish
    /// without its side (Hühnerfrikassee without rice, Gyrosteller no "Gyros mit Pommes"), the
    /// German Porridge (with milk), Schwarzbrot (rye), Putenschnitzel, Kotelett: searches 99.1 %,
    /// meals 98.8 %: the target holds. With the fixes for the held-out set's misses: 99.4 %, 99.2 %.
    @Test("searches and meals in German find the kinds meant, with calories in range: 98 % right")
    func score() throws {
        let store = try AppDatabase.inMemory(clock: FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin))
        let report = try GermanEverydaySet.score(try GermanEverydaySet.load(), answer: Self.answers(store))
        print("German everyday set: \(report.line)")
        for failure in report.failures { print("  \(failure)") }
        #expect(report.searchShare >= 0.98, "\(report.line)")
        #expect(report.mealShare >= 0.98, "\(report.line)")
    }

    /// The held-out set (`german-heldout.tsv`): new texts labelled the same way by someone who
    /// neither ran the app nor read the first set or the data files, committed before any code
    /// was scored on it. Its misses were not read to tune the app until the third set landed
    /// (2026-12-07): since then it is a second set to fix by, and the third is the blind one.
    @Test("the held-out searches and meals, scored the same way, no worse than measured")
    func heldOut() throws {
        let report = try Self.scored("german-heldout.tsv", as: "held-out", sized: (200, 100), showingMisses: true)
        #expect(report.searchShare >= Self.heldOutFloor.searches, "\(report.line)")
        #expect(report.mealShare >= Self.heldOutFloor.meals, "\(report.line)")
    }

    /// The third set (`german-third.tsv`), written on 2026-12-07 by someone who ran nothing and
    /// read neither the other sets' data nor the data files, committed with the score it had on
    /// the code of that day before anything was changed for it: the blind measure, now that the
    /// held-out set's misses may be read.
    @Test("the third, blind set: scored the same way, no worse than measured when it landed")
    func third() throws {
        let report = try Self.scored("german-third.tsv", as: "third", sized: (300, 150), showingMisses: false)
        #expect(report.searchShare >= Self.thirdFloor.searches, "\(report.line)")
        #expect(report.mealShare >= Self.thirdFloor.meals, "\(report.line)")
    }

    /// A set of `Tests/DietStoreTests/Foods/` of at least `sized` searches and meals, scored and
    /// printed (its misses too where they may be read).
    static func scored(
        _ file: String,
        as name: String,
        sized: (searches: Int, meals: Int),
        showingMisses: Bool
    ) throws -> GermanEverydaySet.Report {
        let store = try AppDatabase.inMemory(clock: FixedClock.at(.ymd(2026, 3, 2), 12, in: Zones.berlin))
        let cases = try GermanEverydaySet.load(from: RepositoryFolder.url("Tests/DietStoreTests/Foods/" + file))
        #expect(cases.filter { !$0.isMeal }.count >= sized.searches && cases.filter(\.isMeal).count >= sized.meals)
        let report = try GermanEverydaySet.score(cases, answer: answers(store))
        print("German \(name) set: \(report.line)")
        if showingMisses { for failure in report.failures { print("  \(failure)") } }
        return report
    }

    // when it landed (2026-12-07, before anything was changed for it): searches 92.8 % (363 of 391),
    // meals 68.7 % (125 of 182); after the fixes for the held-out set's misses (this set's unread):
    // searches 94.1 % (368), meals 72.0 % (131)
    static let thirdFloor = (searches: 0.941, meals: 0.719)

    // when it landed, with the first BLS mapping, the parser of real lines and the German measures:
    // searches 69.9 % (263 of 376), meals 35.7 % (45 of 126); after the second mapping (blind to
    // both sets) and sizes before counted foods: searches 80.9 % (304), meals 44.4 % (56); after
    // the work of 2026-12-07 (its misses unread): searches 90.7 % (341), meals 66.7 % (84); with
    // the first set's meals at 98.8 % (misses still unread): searches 91.0 % (342), meals 68.3 % (86);
    // with fixes made while reading its misses (names people use, German sizes): 97.6 % (367), 84.1 % (106)
    static let heldOutFloor = (searches: 0.976, meals: 0.841)
}
