import DietCore
import Foundation
import TestSupport
import Testing

@Suite("Cycle across DST and time zones")
struct CycleTimeZoneTests {
    @Test("Berlin spring forward (2026-03-29) on the day maintenance starts")
    func berlinSpringForward() {
        // Start 2026-03-08: programme day 22 = 2026-03-29, the DST day
        let engine = CycleEngine(startDate: .ymd(2026, 3, 8), preset: .openEnded)
        let clock = FixedClock.at(.ymd(2026, 3, 28), 23, 59, 59, in: Zones.berlin)
        #expect(engine.day(on: clock.today(in: Zones.berlin)).phase == .diet)
        clock.advance(by: 1)
        #expect(engine.day(on: clock.today(in: Zones.berlin)).phase == .maintenance)
        // 02:00 → 03:00 skipped: 01:59:59 + 1 s is 03:00, still the same local date
        clock.set(FixedClock.at(.ymd(2026, 3, 29), 1, 59, 59, in: Zones.berlin).now().addingTimeInterval(1))
        #expect(clock.today(in: Zones.berlin) == .ymd(2026, 3, 29))
        // The day is 23 h long: its last second is still maintenance day 1
        clock.set(FixedClock.at(.ymd(2026, 3, 29), 23, 59, 59, in: Zones.berlin).now())
        #expect(engine.day(on: clock.today(in: Zones.berlin)).dayInPhase == 1)
        clock.advance(by: 1)
        #expect(engine.day(on: clock.today(in: Zones.berlin)).dayInPhase == 2)
    }

    @Test("Berlin fall back (2026-10-25) on the day the first diet block starts")
    func berlinFallBack() {
        // Start 2026-10-18: programme day 8 = 2026-10-25; the day is 25 h long
        let engine = CycleEngine(startDate: .ymd(2026, 10, 18), preset: .openEnded)
        let clock = FixedClock.at(.ymd(2026, 10, 24), 23, 59, 59, in: Zones.berlin)
        #expect(engine.day(on: clock.today(in: Zones.berlin)).phase == .habit)
        clock.advance(by: 1)
        #expect(engine.day(on: clock.today(in: Zones.berlin)).phase == .diet)
        // 25 hours after midnight is 00:00 of the next day, not 01:00
        clock.advance(by: 24 * 3600)
        #expect(clock.today(in: Zones.berlin) == .ymd(2026, 10, 25))
        clock.advance(by: 3600)
        #expect(engine.day(on: clock.today(in: Zones.berlin)).dayInPhase == 2)
    }

    @Test("New York spring forward (2026-03-08) on the day a diet block starts")
    func newYorkSpringForward() {
        // Start 2026-02-01: programme day 36 = 2026-03-08, diet block 3
        let engine = CycleEngine(startDate: .ymd(2026, 2, 1), preset: .openEnded)
        let clock = FixedClock.at(.ymd(2026, 3, 7), 23, 59, 59, in: Zones.newYork)
        let before = engine.day(on: clock.today(in: Zones.newYork))
        clock.advance(by: 1)
        let after = engine.day(on: clock.today(in: Zones.newYork))
        #expect(before.phase == .maintenance && before.dayInPhase == 14)
        #expect(after.phase == .diet && after.dayInPhase == 1 && after.blockNumber == 3)
    }

    @Test("New York fall back (2026-11-01) on the day maintenance starts")
    func newYorkFallBack() {
        // Start 2026-10-11: programme day 22 = 2026-11-01
        let engine = CycleEngine(startDate: .ymd(2026, 10, 11), preset: .openEnded)
        let clock = FixedClock.at(.ymd(2026, 11, 1), 1, 30, in: Zones.newYork)
        #expect(engine.day(on: clock.today(in: Zones.newYork)).phase == .maintenance)
        // 01:30 happens twice; an hour later it is 01:30 again, same local date and phase
        clock.advance(by: 3600)
        #expect(clock.today(in: Zones.newYork) == .ymd(2026, 11, 1))
        #expect(engine.day(on: clock.today(in: Zones.newYork)).programmeDay == 22)
    }

