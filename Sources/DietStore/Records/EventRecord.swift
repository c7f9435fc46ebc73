import DietCore
import Foundation
import GRDB
import SyncProtocol

/// A row of `analytics_events`: a name, when it happened, and its properties as JSON.
struct EventRecord: SyncedRecord, Hashable {
    static let syncTable = SyncTable.analyticsEvents

    var id: UUID
    var name: String
    var occurredAt: String
    var localDate: String
    var timeZone: String
    var properties: String
    var updatedHLC: String
    var deleted: Bool

    enum CodingKeys: String, CodingKey {
        case id, name, properties, deleted
        case occurredAt = "occurred_at"
        case localDate = "local_date"
        case timeZone = "time_zone"
        case updatedHLC = "updated_hlc"
    }
}
