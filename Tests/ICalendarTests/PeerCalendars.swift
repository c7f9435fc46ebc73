import Foundation

/// Calendars written the way Apple Calendar, Outlook/Exchange, Google Calendar, Thunderbird
/// and Lotus Notes export them (PRODID, VTIMEZONE blocks, folded lines), kept as string
/// literals because the test target has no resources. `crlf` gives them the CRLF line ends
/// the files have.
enum PeerCalendars {
    static func crlf(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: "\r\n")
    }

    /// Apple Calendar: a weekly Monday meeting moved to Tuesday afternoons from one occurrence
    /// on (RANGE=THISANDFUTURE, longer and renamed), with one later occurrence moved again.
    static let appleThisAndFuture = crlf(
        """
        BEGIN:VCALENDAR
        METHOD:PUBLISH
        VERSION:2.0
        X-WR-CALNAME:Work
        PRODID:-//Apple Inc.//macOS 14.6.1//EN
        X-APPLE-CALENDAR-COLOR:#1BADF8
        X-WR-TIMEZONE:Europe/Berlin
        CALSCALE:GREGORIAN
        BEGIN:VTIMEZONE
        TZID:Europe/Berlin
        BEGIN:DAYLIGHT
        TZOFFSETFROM:+0100
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
        DTSTART:19810329T020000
        TZNAME:CEST
        TZOFFSETTO:+0200
        END:DAYLIGHT
        BEGIN:STANDARD
        TZOFFSETFROM:+0200
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
        DTSTART:19961027T030000
        TZNAME:CET
        TZOFFSETTO:+0100
        END:STANDARD
        END:VTIMEZONE
        BEGIN:VEVENT
        CREATED:20260920T101500Z
        UID:8C2B3F0E-6A41-4D0B-9E55-0F3A7C1D2E11
        DTEND;TZID=Europe/Berlin:20261005T110000
        RRULE:FREQ=WEEKLY;COUNT=10;BYDAY=MO
        TRANSP:OPAQUE
        X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC
        SUMMARY:Team meeting
        LAST-MODIFIED:20260920T101500Z
        DTSTAMP:20260920T101500Z
        DTSTART;TZID=Europe/Berlin:20261005T100000
        SEQUENCE:0
        DESCRIPTION:Weekly sync of the platform team. Agenda in the shared docume
         nt\\; please add your topics by Friday.
        END:VEVENT
        BEGIN:VEVENT
        CREATED:20260920T101500Z
        UID:8C2B3F0E-6A41-4D0B-9E55-0F3A7C1D2E11
        DTEND;TZID=Europe/Berlin:20261027T153000
        TRANSP:OPAQUE
        SUMMARY:Team meeting (Tuesdays)
        LAST-MODIFIED:20261015T081200Z
        DTSTAMP:20261015T081200Z
        DTSTART;TZID=Europe/Berlin:20261027T140000
        SEQUENCE:2
        RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20261026T100000
        END:VEVENT
        BEGIN:VEVENT
        CREATED:20260920T101500Z
        UID:8C2B3F0E-6A41-4D0B-9E55-0F3A7C1D2E11
        DTEND;TZID=Europe/Berlin:20261118T100000
        TRANSP:OPAQUE
        SUMMARY:Team meeting (offsite)
        LAST-MODIFIED:20261101T090000Z
        DTSTAMP:20261101T090000Z
        DTSTART;TZID=Europe/Berlin:20261118T090000
        SEQUENCE:3
        RECURRENCE-ID;TZID=Europe/Berlin:20261116T100000
        END:VEVENT
        END:VCALENDAR
        """
    )

    /// Outlook/Exchange: a published calendar that carries an old and a new copy of the same
    /// meeting series and of some of its exceptions (as a feed that merged the invitation and
    /// its updates does). The new series (SEQUENCE 1) moved to 09:30 and deleted Nov 4; Nov 5
    /// was moved (SEQUENCE 1), then cancelled (SEQUENCE 2); Nov 6 was moved twice with the
    /// same SEQUENCE, the later LAST-MODIFIED is the current one.
    static let exchangeDuplicates = crlf(
        """
        BEGIN:VCALENDAR
        METHOD:PUBLISH
        PRODID:Microsoft Exchange Server 2010
        VERSION:2.0
        X-WR-CALNAME:Calendar
        BEGIN:VTIMEZONE
        TZID:W. Europe Standard Time
        BEGIN:STANDARD
        DTSTART:16010101T030000
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10
        END:STANDARD
        BEGIN:DAYLIGHT
        DTSTART:16010101T020000
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3
        END:DAYLIGHT
        END:VTIMEZONE
        BEGIN:VEVENT
        DESCRIPTION:\\n
        RRULE:FREQ=WEEKLY;UNTIL=20261127T083000Z;INTERVAL=1;BYDAY=MO,TU,WE,TH,FR;W
         KST=MO
        EXDATE;TZID=W. Europe Standard Time:20261104T093000
        UID:040000008200E00074C5B7101A82E00800000000D0F4C2A1C35BDC01000000000000000
         010000000A1B2C3D4E5F60718293A4B5C6D7E8F90
        SUMMARY;LANGUAGE=en-US:Daily stand-up
        DTSTART;TZID=W. Europe Standard Time:20261102T093000
        DTEND;TZID=W. Europe Standard Time:20261102T094500
        CLASS:PUBLIC
        PRIORITY:5
        DTSTAMP:20261028T091500Z
        LAST-MODIFIED:20261028T091500Z
        TRANSP:OPAQUE
        STATUS:CONFIRMED
        SEQUENCE:1
        LOCATION;LANGUAGE=en-US:Teams
        X-MICROSOFT-CDO-BUSYSTATUS:BUSY
        X-MICROSOFT-CDO-INTENDEDSTATUS:BUSY
        END:VEVENT
        BEGIN:VEVENT
        UID:040000008200E00074C5B7101A82E00800000000D0F4C2A1C35BDC01000000000000000
         010000000A1B2C3D4E5F60718293A4B5C6D7E8F90
        RECURRENCE-ID;TZID=W. Europe Standard Time:20261105T093000
        SUMMARY;LANGUAGE=en-US:Canceled: Daily stand-up
        DTSTART;TZID=W. Europe Standard Time:20261105T093000
        DTEND;TZID=W. Europe Standard Time:20261105T094500
        DTSTAMP:20261101T070000Z
        LAST-MODIFIED:20261101T070000Z
        STATUS:CANCELLED
        SEQUENCE:2
        X-MICROSOFT-CDO-BUSYSTATUS:FREE
        END:VEVENT
        BEGIN:VEVENT
        UID:040000008200E00074C5B7101A82E00800000000D0F4C2A1C35BDC01000000000000000
         010000000A1B2C3D4E5F60718293A4B5C6D7E8F90
        RECURRENCE-ID;TZID=W. Europe Standard Time:20261106T093000
        SUMMARY;LANGUAGE=en-US:Daily stand-up (after the all-hands)
        DTSTART;TZID=W. Europe Standard Time:20261106T120000
        DTEND;TZID=W. Europe Standard Time:20261106T121500
        DTSTAMP:20261030T120000Z
        LAST-MODIFIED:20261030T120000Z
        SEQUENCE:1
        END:VEVENT
        BEGIN:VEVENT
        RRULE:FREQ=WEEKLY;UNTIL=20261127T080000Z;INTERVAL=1;BYDAY=MO,TU,WE,TH,FR;W
         KST=MO
        UID:040000008200E00074C5B7101A82E00800000000D0F4C2A1C35BDC01000000000000000
         010000000A1B2C3D4E5F60718293A4B5C6D7E8F90
        SUMMARY;LANGUAGE=en-US:Daily stand-up
        DTSTART;TZID=W. Europe Standard Time:20261102T090000
        DTEND;TZID=W. Europe Standard Time:20261102T091500
        DTSTAMP:20261020T080000Z
        LAST-MODIFIED:20261020T080000Z
        STATUS:CONFIRMED
        SEQUENCE:0
        END:VEVENT
        BEGIN:VEVENT
        UID:040000008200E00074C5B7101A82E00800000000D0F4C2A1C35BDC01000000000000000
         010000000A1B2C3D4E5F60718293A4B5C6D7E8F90
        RECURRENCE-ID;TZID=W. Europe Standard Time:20261104T093000
        SUMMARY;LANGUAGE=en-US:Daily stand-up (late)
        DTSTART;TZID=W. Europe Standard Time:20261104T160000
        DTEND;TZID=W. Europe Standard Time:20261104T161500
        DTSTAMP:20261027T100000Z
        SEQUENCE:1
        END:VEVENT
        BEGIN:VEVENT
        UID:040000008200E00074C5B7101A82E00800000000D0F4C2A1C35BDC01000000000000000
         010000000A1B2C3D4E5F60718293A4B5C6D7E8F90
        RECURRENCE-ID;TZID=W. Europe Standard Time:20261105T093000
        SUMMARY;LANGUAGE=en-US:Daily stand-up (moved)
        DTSTART;TZID=W. Europe Standard Time:20261105T110000
        DTEND;TZID=W. Europe Standard Time:20261105T111500
        DTSTAMP:20261029T100000Z
        SEQUENCE:1
        END:VEVENT
        BEGIN:VEVENT
        UID:040000008200E00074C5B7101A82E00800000000D0F4C2A1C35BDC01000000000000000
         010000000A1B2C3D4E5F60718293A4B5C6D7E8F90
        RECURRENCE-ID;TZID=W. Europe Standard Time:20261106T093000
        SUMMARY;LANGUAGE=en-US:Daily stand-up (at ten)
        DTSTART;TZID=W. Europe Standard Time:20261106T100000
        DTEND;TZID=W. Europe Standard Time:20261106T101500
        DTSTAMP:20261029T080000Z
        LAST-MODIFIED:20261029T080000Z
        SEQUENCE:1
        END:VEVENT
        END:VCALENDAR
        """
    )

    /// Google Calendar: three events whose RRULE is empty or damaged, and a sound one.
    static let googleDamagedRules = crlf(
        """
        BEGIN:VCALENDAR
        PRODID:-//Google Inc//Google Calendar 70.9054//EN
        VERSION:2.0
        CALSCALE:GREGORIAN
        METHOD:PUBLISH
        X-WR-CALNAME:Training
        X-WR-TIMEZONE:Europe/Berlin
        BEGIN:VEVENT
        DTSTART;TZID=Europe/Berlin:20261123T073000
        DTEND;TZID=Europe/Berlin:20261123T083000
        RRULE:
        DTSTAMP:20261120T120000Z
        UID:0v5c9kq1r3m8t2s6u4w7y9a1b3@google.com
        CREATED:20261101T100000Z
        LAST-MODIFIED:20261101T100000Z
        SEQUENCE:0
        STATUS:CONFIRMED
        SUMMARY:Physio
        TRANSP:OPAQUE
        END:VEVENT
        BEGIN:VEVENT
        DTSTART;TZID=Europe/Berlin:20261124T180000
        DTEND;TZID=Europe/Berlin:20261124T190000
        RRULE:FREQ=SOMETIMES
        DTSTAMP:20261120T120000Z
        UID:1a2b3c4d5e6f7g8h9i0j@google.com
        SEQUENCE:0
        STATUS:CONFIRMED
        SUMMARY:Yoga
        END:VEVENT
        BEGIN:VEVENT
        DTSTART;TZID=Europe/Berlin:20261125T190000
        DTEND;TZID=Europe/Berlin:20261125T200000
        RRULE:FREQ=WEEKLY;BYDAY=XX
        DTSTAMP:20261120T120000Z
        UID:9z8y7x6w5v4u3t2s1r0q@google.com
        SEQUENCE:0
        STATUS:CONFIRMED
        SUMMARY:Run club
        END:VEVENT
        BEGIN:VEVENT
        DTSTART;TZID=Europe/Berlin:20261126T070000
        DTEND;TZID=Europe/Berlin:20261126T080000
        RRULE:FREQ=WEEKLY;BYDAY=TH
        DTSTAMP:20261120T120000Z
        UID:swim5k3j2h1g0f9e8d7c6b@google.com
        SEQUENCE:0
        STATUS:CONFIRMED
        SUMMARY:Swim
        END:VEVENT
        END:VCALENDAR
        """
    )

    /// Apple iCal (RFC 2445 era): one event with two RRULEs whose sets share Dec 1 and Dec 15.
    static let twoRules = crlf(
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        X-WR-CALNAME:Choir
        PRODID:-//Apple Computer\\, Inc//iCal 1.5//EN
        X-WR-TIMEZONE:Europe/Berlin
        BEGIN:VTIMEZONE
        TZID:Europe/Berlin
        LAST-MODIFIED:20050809T050000Z
        BEGIN:STANDARD
        DTSTART:20051030T010000
        TZOFFSETTO:+0100
        TZOFFSETFROM:+0000
        TZNAME:CET
        END:STANDARD
        END:VTIMEZONE
        BEGIN:VEVENT
        DTSTART;TZID=Europe/Berlin:20261201T180000
        DURATION:PT1H30M
        RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TU
        RRULE:FREQ=MONTHLY;COUNT=4;BYMONTHDAY=1,15,31
        SUMMARY:Choir rehearsal
        UID:3F6C1B2A-9D8E-4C7B-A6F5-E4D3C2B1A098
        SEQUENCE:1
        DTSTAMP:20261110T201500Z
        END:VEVENT
        END:VCALENDAR
        """
    )
}
