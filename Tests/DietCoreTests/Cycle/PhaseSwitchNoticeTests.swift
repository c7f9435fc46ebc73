import DietCore
import Foundation
import TestSupport
import Testing

@Suite("Phase-switch message")
struct PhaseSwitchNoticeTests {
    let start = LocalDate.ymd(2026, 1, 5)
    var engine: CycleEngine { CycleEngine(startDate: start, preset: .openEnded) }
    var initial: CycleState { .start(on: start, preset: .openEnded, timeZone: Zones.berlin) }

    func due(_ state: CycleState, on date: LocalDate, profile: Profile = .alice) -> PhaseSwitchNotice? {
        PhaseSwitchNotice.due(state: state, day: engine.day(on: date), plan: EnergyPlan(profile: profile, on: date))
    }

    @Test("nothing is due during the habit week")
    func habit() {
        #expect(due(initial, on: start.adding(days: 6)) == nil)
    }

    @Test("the first diet day announces the lower target once")
    func dietOnce() throws {
        let day = engine.day(on: .ymd(2026, 1, 12))
        let first = try #require(due(initial, on: day.date))
        #expect(first.from == .habit && first.to == .diet && first.kcal == 1390 && first.previousKcal == 1986)
        #expect(Localizer(.en).render(first.headline) == "Diet starts today: 1,390 kcal a day. You've got this!")
        // When it has been shown, Then it is not shown again that day or later in the block
        let shown = initial.announcing(day)
        #expect(due(shown, on: day.date) == nil)
        #expect(due(shown, on: .ymd(2026, 1, 20)) == nil)
    }

    @Test("maintenance says the calories are increasing, in every language")
    func increasing() throws {
        let shown = initial.announcing(engine.day(on: .ymd(2026, 1, 12)))
        let notice = try #require(due(shown, on: .ymd(2026, 1, 26)))
        #expect(Localizer(.en).render(notice.headline) == "Your calories are increasing to 1,986 kcal today!")
        #expect(Localizer(.de).render(notice.headline) == "Deine Kalorien steigen heute auf 1.986 kcal!")
        // Spanish groups thousands only from five digits
        #expect(Localizer(.es).render(notice.headline) == "¡Hoy tus calorías suben a 1986 kcal!")
        #expect(notice.why == Message("cycle.why.maintenance"))
    }

    @Test("a first open later in the phase says since when")
    func since() throws {
        let shown = initial.announcing(engine.day(on: .ymd(2026, 1, 12)))
        let notice = try #require(due(shown, on: .ymd(2026, 1, 29)))
        #expect(notice.phaseStartDate == .ymd(2026, 1, 26) && notice.shownOn == .ymd(2026, 1, 29))
        #expect(notice.headline.key == "cycle.switch.upSince")
    }

    @Test("a clock moved back into an announced phase shows nothing again")
    func clockBack() {
        let shown = initial.announcing(engine.day(on: .ymd(2026, 1, 26)))
        #expect(due(shown, on: .ymd(2026, 1, 20)) == nil)
        #expect(due(shown, on: .ymd(2026, 1, 26)) == nil)
    }

    @Test("the end of the study programme is announced as completed")
    func studyCompleted() throws {
        let study = CycleEngine(startDate: start, preset: .study)
        let state = CycleState.start(on: start, preset: .study, timeZone: Zones.berlin)
            .announcing(study.day(on: start.adding(days: 216)))
        let day = study.day(on: start.adding(days: 217))
        let notice = try #require(PhaseSwitchNotice.due(state: state, day: day, plan: EnergyPlan(profile: .alice, on: day.date)))
        #expect(notice.from == .diet && notice.to == .completed)
        #expect(notice.headline.key == "cycle.switch.completed")
    }

    @Test("when the floor holds both targets equal, the message says the target stays")
    func same() throws {
        // Small: TDEE below 1,200, so diet and maintenance are both the floor
        let notice = try #require(due(initial, on: .ymd(2026, 1, 12), profile: .small))
        #expect(notice.kcal == 1200 && notice.previousKcal == 1200)
        #expect(notice.headline.key == "cycle.switch.same")
    }
}
