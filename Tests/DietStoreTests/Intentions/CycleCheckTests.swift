import DietCore
import Foundation
import GRDB
import TestSupport
import Testing

@testable import DietStore

@Suite("Cycle check on open")
struct CycleCheckTests {
    @Test("opening on the start day changes nothing and writes nothing")
    func sameDay() throws {
        let (store, _) = try makeStore()
        let before = try store.count("sync_outbox")
        let check = try store.checkCycle(timeZone: Zones.berlin)
        #expect(check.day.phase == .habit && check.recovered == nil && !check.switched)
        #expect(try store.count("sync_outbox") == before)
    }

    @Test("the first open after the habit week records the switch to diet, without a recovery")
    func ordinarySwitch() throws {
        let (store, clock) = try makeStore()
        clock.set(FixedClock.at(.ymd(2026, 1, 12), 7, in: Zones.berlin).now())
        let check = try store.checkCycle(timeZone: Zones.berlin)
        #expect(check.day.phase == .diet && check.switched && check.recovered == nil)
        #expect(try store.eventNames().suffix(1) == ["phase_switched"])
        #expect(try store.cycleState()?.phase == .diet)
    }

    @Test("40 days away is recovered as a missed transition and recorded")
    func missed() throws {
        let (store, clock) = try makeStore()
        clock.advance(by: 40 * 86_400)
        let check = try store.checkCycle(timeZone: Zones.berlin)
        #expect(check.recovered == .missedTransition)
        #expect(try store.eventNames().suffix(2) == ["cycle_recovered", "phase_switched"])
        let reason = try store.reader.read { db in
            try String.fetchOne(db, sql: "SELECT json_extract(properties, '$.reason') FROM analytics_events WHERE name = 'cycle_recovered'")
        }
        #expect(reason == "missed_transition")
    }

    @Test("a damaged cycle row is rebuilt from the profile's start date")
    func damaged() throws {
        let (store, _) = try makeStore()
        try store.writer.write { db in try db.execute(sql: "UPDATE cycle_states SET phase = 'maintenance'") }
        let check = try store.checkCycle(timeZone: Zones.berlin)
        #expect(check.recovered == .corruptedState)
        #expect(try store.cycleState()?.phase == .habit)
        #expect(try store.settings()?.startDate == .ymd(2026, 1, 5))
    }

    @Test("the phase-switch message, once acknowledged, is not due again")
    func acknowledge() throws {
        let (store, clock) = try makeStore()
        clock.set(FixedClock.at(.ymd(2026, 1, 12), 7, in: Zones.berlin).now())
        try store.checkCycle(timeZone: Zones.berlin)
        let state = try #require(try store.cycleState())
        let day = CycleEngine(startDate: .ymd(2026, 1, 5), preset: .openEnded).day(on: .ymd(2026, 1, 12))
        let plan = EnergyPlan(profile: .alice, on: day.date)
        #expect(PhaseSwitchNotice.due(state: state, day: day, plan: plan) != nil)
        try store.acknowledgePhaseSwitch(timeZone: Zones.berlin)
        let after = try #require(try store.cycleState())
        #expect(PhaseSwitchNotice.due(state: after, day: day, plan: plan) == nil)
    }
}