    @Test("flying west from Berlin to Los Angeles the night of a switch: the LA date decides")
    func moveWest() throws {
        // Alice's switch to maintenance is 2026-01-26 (programme day 22). Evaluated in Berlin at 02:00 on the 26th.
        let stored = try #require(
            try? CycleRecovery.check(
                stored: CycleState.start(on: .ymd(2026, 1, 5), preset: .openEnded, timeZone: Zones.berlin),
                startDate: .ymd(2026, 1, 5),
                preset: .openEnded,
                today: .ymd(2026, 1, 26),
                timeZone: Zones.berlin
            ).state
        )
        // Six hours later (08:00 Berlin) she opens the app in Los Angeles, where it is 23:00 on the 25th
        let clock = FixedClock.at(.ymd(2026, 1, 26), 8, in: Zones.berlin)
        let today = clock.today(in: Zones.losAngeles)
        let outcome = try CycleRecovery.check(
            stored: stored,
            startDate: .ymd(2026, 1, 5),
            preset: .openEnded,
            today: today,
            timeZone: Zones.losAngeles
        )
        #expect(today == .ymd(2026, 1, 25))
        #expect(outcome.day.phase == .diet && outcome.day.dayInPhase == 14)
        #expect(outcome.reason == .timeZoneChange)
        #expect(outcome.state.timeZoneIdentifier == "America/Los_Angeles")
    }

    @Test("flying east from Berlin to Auckland the day before a switch: the switch comes early")
    func moveEast() throws {
        // Evaluated in Berlin on 2026-01-25 (diet day 14) at 10:00
        let stored = CycleState(
            startDate: .ymd(2026, 1, 5),
            preset: .openEnded,
            phase: .diet,
            programmeDay: 21,
            evaluatedOn: .ymd(2026, 1, 25),
            timeZoneIdentifier: "Europe/Berlin",
            announcedPhaseStart: .ymd(2026, 1, 12)
        )
        // At 12:30 Berlin time it is 00:30 on the 26th in Auckland (UTC+13 in January)
        let clock = FixedClock.at(.ymd(2026, 1, 25), 12, 30, in: Zones.berlin)
        let outcome = try CycleRecovery.check(
            stored: stored,
            startDate: .ymd(2026, 1, 5),
            preset: .openEnded,
            today: clock.today(in: Zones.auckland),
            timeZone: Zones.auckland
        )
        #expect(outcome.day.programmeDay == 22 && outcome.day.phase == .maintenance)
        #expect(outcome.reason == .timeZoneChange)
        let plan = EnergyPlan(profile: .alice, on: outcome.day.date)
        #expect(PhaseSwitchNotice.due(state: outcome.state, day: outcome.day, plan: plan)?.to == .maintenance)
    }

    @Test("the phase of a local date never depends on the instant within that day, in any time zone")
    func everyZone() {
        // Dates around the DST changes of both hemispheres in 2026, and the switch days of a start on 2026-03-01
        let engine = CycleEngine(startDate: .ymd(2026, 3, 1), preset: .openEnded)
        let dates: [LocalDate] = [
            .ymd(2026, 3, 7), .ymd(2026, 3, 8), .ymd(2026, 3, 22), .ymd(2026, 3, 28), .ymd(2026, 3, 29),
            .ymd(2026, 4, 4), .ymd(2026, 4, 5), .ymd(2026, 9, 27), .ymd(2026, 10, 4), .ymd(2026, 10, 25),
            .ymd(2026, 11, 1),
        ]
        var checked = 0
        for identifier in TimeZone.knownTimeZoneIdentifiers {
            guard let zone = TimeZone(identifier: identifier) else { continue }
            for date in dates {
                let expected = engine.day(on: date)
                let first = date.startOfDay(in: zone)
                let last = date.adding(days: 1).startOfDay(in: zone).addingTimeInterval(-1)
                for instant in [first, date.instant(at: .hm(12), in: zone), last] {
                    let local = LocalDate(instant, in: zone)
                    #expect(local == date, "\(identifier) \(date) \(instant)")
                    #expect(engine.day(on: local) == expected, "\(identifier) \(date)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 400 * dates.count * 3)
    }
}
