import Foundation

extension TableSchema {
    /// A calendar of the briefing: where it comes from and its last fetched text (lines joined
    /// by LF: the contract refuses CR), so a device that never read the file or address still
    /// briefs from it. `kind` is `file` or `address`.
    static let calendarSources = TableSchema(
        [
            required("name", .text(1...100)),
            required("kind", .choice(["file", "address"])),
            required("location", .freeText(maxCharacters: 2048)),
            required("added_at", .instant),
            required("fetched_at", .instant),
            required("ics", .freeText(maxCharacters: CalendarRow.maxICSCharacters)),
        ],
        check: { row in
            // Every device fetches an address again when its copy is an hour old: it must be one.
            guard row["kind"]?.stringValue == "address", let location = row["location"]?.stringValue else { return nil }
            return CalendarRow.addressProblem(location).map { ("location", $0) }
        }
    )

    /// One WHOOP record as the v2 API returned it (`record`, JSON text), keyed by its kind and
    /// WHOOP's id: recovery by cycle id, sleep and workout by their UUIDs, cycle by its id.
    static let whoopRecords = TableSchema(
        [
            required("kind", .choice(Set(WhoopRecordKind.allCases.map(\.rawValue)))),
            required("whoop_id", .identifier(maxLength: 64)),
            required("recorded_at", .instant),
            required("record", .json(.anyObject, maxBytes: 16384)),
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

    /// The schemes a calendar address may have; `webcal` is fetched over https.
    public static let addressSchemes: Set<String> = ["http", "https", "webcal"]

    /// Why `location` is not a calendar address every device may fetch (an http, https or
    /// webcal URL with a host, no user name or password, no space or control character), or nil.
    /// Whether its host is public is each device's own check when it fetches.
    public static func addressProblem(_ location: String) -> String? {
        if location.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) {
            return "an address must not contain spaces or control characters"
        }
        guard let components = URLComponents(string: location), let scheme = components.scheme?.lowercased(),
            addressSchemes.contains(scheme)
        else { return "must be an http, https or webcal address; got \(FieldRule.shown(location))" }
        guard let host = components.host, !host.isEmpty else { return "must name a host; got \(FieldRule.shown(location))" }
        guard components.user == nil, components.password == nil else { return "must not hold a user name or password" }
        return nil
    }
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
