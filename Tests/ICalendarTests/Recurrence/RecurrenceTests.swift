import Testing

@testable import ICalendar

@Suite("Recurrence rules")
struct RecurrenceTests {
    private func expand(_ rule: String, from start: CivilDateTime, until: CivilDateTime? = nil, limit: Int = 50) throws -> [String] {
        RecurrenceIterator(rule: try RecurrenceRule(parsing: rule), start: start, until: until).prefix(limit).map(\.description)
    }

    @Test(
        "rules that can never produce an instance end instead of looping",
        arguments: [
            "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=4,6,9,11", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31",
            "FREQ=WEEKLY;BYDAY=MO;BYMONTHDAY=31;BYMONTH=2", "FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30;BYHOUR=3", "FREQ=YEARLY;BYWEEKNO=53;BYMONTH=6",
        ]
    )
    func neverProduces(rule: String) throws {
        #expect(try expand(rule, from: CivilDateTime(year: 2026, month: 1, day: 1, hour: 9)).isEmpty)
    }

    @Test("a weekly rule across New Year and a DST weekend keeps its wall time")
    func weeklyAcrossYears() throws {
        let instances = try expand("FREQ=WEEKLY;BYDAY=TU,FR;COUNT=5", from: CivilDateTime(year: 2026, month: 12, day: 25, hour: 9, minute: 30))
        #expect(instances == ["20261225T093000", "20261229T093000", "20270101T093000", "20270105T093000", "20270108T093000"])
    }

    @Test("the last weekday of the month, every other month, until a date")
    func lastFriday() throws {
        let instances = try expand(
            "FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR",
            from: CivilDateTime(year: 2026, month: 1, day: 30, hour: 17),
            until: CivilDateTime(year: 2026, month: 9, day: 1)
        )
        #expect(instances == ["20260130T170000", "20260327T170000", "20260529T170000", "20260731T170000"])
    }

    @Test(
        "bad rules are refused naming the part",
        arguments: [
            ("FREQ=FORTNIGHTLY", "FREQ “FORTNIGHTLY”"), ("BYDAY=MO", "FREQ is missing"), ("FREQ=DAILY;COUNT=0", "COUNT"),
            ("FREQ=DAILY;INTERVAL=-2", "INTERVAL"), ("FREQ=DAILY;BYHOUR=24", "BYHOUR value “24”"), ("FREQ=WEEKLY;BYDAY=XX", "BYDAY “XX”"),
            ("FREQ=DAILY;COUNT=3;UNTIL=20260101", "COUNT and UNTIL"), ("FREQ=DAILY;UNTIL=2026-01-01", "UNTIL"),
            ("FREQ=DAILY;BYSETPOS=1", "BYSETPOS needs"), ("FREQ=DAILY;FREQ=WEEKLY", "FREQ appears twice"), ("FREQ=DAILY;RSCALE=GREGORIAN", "RSCALE"),
            ("FREQ=MONTHLY;BYDAY=0MO", "ordinal"), ("FREQ=DAILY;COUNT", "is not NAME=VALUE"),
        ]
    )
    func badRules(rule: String, mentions: String) {
        do {
            _ = try RecurrenceRule(parsing: rule)
            Issue.record("\(rule) was accepted")
        } catch {
            #expect(error.description.contains(mentions), "\(error)")
        }
    }
}

@Suite("Skipping ahead in a recurrence")
struct SkipTests {
    @Test(
        "skipping to a later period gives exactly the occurrences a full expansion gives from there",
        arguments: [
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;WKST=SU", "FREQ=MONTHLY;BYDAY=-1FR,2MO", "FREQ=MONTHLY;INTERVAL=5;BYMONTHDAY=31,-1",
            "FREQ=YEARLY;BYWEEKNO=1,53;BYDAY=MO", "FREQ=YEARLY;INTERVAL=3;BYMONTH=2;BYMONTHDAY=29", "FREQ=DAILY;INTERVAL=9;BYMONTH=1,7",
            "FREQ=HOURLY;INTERVAL=7;BYHOUR=1,9,17", "FREQ=MINUTELY;INTERVAL=97;BYHOUR=10", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
            "FREQ=SECONDLY;INTERVAL=7777", "FREQ=YEARLY;UNTIL=20400101T000000Z;BYMONTH=3;BYDAY=-1SU",
        ]
    )
    func skipMatchesFullExpansion(rule text: String) throws {
        let rule = try RecurrenceRule(parsing: text)
        let start = CivilDateTime(year: 2001, month: 1, day: 31, hour: 9, minute: 13, second: 5)
        for target in [
            CivilDateTime(year: 2026, month: 11, day: 23, hour: 11), CivilDateTime(year: 2001, month: 3, day: 1),
            CivilDateTime(year: 2027, month: 2, day: 28, hour: 23, minute: 59),
        ] {
            let full = Array(RecurrenceIterator(rule: rule, start: start, until: nil).lazy.filter { $0 >= target }.prefix(40))
            var skipping = RecurrenceIterator(rule: rule, start: start, until: nil)
            skipping.skip(toPeriodContaining: target)
            let skipped = Array(skipping.lazy.filter { $0 >= target }.prefix(40))
            #expect(skipped == full, "\(text) from \(target)")
        }
    }
}
