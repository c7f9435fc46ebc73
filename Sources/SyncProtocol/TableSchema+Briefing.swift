import Foundation

extension TableSchema {
    /// A calendar of the briefing: where it comes from and its last fetched text (lines joined
    /// by LF: the contract refuses CR), so a device that never read the file or address still
    /// briefs from it. `kind` is `file` or `address`.
    static let calendarSources = TableSchema([
        required("name", .text(1...100)),
        required("kind", .choice(["file", "address"])),
        required("location", .freeText(maxCharacters: 2048)),
        required("added_at", .instant),
        required("fetched_at", .instant),
        required("ics", .freeText(maxCharacters: CalendarRow.maxICSCharacters)),
    ])

    /// One WHOOP record as the v2 API returned it (`record`, JSON text), keyed by its kind and
    /// WHOOP's id: recovery by cycle id, sleep and workout by their UUIDs, cycle by its id.
    static let whoopRecords = TableSchema(
        [
            required("kind", .choice(Set(WhoopRecordKind.allCases.map(\.rawValue)))),
            required("whoop_id", .identifier(maxLength: 64)),
            required("recorded_at", .instant),
            required("record", .json(.object, maxBytes: 16384)),
        ],
        naturalKey: { row in
            guard let kind = row["kind"]?.stringValue, let id = row["whoop_id"]?.stringValue else { return nil }
            return WhoopRow.id(kind: kind, whoopID: id)
        }
    )
}

/// Limits of a synced calendar row.
public enum CalendarRow {
    /// The longest calendar text that syncs (a busy year of a work calendar is well under it);
    /// a longer one stays on the device that read it.
    public static let maxICSCharacters = 1_000_000
}

/// The kinds of synced WHOOP records (the `kind` of a `whoop_records` row).
public enum WhoopRecordKind: String, Sendable, CaseIterable {
    case recovery, sleep, cycle, workout
}

/// The id of a synced WHOOP record.
public enum WhoopRow {
    /// The row id of the `kind` record with WHOOP's id `whoopID` (the same on every side).
    public static func id(kind: String, whoopID: String) -> UUID {
        NaturalKey.id(table: .whoopRecords, key: "\(kind)/\(whoopID)")
    }
}
