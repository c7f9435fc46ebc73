import DietCore
import Foundation
import GRDB
import SyncProtocol
import TestSupport
import Testing

@testable import DietStore

@Suite("Recovery mode in the store")
struct RecoveryStoreTests {
    /// Programme day 12 of a start on 2026-01-05: a diet day.
    let switchDay = LocalDate.ymd(2026, 1, 16)

    func mindful(_ name: String = "Pasta with friends", at clock: FixedClock) throws -> MindfulMealEntry {
        try MindfulMealEntry(name: name, hunger: .satisfied, fullness: .neutral, feeling: .social, at: clock.now(), in: Zones.berlin)
    }

    /// A store on programme day 12 whose cycle was checked this morning.
    func storeOnDietDay() throws -> (AppDatabase, FixedClock) {
        let (store, clock) = try makeStore()
        clock.set(FixedClock.at(switchDay, 7, in: Zones.berlin).now())
        try store.checkCycle(timeZone: Zones.berlin)
        return (store, clock)
    }

    @Test("a mindful meal is kept, listed by day, and queued for sync")
    func logAndList() throws {
        let (store, clock) = try makeStore()
        let meal = try store.logMindfulMeal(try mindful(at: clock))
        #expect(try store.mindfulMeals(on: .ymd(2026, 1, 5)) == [meal])
        #expect(try store.mindfulMeals(on: .ymd(2026, 1, 6)).isEmpty)
        let queued = try store.reader.read { db in
            try String.fetchOne(
                db,
                sql: "SELECT row FROM sync_outbox WHERE table_name = 'mindful_meals' AND row_id = ?",
                arguments: [meal.id.uuidString]
            )
        }
        #expect(queued?.contains(#""hunger":4"#) == true)
        #expect(queued?.contains(#""feeling":"social""#) == true)
    }

    @Test("logging again with the same id is a replay that changes nothing")
    func replay() throws {
        let (store, clock) = try makeStore()
        let id = UUID()
        let first = try store.logMindfulMeal(try mindful(at: clock), id: id)
        let again = try store.logMindfulMeal(try mindful("Something else", at: clock), id: id)
        #expect(again == first)
        #expect(try store.count("mindful_meals") == 1)
    }

    @Test("edit keeps the id; delete leaves a tombstone that syncs; restore brings it back")
    func editDeleteRestore() throws {
        let (store, clock) = try makeStore()
        let meal = try store.logMindfulMeal(try mindful(at: clock))
        var changed = meal.entry
        changed.fullness = .veryFull
        _ = try store.editMindfulMeal(meal.id, to: changed)
        #expect(try store.mindfulMeal(meal.id)?.entry.fullness == .veryFull)
        try store.deleteMindfulMeal(meal.id)
        #expect(try store.mindfulMeals(on: .ymd(2026, 1, 5)).isEmpty)
        #expect(try store.count("mindful_meals") == 1)
        let tombstone = try store.reader.read { db in
            try Bool.fetchOne(db, sql: "SELECT deleted FROM sync_outbox WHERE row_id = ?", arguments: [meal.id.uuidString])
        }
        #expect(tombstone == true)
        #expect(throws: StoreError.self) { try store.deleteMindfulMeal(meal.id) }
        _ = try store.restoreMindfulMeal(meal.id)
        #expect(try store.mindfulMeals(on: .ymd(2026, 1, 5)).count == 1)
    }

    @Test("a mindful meal makes its day active for the streak, and deleting it makes it inactive again")
    func activity() throws {
        let (store, clock) = try makeStore()
        try store.deleteWeight(on: .ymd(2026, 1, 5))  // onboarding's weigh-in would keep the day active
        #expect(try store.today(timeZone: Zones.berlin)?.report.streak.isLit == false)
        let meal = try store.logMindfulMeal(try mindful(at: clock))
        #expect(try store.today(timeZone: Zones.berlin)?.report.streak.isLit == true)
        #expect(try store.count("activity_days") == 1)
        try store.deleteMindfulMeal(meal.id)
        #expect(try store.count("activity_days") == 0)
    }

    @Test("deleting the day's only meal keeps the day active while a mindful meal remains")
    func mealDeletedMindfulStays() throws {
        let (store, clock) = try makeStore()
        try store.deleteWeight(on: .ymd(2026, 1, 5))  // onboarding's weigh-in would keep the day active
        let logged = try store.logMeal(try meal(at: clock))
        _ = try store.logMindfulMeal(try mindful(at: clock))
        try store.deleteMeal(logged.id, timeZone: Zones.berlin)
        #expect(try store.count("activity_days") == 1)
    }

