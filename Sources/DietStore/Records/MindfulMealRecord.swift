import DietCore
import Foundation
import GRDB
import SyncProtocol

/// A row of `mindful_meals` (docs/rules.md §8): a meal logged in recovery mode, without an amount.
struct MindfulMealRecord: SyncedRecord, Hashable {
    static let syncTable = SyncTable.mindfulMeals

    var id: UUID
    var name: String
    var hunger: Int
    var fullness: Int
    var feeling: String?
    var loggedAt: String
    var localDate: String
    var localTime: String
    var timeZone: String
    var moment: Int?
    var createdAt: String
    var updatedHLC: String
    var deleted: Bool

    enum CodingKeys: String, CodingKey {
        case id, name, hunger, fullness, feeling, moment, deleted
        case loggedAt = "logged_at"
        case localDate = "local_date"
        case localTime = "local_time"
        case timeZone = "time_zone"
        case createdAt = "created_at"
        case updatedHLC = "updated_hlc"
    }

    enum Columns {
        static let localDate = Column(CodingKeys.localDate)
        static let localTime = Column(CodingKeys.localTime)
        static let deleted = Column(CodingKeys.deleted)
    }

    init(id: UUID, entry: MindfulMealEntry, createdAt: Date) {
        self.id = id
        name = entry.name
        hunger = entry.hunger.rawValue
        fullness = entry.fullness.rawValue
        feeling = entry.feeling?.rawValue
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
    var meal: MindfulMeal? {
        guard let instant = StoreFormat.instant(loggedAt), let date = LocalDate(iso: localDate),
            let time = TimeOfDay(string: localTime), let hunger = HungerScale(rawValue: hunger),
            let fullness = HungerScale(rawValue: fullness)
        else { return nil }
        let mood: MealFeeling?
        if let feeling {
            guard let known = MealFeeling(rawValue: feeling) else { return nil }
            mood = known
        } else {
            mood = nil
        }
        let entry = MindfulMealEntry(
            restoring: name,
            hunger: hunger,
            fullness: fullness,
            feeling: mood,
            instant: instant,
            localDate: date,
            localTime: time,
            timeZoneIdentifier: timeZone,
            moment: moment
        )
        return MindfulMeal(id: id, entry: entry)
    }

    var unreadableReason: String? {
        guard meal != nil else { return "its time, date, steps or feeling cannot be read" }
        return TextRules.forbiddenControlCharacter(in: name) == nil ? nil : "its name holds a control character"
    }
}

extension DerivableRequest<MindfulMealRecord> {
    /// Mindful meals not deleted.
    func alive() -> Self { filter(MindfulMealRecord.Columns.deleted == false) }

    /// Mindful meals of `date`, in the order they were eaten.
    func on(_ date: LocalDate) -> Self {
        alive().filter(MindfulMealRecord.Columns.localDate == date.iso).order(MindfulMealRecord.Columns.localTime)
    }
}

/// A logged mindful meal with its id.
public struct MindfulMeal: Hashable, Sendable, Identifiable {
    public let id: UUID
    public let entry: MindfulMealEntry

    public init(id: UUID, entry: MindfulMealEntry) {
        self.id = id
        self.entry = entry
    }
}
