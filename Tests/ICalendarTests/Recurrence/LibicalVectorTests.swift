import Foundation
import Testing

@testable import ICalendar

/// libical's RRULE vectors (`../shared/reference/libical-icalrecur_test.txt`), read at test
/// time and never copied into the project.
///
/// Policy for the cases that are disputed or outside RFC 5545:
/// - `START-AT` is a libical iterator feature (start the iteration later); the listed
///   instances are the full set, so it is ignored.
/// - A floating DTSTART with a UTC UNTIL compares the wall times as if the start were UTC,
///   as libical does; in a calendar the expansion converts UNTIL to the event's zone instead.
/// - For a date-only DTSTART the time parts (BYHOUR, BYMINUTE, BYSECOND) are ignored, and an
///   UNTIL date includes that whole day.
/// - Cases libical marks `*** UNIMPLEMENTED` have no expected answer and are not compared.
/// - `knownDifferences` lists, with a reason, the cases where this engine and libical differ;
///   the test fails if another case differs, and also if a listed one starts agreeing.
struct LibicalVectorTests {
    struct Vector {
        let line: Int
        let title: String
        let rule: String
        let start: String
        let instances: [String]?
    }

    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/reference/libical-icalrecur_test.txt")

    /// Line of the RRULE → why libical's answer is not followed.
    static let knownDifferences: [Int: String] = [
        681: "DTSTART (a Sunday) is not an instance of its own rule (BYDAY=TH), a set RFC 5545 leaves undefined; "
            + "intervals count from DTSTART's week-numbering year 2026 here, from its calendar year 2027 in libical",
        686: "the same as line 681 with INTERVAL=5",
    ]

