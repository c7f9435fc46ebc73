import DietCore
import Foundation
import GRDB

/// A row of `earned_badges`: a badge, the local date it was earned, when this device stored it
/// and when it was announced (nil: recorded silently).
///
/// Not part of the export (`DataExport.tables`): badges are derived from the exported meals
/// and weights, so an import earns them again from the same history, with the same dates.
struct BadgeRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "earned_badges"

    var category: String
    var tier: String
    var earnedOn: String
    var recordedAt: String
    var announcedAt: String?

    enum CodingKeys: String, CodingKey {
        case category, tier
        case earnedOn = "earned_on"
        case recordedAt = "recorded_at"
        case announcedAt = "announced_at"
    }

    init(badge: Badge, earnedOn: LocalDate, recordedAt: Date, announced: Bool) {
        category = badge.category.rawValue
        tier = badge.tier.rawValue
        self.earnedOn = earnedOn.iso
        self.recordedAt = StoreFormat.instant(recordedAt)
        announcedAt = announced ? self.recordedAt : nil
    }

    /// The badge and its date; nil for a row this version cannot read.
    var earned: (Badge, LocalDate)? {
        guard let category = Badge.Category(rawValue: category), let tier = Badge.Tier(rawValue: tier),
            let date = LocalDate(iso: earnedOn)
        else { return nil }
        return (Badge(category, tier), date)
    }

    /// Every stored badge with its date.
    static func all(_ db: Database) throws -> [Badge: LocalDate] {
        var result: [Badge: LocalDate] = [:]
        for record in try BadgeRecord.fetchAll(db) {
            if let (badge, date) = record.earned { result[badge] = date }
        }
        return result
    }
}
