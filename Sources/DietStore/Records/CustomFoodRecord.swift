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
        return Food(
            id: id.uuidString.lowercased(),
            name: name,
            usdaName: attribution ?? name,
            per100g: Nutrients(
                kcal: kcal,
                proteinG: proteinG,
                carbsG: carbsG,
                totalCarbsG: carbsG + fiberG,
                fiberG: fiberG,
                sugarsG: sugarsG,
                fatG: fatG,
                sodiumMg: sodiumMg
            ),
            portions: portions,
            isCommon: true
        )
    }

    /// The food as it was entered (barcode, every nutrient and portion, its origin), for editing.
    var draft: CustomFood? {
        guard let food else { return nil }
        return try? CustomFood(
            name: name,
            barcode: barcode.flatMap { try? Barcode($0) },
            per100g: food.per100g,
            portions: food.portions,
            source: CustomFood.Source(rawValue: source) ?? .user,
            attribution: attribution
        )
    }

    var unreadableReason: String? { food == nil ? "the food's portions cannot be read" : nil }
}

extension AppDatabase {
    /// Adds one of the user's own foods; a barcode already in use is refused.
    @discardableResult
    public func addCustomFood(_ draft: CustomFood, id: UUID = UUID()) throws -> Food {
        let now = clock.now()
        return try writer.write { db in
            if let barcode = draft.barcode?.gtin13,
                try CustomFoodRecord.filter(sql: "barcode = ? AND deleted = 0", arguments: [barcode]).fetchCount(db) > 0
            {
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
            try CustomFoodRecord.filter(sql: "barcode = ? AND deleted = 0", arguments: [barcode.gtin13])
                .order(sql: "updated_hlc DESC").fetchOne(db)?.food
        }
    }

    /// The user's own foods (and cached products), by name.
    public func customFoods() throws -> [Food] {
        try reader.read { db in
            try CustomFoodRecord.filter(sql: "deleted = 0").order(sql: "name COLLATE NOCASE").fetchAll(db).compactMap(\.food)
        }
    }

    /// One of the user's foods as entered (with its barcode), to edit; nil if there is none.
    public func customFoodDraft(id: String) throws -> CustomFood? {
        try reader.read { db in
            try CustomFoodRecord.fetchOne(db, key: id.uppercased()).flatMap { $0.deleted ? nil : $0.draft }
        }
    }

    /// Replaces one of the user's foods with `draft` (its id and creation time stay, so meals
    /// and recipes keep pointing at it; so does where it came from: an edited Open Food Facts
    /// product keeps its attribution); a barcode in use by another food is refused.
    @discardableResult
    public func updateCustomFood(id: String, _ draft: CustomFood) throws -> Food {
        let now = clock.now()
        return try writer.write { db in
            guard let existing = try CustomFoodRecord.fetchOne(db, key: id.uppercased()), !existing.deleted else {
                throw StoreError.unknownFood(id)
            }
            if let barcode = draft.barcode?.gtin13,
                try CustomFoodRecord.filter(sql: "barcode = ? AND deleted = 0 AND id <> ?", arguments: [barcode, existing.id.uuidString])
                    .fetchCount(db) > 0
            {
                throw StoreError.duplicateBarcode(barcode)
            }
            var record = try CustomFoodRecord(id: existing.id, draft: draft, createdAt: now)
            record.createdAt = existing.createdAt
            record.source = existing.source
            record.attribution = existing.attribution
            let saved = try Outbox.save(record, db, now: now)
            guard let food = saved.food else { throw StoreError.damaged(table: "custom_foods", id: id) }
            return food
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
