import DietCore
import Foundation
import GRDB
import SyncProtocol

/// A row of `meal_logs`.
struct MealRecord: SyncedRecord, Hashable {
    static let syncTable = SyncTable.mealLogs

    var id: UUID
    var name: String
    var kcal: Int
    var proteinG: Double?
    var carbsG: Double?
    var fatG: Double?
    var fiberG: Double?
    var loggedAt: String
    var localDate: String
    var localTime: String
    var timeZone: String
    var foodID: String?
    var portionG: Double?
    /// The recipe the meal was logged from, and how many of its servings.
    var recipeID: String?
    var recipeServings: Double?
    /// The eating moment (1–5) the meal was logged to; nil: grouped by its time.
    var moment: Int?
    var createdAt: String
    var updatedHLC: String
    var deleted: Bool

    enum CodingKeys: String, CodingKey {
        case id, name, kcal, deleted, moment
        case proteinG = "protein_g"
        case carbsG = "carbs_g"
        case fatG = "fat_g"
        case fiberG = "fiber_g"
        case loggedAt = "logged_at"
        case localDate = "local_date"
        case localTime = "local_time"
        case timeZone = "time_zone"
        case foodID = "food_id"
        case portionG = "portion_g"
        case recipeID = "recipe_id"
        case recipeServings = "recipe_servings"
        case createdAt = "created_at"
        case updatedHLC = "updated_hlc"
    }

    enum Columns {
        static let localDate = Column(CodingKeys.localDate)
        static let localTime = Column(CodingKeys.localTime)
        static let deleted = Column(CodingKeys.deleted)
    }

    init(id: UUID, entry: MealEntry, createdAt: Date) {
        self.id = id
        name = entry.name
        kcal = entry.kcal
        proteinG = entry.proteinG
        carbsG = entry.carbsG
        fatG = entry.fatG
        fiberG = entry.fiberG
        loggedAt = StoreFormat.instant(entry.instant)
        localDate = entry.localDate.iso
        localTime = entry.localTime.formatted
        timeZone = entry.timeZoneIdentifier
        moment = entry.moment
        self.createdAt = StoreFormat.instant(createdAt)
        updatedHLC = ""
        deleted = false
    }

    /// The domain value; nil if the row was damaged outside the app.
    var meal: Meal? {
        guard let instant = StoreFormat.instant(loggedAt), let date = LocalDate(iso: localDate),
            let time = TimeOfDay(string: localTime)
        else { return nil }
        let entry = MealEntry(
            restoring: name,
            kcal: kcal,
            proteinG: proteinG,
            carbsG: carbsG,
            fatG: fatG,
            fiberG: fiberG,
            instant: instant,
            localDate: date,
            localTime: time,
            timeZoneIdentifier: timeZone,
            moment: moment
        )
        return Meal(id: id, entry: entry)
    }

    var unreadableReason: String? { meal == nil ? "its time or date cannot be read" : nil }
}

extension DerivableRequest<MealRecord> {
    /// Meals not deleted.
    func alive() -> Self { filter(MealRecord.Columns.deleted == false) }

    /// Meals of `date`, in the order they were eaten.
    func on(_ date: LocalDate) -> Self {
        alive().filter(MealRecord.Columns.localDate == date.iso).order(MealRecord.Columns.localTime)
    }
}

/// A logged meal with its id.
public struct Meal: Hashable, Sendable, Identifiable {
    public let id: UUID
    public let entry: MealEntry
}
