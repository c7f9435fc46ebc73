import DietCore
import Foundation
import TestSupport
import Testing

@Suite("LocalDate")
struct LocalDateTests {
    @Test("day numbers round-trip for every day from 1900 to 2200")
    func dayNumberRoundTrip() {
        let start = LocalDate.ymd(1900, 1, 1).dayNumber
        let end = LocalDate.ymd(2200, 12, 31).dayNumber
        var previous: LocalDate?
        var failures = 0
        for number in start...end {
            let date = LocalDate(dayNumber: number)
            if date.dayNumber != number { failures += 1 }
            if let previous, !(previous < date) || previous.adding(days: 1) != date { failures += 1 }
            previous = date
        }
        #expect(failures == 0)
    }

    @Test("1970-01-01 is day 0 and a Thursday")
    func epoch() {
        #expect(LocalDate.ymd(1970, 1, 1).dayNumber == 0)
        #expect(LocalDate.ymd(1970, 1, 1).isoWeekday == 4)
        #expect(LocalDate.ymd(2026, 11, 22).isoWeekday == 7)
    }

    @Test("impossible dates are rejected", arguments: [(2026, 2, 29), (2026, 13, 1), (2026, 4, 31), (2026, 0, 10), (2026, 1, 0)])
    func impossible(year: Int, month: Int, day: Int) {
        #expect(LocalDate(year: year, month: month, day: day) == nil)
    }

    @Test("leap days exist in leap years only")
    func leapDays() {
        #expect(LocalDate(year: 2024, month: 2, day: 29) != nil)
        #expect(LocalDate(year: 2000, month: 2, day: 29) != nil)
        #expect(LocalDate(year: 1900, month: 2, day: 29) == nil)
    }

    @Test("ISO strings parse and print; malformed ones are rejected")
    func isoStrings() {
        #expect(LocalDate(iso: "2026-03-29") == .ymd(2026, 3, 29))
        #expect(LocalDate.ymd(2026, 3, 9).iso == "2026-03-09")
        for bad in ["2026-3-29", "26-03-29", "2026/03/29", "", "2026-02-30", "abcd-ef-gh"] {
            #expect(LocalDate(iso: bad) == nil)
        }
    }

    @Test("the same instant is a different local date on either side of the date line")
    func dateLine() {
        let instant = LocalDate.ymd(2026, 6, 1).instant(at: .hm(20), in: Zones.losAngeles)
        #expect(LocalDate(instant, in: Zones.losAngeles) == .ymd(2026, 6, 1))
        #expect(LocalDate(instant, in: Zones.auckland) == .ymd(2026, 6, 2))
    }

    @Test("days(to:) counts calendar days across a DST change, not 86,400-second blocks")
    func daysAcrossDST() {
        #expect(LocalDate.ymd(2026, 3, 28).days(to: .ymd(2026, 3, 30)) == 2)
        #expect(LocalDate.ymd(2026, 12, 31).days(to: .ymd(2027, 1, 1)) == 1)
        #expect(LocalDate.ymd(2024, 2, 28).days(to: .ymd(2024, 3, 1)) == 2)
    }

    @Test("start of day on the DST change days is local midnight")
    func startOfDayAcrossDST() {
        let spring = LocalDate.ymd(2026, 3, 29).startOfDay(in: Zones.berlin)
        #expect(TimeOfDay(spring, in: Zones.berlin) == .hm(0))
        let autumn = LocalDate.ymd(2026, 10, 25)
        let length = autumn.adding(days: 1).startOfDay(in: Zones.berlin).timeIntervalSince(autumn.startOfDay(in: Zones.berlin))
        #expect(length == 25 * 3600)
    }

    @Test("Codable as a YYYY-MM-DD string")
    func codable() throws {
        let data = try JSONEncoder().encode([LocalDate.ymd(2026, 1, 5)])
        #expect(String(decoding: data, as: UTF8.self) == "[\"2026-01-05\"]")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([LocalDate].self, from: Data("[\"2026-1-5\"]".utf8)) }
    }
}