    static func vectors() throws -> [Vector] {
        let text = try String(contentsOf: file, encoding: .utf8)
        var vectors: [Vector] = []
        var title = ""
        var rule = ""
        var start = ""
        var ruleLine = 0
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("#") { title = line.dropFirst().trimmingCharacters(in: .whitespaces) }
            if line.hasPrefix("RRULE:") {
                rule = String(line.dropFirst(6))
                ruleLine = index + 1
            }
            if line.hasPrefix("DTSTART:") { start = String(line.dropFirst(8)) }
            if line.hasPrefix("INSTANCES:") {
                let list = line.dropFirst(10).trimmingCharacters(in: .whitespaces)
                let instances: [String]? = list.contains("UNIMPLEMENTED") ? nil : list.split(separator: ",").map(String.init)
                vectors.append(Vector(line: ruleLine, title: title, rule: rule, start: start, instances: instances))
            }
        }
        return vectors
    }

    /// The expansion of one vector, formatted as libical lists it.
    static func expand(_ vector: Vector, limit: Int) throws -> [String] {
        var rule = try RecurrenceRule(parsing: vector.rule)
        let dateOnly = vector.start.count == 8
        let utc = vector.start.hasSuffix("Z")
        let start: CivilDateTime
        if dateOnly {
            start = try #require(DateValue.parseDate(vector.start))
            rule.byHour = []
            rule.byMinute = []
            rule.bySecond = []
        } else {
            start = try #require(DateValue.parseDateTime(vector.start)).0
        }
        var until: CivilDateTime?
        switch rule.until {
        case let .date(date)?:
            until = dateOnly ? date : CivilDateTime(year: date.year, month: date.month, day: date.day, hour: 23, minute: 59, second: 59)
        case let .utc(value)?, let .floating(value)?:
            until = dateOnly ? CivilDateTime(year: value.year, month: value.month, day: value.day) : value
        case nil:
            until = nil
        }
        return RecurrenceIterator(rule: rule, start: start, until: until).prefix(limit).map { occurrence in
            dateOnly ? occurrence.dateDescription : occurrence.description + (utc ? "Z" : "")
        }
    }

    @Test("libical's RRULE vectors expand to libical's instances, apart from the written policy")
    func vectorsMatch() throws {
        let vectors = try Self.vectors()
        #expect(vectors.count >= 140)
        var compared = 0
        var agreed = 0
        var failures: [String] = []
        for vector in vectors {
            guard let expected = vector.instances else { continue }
            compared += 1
            let actual: [String]
            do {
                actual = try Self.expand(vector, limit: expected.count + 1)
            } catch {
                failures.append("line \(vector.line) \(vector.title): \(error)")
                continue
            }
            let matches = actual == expected
            if matches { agreed += 1 }
            switch (matches, Self.knownDifferences[vector.line]) {
            case (false, nil):
                failures.append(
                    "line \(vector.line) \(vector.title)\n  \(vector.rule) from \(vector.start)\n  expected \(expected.prefix(8))…\n  got      \(actual.prefix(8))…"
                )
            case (true, let reason?):
                failures.append("line \(vector.line) is listed as a known difference (\(reason)) but agrees now")
            default:
                break
            }
        }
        print("libical vectors: \(agreed) of \(compared) agree")
        #expect(failures.isEmpty, "\(failures.count) vectors:\n\(failures.joined(separator: "\n"))")
    }
    /// Two bounded vectors with the same DTSTART as one event with both RRULEs, and the
    /// window that holds all their instances.
    static func twoRuleCalendar(_ first: Vector, _ second: Vector) -> String {
        let start = first.start.count == 8 ? "DTSTART;VALUE=DATE:\(first.start)" : "DTSTART:\(first.start)"
        return PeerCalendars.crlf(
            """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//libical vectors//EN
            BEGIN:VEVENT
            UID:line-\(first.line)-and-\(second.line)
            DTSTAMP:20260101T000000Z
            \(start)
            RRULE:\(first.rule)
            RRULE:\(second.rule)
            END:VEVENT
            END:VCALENDAR
            """
        )
    }

    @Test("an event with two of libical's bounded rules from the same DTSTART expands to the union of their instances")
    func twoRulesGiveTheUnion() throws {
        // Given every pair of neighbouring bounded vectors (COUNT or UNTIL) that share a DTSTART
        let bounded = try Self.vectors().filter { vector in
            vector.instances != nil && Self.knownDifferences[vector.line] == nil && (vector.rule.contains("COUNT=") || vector.rule.contains("UNTIL="))
        }
        let pairs = Dictionary(grouping: bounded, by: \.start).values.flatMap { group in zip(group, group.dropFirst()) }
        #expect(pairs.count >= 40)
        var failures: [String] = []
        for (first, second) in pairs {
            // When one event carries both rules and the whole span is expanded
            let document = try ICalendarDocument(parsing: Self.twoRuleCalendar(first, second))
            let dateOnly = first.start.count == 8
            let utc = first.start.hasSuffix("Z")
            let format: (Date) -> String = { date in
                let civil = CivilDateTime(secondsAsUTC: Int64(date.timeIntervalSince1970))
                return dateOnly ? civil.dateDescription : civil.description + (utc ? "Z" : "")
            }
            let all = (first.instances ?? []) + (second.instances ?? []) + [first.start]
            let span = try all.map { text in try #require(DateValue.parseDate(text.prefix(8))).secondsAsUTC }
            let window = DateInterval(
                start: Date(timeIntervalSince1970: TimeInterval(try #require(span.min()) - 86400)),
                end: Date(timeIntervalSince1970: TimeInterval(try #require(span.max()) + 2 * 86400))
            )
            let actual = document.occurrences(in: window, floatingZone: .gmt).map { format($0.start) }
            // Then each instance of either rule (and DTSTART) is there once, in order
            let expected = Set(all).sorted()
            if actual != expected || !document.problems.isEmpty {
                failures.append(
                    "lines \(first.line) + \(second.line): expected \(expected.prefix(6))…, got \(actual.prefix(6))… \(document.problems)"
                )
            }
        }
        #expect(failures.isEmpty, "\(failures.count) pairs:\n\(failures.joined(separator: "\n"))")
    }
}
