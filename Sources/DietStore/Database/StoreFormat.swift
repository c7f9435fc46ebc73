import DietCore
import Foundation

/// How values are written as text columns: instants as UTC ISO 8601 with milliseconds (they
/// sort as text), dates as `YYYY-MM-DD`, times as `HH:MM`.
enum StoreFormat {
    static func instant(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }

    static func instant(_ text: String) -> Date? {
        try? Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt).parse(text)
    }
}
