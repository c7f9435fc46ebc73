import DietCore
import FoodKit
import Foundation
import GRDB

/// Reading foods of the bundled catalog by id, with their portions in the user's language.
extension FoodCatalog {
    /// A food without a name in `language` (most of USDA's in German) is named in English: search
    /// offers only foods named in the user's language, but one logged, synced or typed by id is shown.
    static func food(_ db: Database, id: Int, language: Language) throws -> Food? {
        try foods(db, ids: [id], language: language)[id]
    }

    /// Several foods with their portions in two queries (search shows a screenful at once). The
    /// bundled catalog never changes while the app runs: a food read once is kept (up to
    /// `cacheLimit` of them), so the foods a search shows on every keystroke are read once.
    static func foods(_ db: Database, ids: [Int], language: Language) throws -> [Int: Food] {
        guard !ids.isEmpty else { return [:] }
        var result = foodCache.withLock { cache in
            Dictionary(uniqueKeysWithValues: ids.compactMap { id in cache[FoodKey(id: id, language: language)].map { (id, $0) } })
        }
        let missing = ids.filter { result[$0] == nil }
        guard !missing.isEmpty else { return result }
        let read = try readFoods(db, ids: missing, language: language)
        foodCache.withLock { cache in
            if cache.count + read.count > cacheLimit { cache.removeAll(keepingCapacity: true) }
            for (id, food) in read { cache[FoodKey(id: id, language: language)] = food }
        }
        result.merge(read) { first, _ in first }
        return result
    }

    struct FoodKey: Hashable {
        let id: Int
        let language: Language
    }

    static let foodCache = Locked<[FoodKey: Food]>([:])
    static let cacheLimit = 4096

    private static func readFoods(_ db: Database, ids: [Int], language: Language) throws -> [Int: Food] {
        let list = jsonList(ids)
        var portions: [Int: [Portion]] = [:]
        // the name shown in the user's language and its plural ("2 Scheiben"), the English one kept
        // for matching typed units
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT food_id, amount, name_en, CASE ? WHEN 'de' THEN name_de WHEN 'es' THEN name_es ELSE name_en END AS shown,
                      CASE ? WHEN 'de' THEN plural_de WHEN 'es' THEN plural_es ELSE plural_en END AS plural,
                      grams, us_cup FROM foods.portions WHERE food_id IN (SELECT value FROM json_each(?)) ORDER BY food_id, position
                    """
            ),
            arguments: [language.rawValue, language.rawValue, list]
        ) {
            portions[row["food_id"], default: []].append(
                Portion(
                    amount: row["amount"],
                    name: row["shown"],
                    grams: row["grams"],
                    reference: row["name_en"],
                    isOffered: language == .en || row["us_cup"] == 0,
                    pluralName: row["plural"]
                )
            )
        }
        var result: [Int: Food] = [:]
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT f.*, coalesce(d.name, e.name) AS display FROM foods.foods f
                    LEFT JOIN foods.display_names d ON d.food_id = f.id AND d.language = ?
                    JOIN foods.display_names e ON e.food_id = f.id AND e.language = 'en'
                    WHERE f.id IN (SELECT value FROM json_each(?))
                    """
            ),
            arguments: [language.rawValue, list]
        ) {
            let id: Int = row["id"]
            result[id] = Food(
                id: String(id),
                name: row["display"],
                usdaName: row["usda_name"],
                per100g: Nutrients(
                    kcal: row["kcal"],
                    proteinG: row["protein_g"],
                    carbsG: row["available_carbs_g"],
                    totalCarbsG: row["carbs_g"],
                    fiberG: row["fiber_g"],
                    sugarsG: row["sugars_g"],
                    fatG: row["fat_g"],
                    sodiumMg: row["sodium_mg"]
                ),
                portions: portions[id] ?? [],
                isCommon: row["common"] == 1,
                serving: (row["serving_position"] as Int?).flatMap { position in
                    portions[id].flatMap { position < $0.count ? $0[position] : nil }
                }
            )
        }
        return result
    }
}

extension AppDatabase {
    /// Foods for what the user typed, best first; empty when nothing matches (offer manual entry).
    public func searchFoods(_ text: String, language: Language, timeZone: TimeZone, limit: Int = 10) throws -> [FoodHit] {
        let today = LocalDate(clock.now(), in: timeZone)
        return try reader.read { db in try FoodCatalog.search(db, text: text, language: language, today: today, limit: limit) }
    }

    /// One food by its id (a USDA number or one of the user's foods), named in `language`.
    public func food(id: String, language: Language) throws -> Food? {
        try reader.read { db in
            if let number = Int(id), let food = try FoodCatalog.food(db, id: number, language: language) { return food }
            // the user's foods by their id or its first characters (4 or more), when unambiguous; a
            // short id can be all digits ("94458371"), so it is tried after the database's numbers
            let prefix = id.uppercased()
            guard prefix.count >= 4, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return nil }
            let matches = try CustomFoodRecord.filter(sql: "deleted = 0 AND id LIKE ?", arguments: [prefix + "%"]).limit(2).fetchAll(db)
            return matches.count == 1 ? matches[0].food : nil
        }
    }
}

/// Where the bundled food data comes from, with the attribution its licence asks for.
public struct FoodDataSource: Hashable, Sendable {
    public let id: String
    public let name: String
    public let licence: String
    public let attribution: String
    /// Empty for the project's own data.
    public let url: String
    /// How many of the source's foods the database holds (a BLS food several names share counts once).
    public let foods: Int
}

extension AppDatabase {
    /// The sources of the bundled food database in the order its build lists them (BLS 4.0 first).
    public func foodDataSources() throws -> [FoodDataSource] {
        try reader.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT s.*, (SELECT count(DISTINCT coalesce(f.bls_code, f.id)) FROM foods.foods f WHERE f.source = s.id) AS foods
                    FROM foods.sources s ORDER BY s.rowid
                    """
            ).map { row in
                FoodDataSource(
                    id: row["id"],
                    name: row["name"],
                    licence: row["licence"],
                    attribution: row["attribution"],
                    url: row["url"],
                    foods: row["foods"]
                )
            }
        }
    }
}
