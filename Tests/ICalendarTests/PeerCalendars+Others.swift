/// Thunderbird, Lotus Notes and Zimbra exports (see `PeerCalendars`).
extension PeerCalendars {
    /// Thunderbird: RDATE periods with an end (RFC 5545's own example) and with a length, in
    /// UTC and in a zone; the event itself lasts 30 minutes.
    static let rdatePeriods = crlf(
        """
        BEGIN:VCALENDAR
        PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN
        VERSION:2.0
        BEGIN:VEVENT
        CREATED:19960401T120000Z
        LAST-MODIFIED:19960401T120000Z
        DTSTAMP:19960401T120000Z
        UID:c1a5e2d0-7b3f-4e8a-9c6d-2f1e0a9b8c7d
        SUMMARY:Clinic hours
        DTSTART:19960402T010000Z
        DTEND:19960402T013000Z
        RDATE;VALUE=PERIOD:19960403T020000Z/19960403T040000Z,19960404T010000Z/PT3H
        RDATE;VALUE=PERIOD;TZID=America/New_York:19960405T090000/PT2H
        END:VEVENT
        END:VCALENDAR
        """
    )

    /// Lotus Notes: custom zones whose observances start on a DATE. "Customized Time Zone" has
    /// both observances so, "Customized Time Zone 1" only its STANDARD one.
    static let dateStartZones = crlf(
        """
        BEGIN:VCALENDAR
        X-LOTUS-CHARSET:UTF-8
        VERSION:2.0
        PRODID:-//Lotus Development Corporation//NONSGML Notes 9.0.1//EN_C
        METHOD:PUBLISH
        BEGIN:VTIMEZONE
        TZID:Customized Time Zone
        BEGIN:STANDARD
        DTSTART;VALUE=DATE:19701025
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
        END:STANDARD
        BEGIN:DAYLIGHT
        DTSTART;VALUE=DATE:19700329
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
        END:DAYLIGHT
        END:VTIMEZONE
        BEGIN:VTIMEZONE
        TZID:Customized Time Zone 1
        BEGIN:STANDARD
        DTSTART;VALUE=DATE:19701025
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
        END:STANDARD
        BEGIN:DAYLIGHT
        DTSTART:19700329T020000
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
        END:DAYLIGHT
        END:VTIMEZONE
        BEGIN:VEVENT
        DTSTART;TZID="Customized Time Zone":20260715T140000
        DTEND;TZID="Customized Time Zone":20260715T150000
        UID:5A3C1E7F0B9D8C6A-notes-summer
        SUMMARY:Summer review
        DTSTAMP:20260601T080000Z
        END:VEVENT
        BEGIN:VEVENT
        DTSTART;TZID="Customized Time Zone":20261215T140000
        DTEND;TZID="Customized Time Zone":20261215T150000
        UID:5A3C1E7F0B9D8C6A-notes-winter
        SUMMARY:Winter review
        DTSTAMP:20260601T080000Z
        END:VEVENT
        BEGIN:VEVENT
        DTSTART;TZID="Customized Time Zone 1":20260715T140000
        DTEND;TZID="Customized Time Zone 1":20260715T150000
        UID:5A3C1E7F0B9D8C6A-notes-summer-1
        SUMMARY:Summer review (zone 1)
        DTSTAMP:20260601T080000Z
        END:VEVENT
        BEGIN:VEVENT
        DTSTART;TZID="Customized Time Zone 1":20261215T140000
        DTEND;TZID="Customized Time Zone 1":20261215T150000
        UID:5A3C1E7F0B9D8C6A-notes-winter-1
        SUMMARY:Winter review (zone 1)
        DTSTAMP:20260601T080000Z
        END:VEVENT
        END:VCALENDAR
        """
    )

    /// Zimbra: an all-day series moved from Mondays to Tuesdays from its third occurrence on,
    /// and a series cancelled from its third occurrence on (both RANGE=THISANDFUTURE).
    static let zimbraRanges = crlf(
        """
        BEGIN:VCALENDAR
        X-WR-CALNAME:Home
        X-WR-CALID:4f1c2d3e-5a6b-7c8d-9e0f-a1b2c3d4e5f6:1234
        PRODID:Zimbra-Calendar-Provider
        VERSION:2.0
        METHOD:PUBLISH
        BEGIN:VEVENT
        UID:b1n-d4y-0001@zimbra.example.org
        SUMMARY:Bin day
        DTSTART;VALUE=DATE:20261102
        DTEND;VALUE=DATE:20261103
        RRULE:FREQ=WEEKLY;COUNT=5
        TRANSP:TRANSPARENT
        DTSTAMP:20261025T100000Z
        SEQUENCE:0
        END:VEVENT
        BEGIN:VEVENT
        UID:b1n-d4y-0001@zimbra.example.org
        SUMMARY:Bin day (Tuesday)
        RECURRENCE-ID;RANGE=THISANDFUTURE;VALUE=DATE:20261116
        DTSTART;VALUE=DATE:20261117
        DTEND;VALUE=DATE:20261118
        TRANSP:TRANSPARENT
        DTSTAMP:20261110T100000Z
        SEQUENCE:1
        END:VEVENT
        BEGIN:VEVENT
        UID:p14n0-0002@zimbra.example.org
        SUMMARY:Piano lesson
        DTSTART;TZID="Europe/Berlin":20261104T170000
        DURATION:PT45M
        RRULE:FREQ=WEEKLY;COUNT=6
        DTSTAMP:20261025T100000Z
        SEQUENCE:0
        END:VEVENT
        BEGIN:VEVENT
        UID:p14n0-0002@zimbra.example.org
        SUMMARY:Piano lesson
        RECURRENCE-ID;RANGE=THISANDFUTURE;TZID="Europe/Berlin":20261118T170000
        DTSTART;TZID="Europe/Berlin":20261118T170000
        DURATION:PT45M
        STATUS:CANCELLED
        DTSTAMP:20261112T100000Z
        SEQUENCE:1
        END:VEVENT
        END:VCALENDAR
        """
    )
}
