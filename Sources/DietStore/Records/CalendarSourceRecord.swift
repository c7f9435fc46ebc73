import DietCore
import Foundation
import GRDB
import SyncProtocol

/// A row of `calendar_sources`: a calendar of the briefing as every device of the account
/// keeps it (where it comes from and its last fetched text). What only this device knows
/// (counts, the last check, a text too long to sync) lives in `calendar_source_state`.
struct CalendarSourceRecord: SyncedRecord, Hashable {
    static let syncTable = SyncTable.calendarSources

    /// The largest row (its JSON) that syncs: with the push's other changes it stays well
    /// under the server's 2 MiB body limit. A row of 1,000,000 characters of a non-Latin
    /// script could pass the contract's character count and still not fit.
    static let maxSyncedBytes = 1_500_000

    var id: UUID
    var name: String
    var kind: String
    var location: String
    var addedAt: String
    var fetchedAt: String
    var ics: String
    var updatedHLC: String
    var deleted: Bool

    enum CodingKeys: String, CodingKey {
        case id, name, kind, location, ics, deleted
        case addedAt = "added_at"
        case fetchedAt = "fetched_at"
        case updatedHLC = "updated_hlc"
    }

    var isAddress: Bool { kind == "address" }

    var unreadableReason: String? {
        guard StoreFormat.instant(addedAt) != nil, StoreFormat.instant(fetchedAt) != nil else {
            return "its added or fetched time cannot be read"
        }
        return nil
    }

    /// Why this row cannot sync (it breaks the row contract, e.g. a text longer than
    /// `CalendarRow.maxICSCharacters`, or is too large for a push), or nil when it can.
    func syncProblem() throws -> String? {
        let payload = try payload()
        let change = Change(
            table: Self.syncTable,
            id: id,
            hlc: HLC(wallMs: 0, counter: 0, deviceID: "check"),
            deleted: deleted,
            row: payload
        )
        if let violation = RowContract.violation(in: change, now: nil) { return violation.description }
        let bytes = try JSONEncoder.store.encode(payload).count
        return bytes > Self.maxSyncedBytes ? "the calendar is \(bytes) bytes; at most \(Self.maxSyncedBytes) sync" : nil
    }

    /// `text` as the row contract keeps it: line ends as LF (CRLF and a lone CR each become
    /// one LF) and no other control character than tab and LF (iCalendar allows none).
    static func normalized(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(text.unicodeScalars.count)
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            if scalar == "\n", afterCR { continue }
            if scalar == "\r" {
                scalars.append("\n")
            } else if scalar == "\n" || scalar == "\t" || scalar.properties.generalCategory != .control {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// A name the row contract accepts: control characters dropped, trimmed, at most 100
    /// characters, "Calendar" when nothing is left.
    static func cleanName(_ name: String) -> String {
        let kept = String(String.UnicodeScalarView(name.unicodeScalars.filter { $0.properties.generalCategory != .control }))
        let trimmed = String(kept.trimmingCharacters(in: .whitespacesAndNewlines).prefix(100))
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? "Calendar" : trimmed
    }
}
