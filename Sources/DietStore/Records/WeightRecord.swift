import DietCore
import Foundation
import GRDB
import SyncProtocol

/// A row of `weight_entries`: one per local date, with an id derived from that date.
struct WeightRecord: SyncedRecord, Hashable {
    static let syncTable = SyncTable.weightEntries

    var id: UUID
    var localDate: String
    var weightKg: Double
    var loggedAt: String
    var timeZone: String
    var updatedHLC: String
    var deleted: Bool

    enum CodingKeys: String, CodingKey {
        case id, deleted
        case localDate = "local_date"
        case weightKg = "weight_kg"
        case loggedAt = "logged_at"
        case timeZone = "time_zone"
        case updatedHLC = "updated_hlc"
    }

    enum Columns {
        static let localDate = Column(CodingKeys.localDate)
        static let deleted = Column(CodingKeys.deleted)
    }

    static func id(for date: LocalDate) -> UUID {
        NaturalKey.id(table: syncTable, key: date.iso)
    }

    init(entry: WeightEntry, at instant: Date, in timeZone: TimeZone) {
        id = Self.id(for: entry.date)
        localDate = entry.date.iso
        weightKg = entry.kg
        loggedAt = StoreFormat.instant(instant)
        self.timeZone = timeZone.identifier
        updatedHLC = ""
        deleted = false
    }

    var entry: WeightEntry? {
        guard let date = LocalDate(iso: localDate) else { return nil }
        return try? WeightEntry(date: date, kg: weightKg)
    }

    var unreadableReason: String? { entry == nil ? "its date or weight cannot be read" : nil }
}

extension DerivableRequest<WeightRecord> {
    func alive() -> Self { filter(WeightRecord.Columns.deleted == false) }

    /// Weights from `first` through `last`, oldest first.
    func between(_ first: LocalDate, _ last: LocalDate) -> Self {
        alive().filter(WeightRecord.Columns.localDate >= first.iso && WeightRecord.Columns.localDate <= last.iso)
            .order(WeightRecord.Columns.localDate)
    }
}
