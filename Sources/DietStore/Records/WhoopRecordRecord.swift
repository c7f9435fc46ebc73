import Foundation
import GRDB
import SyncProtocol

/// A row of `whoop_records`: one WHOOP record (recovery, sleep, cycle or workout) as the v2 API
/// returned it, synced so every device of the account briefs from it. Its id is the natural key
/// of kind and WHOOP's id (`WhoopRow.id`), the same on every device and on the server.
struct WhoopRecordRecord: SyncedRecord, Hashable {
    static let syncTable = SyncTable.whoopRecords

    var id: UUID
    var kind: String
    var whoopID: String
    var recordedAt: String
    /// The record's JSON object as text; "{}" in a tombstone.
    var record: String
    var updatedHLC: String
    var deleted: Bool

    enum CodingKeys: String, CodingKey {
        case id, kind, record, deleted
        case whoopID = "whoop_id"
        case recordedAt = "recorded_at"
        case updatedHLC = "updated_hlc"
    }

    enum Columns {
        static let kind = Column(CodingKeys.kind)
        static let recordedAt = Column(CodingKeys.recordedAt)
        static let deleted = Column(CodingKeys.deleted)
        static let updatedHLC = Column(CodingKeys.updatedHLC)
    }

    init(kind: WhoopRecordKind, whoopID: String, recordedAt: Date, json: String) {
        id = WhoopRow.id(kind: kind.rawValue, whoopID: whoopID)
        self.kind = kind.rawValue
        self.whoopID = whoopID
        self.recordedAt = StoreFormat.instant(recordedAt)
        record = json
        updatedHLC = ""
        deleted = false
    }

    /// The same row as a tombstone: the record's data is dropped, its key stays.
    var tombstone: WhoopRecordRecord {
        var copy = self
        copy.record = "{}"
        copy.deleted = true
        return copy
    }

    var unreadableReason: String? {
        guard WhoopRecordKind(rawValue: kind) != nil else { return "its kind \(kind) is not known" }
        guard StoreFormat.instant(recordedAt) != nil else { return "its recorded_at cannot be read" }
        guard id == WhoopRow.id(kind: kind, whoopID: whoopID) else { return "its id is not the one of its kind and WHOOP id" }
        let object = try? JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any]
        return object == nil ? "its record is not a JSON object" : nil
    }
}

extension DerivableRequest<WhoopRecordRecord> {
    /// Records not deleted.
    func alive() -> Self { filter(WhoopRecordRecord.Columns.deleted == false) }
}
