import DietCore
import FoodKit
import Foundation
import GRDB
import SyncProtocol

/// A row of `custom_foods`.
struct CustomFoodRecord: SyncedRecord, Hashable {
    static let syncTable = SyncTable.customFoods

    var id: UUID
    var name: String
    var searchText: String
    var barcode: String?
    var kcal: Double
    var proteinG: Double
    var carbsG: Double
    var fatG: Double
    var fiberG: Double
    var sugarsG: Double
    var sodiumMg: Double
    var portions: String
    var source: String
    var attribution: String?
    var createdAt: String
    var updatedHLC: String
    var deleted: Bool

    enum CodingKeys: String, CodingKey {
        case id, name, barcode, kcal, portions, source, attribution, deleted
        case searchText = "search_text"
        case proteinG = "protein_g"
        case carbsG = "carbs_g"
        case fatG = "fat_g"
        case fiberG = "fiber_g"
        case sugarsG = "sugars_g"
        case sodiumMg = "sodium_mg"
        case createdAt = "created_at"
        case updatedHLC = "updated_hlc"
    }

    init(id: UUID, draft: CustomFood, createdAt: Date) throws {
        self.id = id
        name = draft.name
        searchText = SearchText.indexForms(draft.name).joined(separator: " ")
        barcode = draft.barcode?.gtin13
        kcal = draft.per100g.kcal
        proteinG = draft.per100g.proteinG
        carbsG = draft.per100g.carbsG
        fatG = draft.per100g.fatG
        fiberG = draft.per100g.fiberG
        sugarsG = draft.per100g.sugarsG
        sodiumMg = draft.per100g.sodiumMg
        portions = try String(decoding: JSONEncoder.store.encode(draft.portions), as: UTF8.self)
        source = draft.source.rawValue
        attribution = draft.attribution
        self.createdAt = StoreFormat.instant(createdAt)
        updatedHLC = ""
        deleted = false
    }

    var food: Food? {
        guard let portions = try? JSONDecoder().decode([Portion].self, from: Data(portions.utf8)) else { return nil }
        return Food(id: id.uuidString.lowercased(), name: name, usdaName: attribution ?? name,
                    per100g: Nutrients(kcal: kcal, proteinG: proteinG, carbsG: carbsG, totalCarbsG: carbsG + fiberG,
                                       fiberG: fiberG, sugarsG: sugarsG, fatG: fatG, sodiumMg: sodiumMg),
                    portions: portions, isCommon: true)
    }
}

/// A food the user adds, or a product found by barcode.
public struct CustomFood: Hashable, Sendable {
    public enum Source: String, Sendable {
        case user
        case openFoodFacts = "openfoodfacts"
    }

    public var name: String
    public var barcode: Barcode?
    /// Per 100 g; `carbsG` is available carbohydrate.
    public var per100g: Nutrients
    public var portions: [Portion]
    public var source: Source
    /// Where the data came from, shown with the food ("Open Food Facts, ODbL").
    public var attribution: String?

    /// Validates the values a label can have: energy 0–900 kcal and each macro 0–100 g per 100 g.
    public init(name: String, barcode: Barcode? = nil, per100g: Nutrients, portions: [Portion] = [], source: Source = .user,
                attribution: String? = nil) throws(ValidationError) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...80).contains(trimmed.count) else {
            throw ValidationError(field: .foodName, allowed: .range(min: 1, max: 80, digits: 0, unit: nil), received: "\(trimmed.count)")
        }
        guard per100g.kcal.isFinite, (0...900).contains(per100g.kcal) else {
            throw ValidationError(field: .calories, allowed: .range(min: 0, max: 900, digits: 0, unit: "kcal"), received: "\(per100g.kcal)")
        }
        for (field, grams) in [(ValidationError.Field.protein, per100g.proteinG), (.carbs, per100g.carbsG), (.fat, per100g.fatG),
                               (.fiber, per100g.fiberG)] where !(grams.isFinite && (0...100).contains(grams)) {
            throw ValidationError(field: field, allowed: .range(min: 0, max: 100, digits: 0, unit: "g"), received: "\(grams)")
        }
        for portion in portions where !(portion.grams > 0 && portion.grams <= 5000 && portion.amount > 0) {
            throw ValidationError(field: .portion, allowed: .range(min: 1, max: 5000, digits: 0, unit: "g"), received: "\(portion.grams)")
        }
        self.name = trimmed
        self.barcode = barcode
        self.per100g = per100g
        self.portions = portions
        self.source = source
        self.attribution = attribution
    }
}

extension ValidationError.Field {
    public static let foodName = Self("foodName")
    public static let portion = Self("portion")
}

extension AppDatabase {
    /// Adds one of the user's own foods; a barcode already in use is refused.
    @discardableResult
    public func addCustomFood(_ draft: CustomFood, id: UUID = UUID()) throws -> Food {
        let now = clock.now()
        return try writer.write { db in
            if let barcode = draft.barcode?.gtin13,
               try CustomFoodRecord.filter(sql: "barcode = ? AND deleted = 0", arguments: [barcode]).fetchCount(db) > 0 {
                throw StoreError.duplicateBarcode(barcode)
            }
            let record = try Outbox.save(CustomFoodRecord(id: id, draft: draft, createdAt: now), db, now: now)
            guard let food = record.food else { throw StoreError.damaged(table: "custom_foods", id: id.uuidString) }
            return food
        }
    }

    /// The user's food (or cached product) with this barcode, if any.
    public func customFood(barcode: Barcode) throws -> Food? {
        try reader.read { db in
            try CustomFoodRecord.filter(sql: "barcode = ? AND deleted = 0", arguments: [barcode.gtin13]).fetchOne(db)?.food
        }
    }

    /// Deletes one of the user's foods (a tombstone, so it syncs).
    public func deleteCustomFood(id: String) throws {
        let now = clock.now()
        try writer.write { db in
            guard var record = try CustomFoodRecord.fetchOne(db, key: id.uppercased()), !record.deleted else {
                throw StoreError.unknownFood(id)
            }
            record.deleted = true
            _ = try Outbox.save(record, db, now: now)
        }
    }
}