    @Test("the today snapshot carries the recovery day and today's mindful meals")
    func snapshot() throws {
        let (store, clock) = try makeStore()
        try store.setRecoveryMode(true, timeZone: Zones.berlin)
        let meal = try store.logMindfulMeal(try mindful(at: clock))
        let today = try #require(try store.today(timeZone: Zones.berlin))
        #expect(today.mindfulMeals == [meal])
        #expect(today.report.recovery?.mindfulMeals == [meal.entry])
        #expect(today.report.recovery?.since == .ymd(2026, 1, 5))
    }

    @Test("turning recovery mode on mid-diet-block pauses the cycle at maintenance without a recovery event")
    func turnOn() throws {
        // Given the morning's check on a diet day
        let (store, _) = try storeOnDietDay()
        let events = try store.eventNames()
        // When recovery mode is turned on and a surface opens
        try store.setRecoveryMode(true, timeZone: Zones.berlin)
        let check = try store.checkCycle(timeZone: Zones.berlin)
        // Then the day is paused at maintenance, and neither cycle_recovered nor phase_switched is recorded
        #expect(check.day.paused && check.day.phase == .maintenance && check.day.programmeDay == 12)
        #expect(check.recovered == nil && !check.switched)
        #expect(try store.eventNames() == events)
        #expect(try store.today(timeZone: Zones.berlin)?.report.targets.kind == .maintenance)
    }

    @Test("turned off after 10 days, the block resumes at the same programme day, the start date kept")
    func turnOffAfterTenDays() throws {
        let (store, clock) = try storeOnDietDay()
        try store.setRecoveryMode(true, timeZone: Zones.berlin)
        for _ in 0..<10 {
            try store.checkCycle(timeZone: Zones.berlin)
            clock.advance(by: 86_400)
        }
        let events = try store.eventNames()
        // When it is turned off on the eleventh day
        let settings = try store.setRecoveryMode(false, timeZone: Zones.berlin)
        let check = try store.checkCycle(timeZone: Zones.berlin)
        // Then diet day 12 is back, nothing was recorded as recovered or switched, and the period is kept
        #expect(check.day.phase == .diet && check.day.programmeDay == 12 && !check.day.paused)
        #expect(check.recovered == nil && !check.switched)
        #expect(try store.eventNames() == events)
        #expect(settings.startDate == .ymd(2026, 1, 5))
        #expect(settings.recoveryPeriods == [RecoveryPeriod(from: switchDay, until: switchDay.adding(days: 10))].compactMap { $0 })
        #expect(try store.settings()?.recoveryPeriods.count == 1)
    }

    @Test("turning it on and off the same day records no cycle event")
    func sameDayToggle() throws {
        let (store, _) = try storeOnDietDay()
        let events = try store.eventNames()
        try store.setRecoveryMode(true, timeZone: Zones.berlin)
        try store.checkCycle(timeZone: Zones.berlin)
        try store.setRecoveryMode(false, timeZone: Zones.berlin)
        let check = try store.checkCycle(timeZone: Zones.berlin)
        #expect(check.day.phase == .diet && check.recovered == nil && !check.switched)
        #expect(try store.eventNames() == events)
    }

    @Test("the history shows paused days at the maintenance target")
    func history() throws {
        let (store, clock) = try storeOnDietDay()
        try store.setRecoveryMode(true, timeZone: Zones.berlin)
        clock.advance(by: 3 * 86_400)
        let days = try store.history(days: 2, through: switchDay)
        #expect(days[0].phase == .diet && days[1].phase == .maintenance)
        #expect(days[1].targetKcal > days[0].targetKcal)
    }

    @Test("the recovery periods sync in the profile row and a damaged one is refused on pull")
    func periodsInProfileRow() throws {
        let (store, clock) = try storeOnDietDay()
        try store.setRecoveryMode(true, timeZone: Zones.berlin)
        clock.advance(by: 5 * 86_400)
        try store.setRecoveryMode(false, timeZone: Zones.berlin)
        let row = try store.reader.read { db in
            try String.fetchOne(db, sql: "SELECT row FROM sync_outbox WHERE table_name = 'profile'")
        }
        #expect(row?.contains(#""recovery_periods":"[{\"from\":\"2026-01-16\",\"until\":\"2026-01-21\"}]""#) == true)
        var record = try #require(try store.reader.read { db in try ProfileRecord.fetchOne(db, key: ProfileRecord.rowID) })
        record.recoveryPeriods = #"[{"from":"2026-01-21","until":"2026-01-16"}]"#
        #expect(record.unreadableReason != nil)
    }
}
