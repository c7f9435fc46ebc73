import DietCore
import Foundation
import TestSupport
import Testing

@Suite("weekly insights")
struct WeeklyInsightsTests {
    /// Thursday.
    let today = LocalDate.ymd(2026, 4, 9)

    /// A woman maintaining with a locked 2,000 kcal goal, so every target is 2,000.
    func lockedProfile() throws -> Profile {
        var profile = Profile.kim
        profile.lockedGoals[.maintenance] = LockedGoals(kcal: 2000, proteinG: 120, carbsG: 230, fatG: 65)
        try profile.validate()
        return profile
    }

    func input(
        _ profile: Profile,
        start: LocalDate = .ymd(2026, 1, 5),
        weeks: Int = 1,
        intake: [LocalDate: Int] = [:],
        weights: [WeightEntry] = [],
        active: Set<LocalDate>? = nil,
        accepted: Int? = nil,
        pauses: CyclePauses = .none
    ) -> WeeklyInsights.Input {
        WeeklyInsights.Input(
            profile: profile,
            startDate: start,
            today: today,
            weeks: weeks,
            intake: intake,
            weights: weights,
            activeDays: active ?? Set(intake.keys).union(weights.map(\.date)),
            acceptedMaintenanceKcal: accepted,
            cyclePauses: pauses
        )
    }

    @Test("the window runs from the Monday weeks − 1 weeks back through today; the current week counts up to today")
    func window() throws {
        let summary = WeeklyInsights(input(try lockedProfile(), weeks: 2))
        #expect(summary.first == .ymd(2026, 3, 30) && summary.last == today)
        #expect(summary.weeks.map(\.start) == [.ymd(2026, 3, 30), .ymd(2026, 4, 6)])
        #expect(summary.weeks.map(\.through) == [.ymd(2026, 4, 5), today])
        #expect(summary.weeks.map(\.total.days) == [7, 4])
        #expect(summary.weeks[1].end == .ymd(2026, 4, 12))
    }

    @Test("exactly 90 % and 110 % of the day's target are on target; one kcal beyond either edge is not")
    func edges() throws {
        // Given 1,800, 2,200, 1,799 and 2,201 kcal against 2,000
        let intake: [LocalDate: Int] = [.ymd(2026, 4, 6): 1800, .ymd(2026, 4, 7): 2200, .ymd(2026, 4, 8): 1799, .ymd(2026, 4, 9): 2201]
        // When
        let summary = WeeklyInsights(input(try lockedProfile(), intake: intake))
        // Then
        #expect(summary.days.map(\.adherent) == [true, true, false, false])
        #expect(summary.total.adherentDays == 2 && summary.total.loggedDays == 4)
    }

    @Test("an unlogged day is counted apart, never as a miss")
    func unlogged() throws {
        // Given one logged day on target and three days without a meal (one with a weigh-in)
        let summary = WeeklyInsights(
            input(
                try lockedProfile(),
                intake: [.ymd(2026, 4, 7): 2000],
                weights: [try WeightEntry(date: .ymd(2026, 4, 8), kg: 80)]
            )
        )
        // Then
        #expect(summary.total.loggedDays == 1 && summary.total.adherentDays == 1 && summary.total.unloggedDays == 3)
        #expect(summary.days.filter { $0.intakeKcal == nil }.allSatisfy { $0.adherent == nil })
        #expect(summary.total.averageIntakeKcal == 2000)
    }

    @Test("days before the programme's start count only when logged (issue 30: '20 of 28 days … 8 not logged' with one missed)")
    func fromTheStart() throws {
        // Given a start on Wednesday 1 April, four weeks shown, every day since the start logged
        // but one, and one imported day before the start
        let start = LocalDate.ymd(2026, 4, 1)
        var intake: [LocalDate: Int] = [.ymd(2026, 3, 20): 1900]
        for offset in 0...8 where offset != 3 { intake[start.adding(days: offset)] = 2000 }
        let summary = WeeklyInsights(input(try lockedProfile(), start: start, weeks: 4, intake: intake))
        // Then the days are the nine of the programme plus the logged one before it, one unlogged
        #expect(summary.total.days == 10 && summary.total.loggedDays == 9 && summary.total.unloggedDays == 1)
        // a week wholly before the start has no day to count, nothing "not logged"
        #expect(summary.weeks[0].total.days == 1 && summary.weeks[0].total.unloggedDays == 0)
        #expect(summary.weeks[1].total.days == 0 && summary.weeks[1].total.unloggedDays == 0)
        #expect(summary.days.first { $0.date == .ymd(2026, 3, 16) }?.counted == false)
    }

    @Test("an accepted maintenance estimate sets the habit and diet targets; a locked goal replaces the computed one")
    func acceptedAndLocked() throws {
        // Given Alice, started on Wednesday 2026-03-25: habit through 2026-03-31, diet from 2026-04-01
        var profile = Profile.alice
        let accepted = WeeklyInsights(input(profile, start: .ymd(2026, 3, 25), weeks: 2, accepted: 2100))
        #expect(accepted.days.first { $0.date == .ymd(2026, 3, 31) }?.targetKcal == 2100)
        #expect(accepted.days.first { $0.date == .ymd(2026, 4, 1) }?.targetKcal == 1470)
        // When the diet goal is locked
        profile.lockedGoals[.deficit] = LockedGoals(kcal: 1555, proteinG: 120, carbsG: 150, fatG: 50)
        let locked = WeeklyInsights(input(profile, start: .ymd(2026, 3, 25), weeks: 2, accepted: 2100))
        // Then diet days take it, habit days keep the accepted maintenance
        #expect(locked.days.first { $0.date == .ymd(2026, 4, 1) }?.targetKcal == 1555)
        #expect(locked.days.first { $0.date == .ymd(2026, 3, 31) }?.targetKcal == 2100)
        #expect(Set(locked.phases.compactMap(\.phase)) == [.habit, .diet])
    }

    @Test("a past day's target follows the weight known that day, not today's")
    func targetFollowsWeight() throws {
        // Given Kim (maintaining) weighing 80.0 until Tuesday, then 70.0
        let weights = [try WeightEntry(date: .ymd(2026, 3, 1), kg: 80), try WeightEntry(date: .ymd(2026, 4, 7), kg: 70)]
        let summary = WeeklyInsights(input(.kim, weights: weights))
        // Then Monday's target is 10 kcal per kg × 10 kg × 1.2 (sedentary) = 120 kcal above Wednesday's
        let monday = try #require(summary.days.first { $0.date == .ymd(2026, 4, 6) }?.targetKcal)
        let wednesday = try #require(summary.days.first { $0.date == .ymd(2026, 4, 8) }?.targetKcal)
        #expect(monday - wednesday == 120)
        #expect(summary.days.allSatisfy { $0.phase == .steady })
    }

    @Test("nothing logged: the sentence says how to begin, and no average intake is made up")
    func nothingLogged() throws {
        let summary = WeeklyInsights(input(try lockedProfile(), weeks: 3))
        #expect(summary.meaning.key == "insights.meaning.start")
        #expect(summary.total.averageIntakeKcal == nil && summary.total.loggedDays == 0)
        #expect(summary.weight.trendKg == nil && summary.streak.current == 0)
    }

    @Test("streak history: the current run, the longest ever (before the window too) and the runs touching the window")
    func streaks() throws {
        // Given a 10-day run in January, a 3-day run ending last Saturday and a run from Tuesday through today
        var active = Set((0..<10).map { LocalDate.ymd(2026, 1, 10).adding(days: $0) })
        active.formUnion([.ymd(2026, 4, 2), .ymd(2026, 4, 3), .ymd(2026, 4, 4), .ymd(2026, 4, 7), .ymd(2026, 4, 8), today])
        // When
        let summary = WeeklyInsights(input(try lockedProfile(), weeks: 2, active: active))
        // Then
        #expect(summary.streak.current == 3 && summary.streak.isLit)
        #expect(summary.streak.longest == 10)
        #expect(summary.streak.runs.map(\.days) == [3, 3])
        #expect(summary.weeks[0].activeWeekdays == [4, 5, 6] && summary.weeks[1].activeWeekdays == [2, 3, 4])
    }

    @Test("the trend is down: the sentence says by how much per week, without judging")
    func trendDown() throws {
        // Given Alice losing 0.1 kg a day over three weeks, every day logged near target
        let days = (0..<21).map { today.adding(days: -20 + $0) }
        let weights = try days.enumerated().map { try WeightEntry(date: $0.element, kg: 80 - 0.1 * Double($0.offset)) }
        let intake = Dictionary(uniqueKeysWithValues: days.map { ($0, 1500) })
        let summary = WeeklyInsights(input(.alice, start: .ymd(2026, 1, 5), weeks: 3, intake: intake, weights: weights))
        // Then
        let pace = try #require(summary.weight.trendKgPerWeek)
        #expect(pace < -0.3)
        #expect(summary.meaning.key == "insights.meaning.trendDown")
    }

    @Test("days recovery mode was on are neither judged nor counted as logged or unlogged, afterwards too")
    func restedDays() throws {
        // Given recovery mode on Monday and Tuesday (off since Wednesday), 5,000 kcal on Monday, 2,000 on Thursday
        let pause = try #require(RecoveryPeriod(from: .ymd(2026, 4, 6), until: .ymd(2026, 4, 8)))
        let summary = WeeklyInsights(
            input(
                try lockedProfile(),
                intake: [.ymd(2026, 4, 6): 5000, .ymd(2026, 4, 9): 2000],
                pauses: CyclePauses(periods: [pause], since: nil)
            )
        )
        // Then
        #expect(summary.days.map(\.rested) == [true, true, false, false])
        #expect(summary.days[0].adherent == nil)
        #expect(summary.total.restedDays == 2 && summary.total.loggedDays == 1 && summary.total.unloggedDays == 1)
        #expect(summary.total.adherentDays == 1 && summary.total.averageIntakeKcal == 2000)
        #expect(summary.meaning.key == "insights.meaning.onTrack")
    }

    @Test("a recovery pause moves the later phases as the dashboard's cycle does")
    func pausedCycle() throws {
        // Given Alice started on Wednesday 2026-03-25 and recovery mode was on 2026-03-28 and 2026-03-29
        let pause = try #require(RecoveryPeriod(from: .ymd(2026, 3, 28), until: .ymd(2026, 3, 30)))
        let pauses = CyclePauses(periods: [pause], since: nil)
        let summary = WeeklyInsights(input(.alice, start: .ymd(2026, 3, 25), weeks: 2, pauses: pauses))
        // Then the habit week lasts two days longer and the diet starts on 2026-04-03
        let phase = { (date: LocalDate) in summary.days.first { $0.date == date }?.phase }
        #expect(phase(.ymd(2026, 4, 2)) == .habit && phase(.ymd(2026, 4, 3)) == .diet)
        let engine = CycleEngine(startDate: .ymd(2026, 3, 25), preset: Profile.alice.cyclePreset, pauses: pauses)
        #expect(summary.days.filter { !$0.rested }.allSatisfy { InsightsPhase(engine.day(on: $0.date).phase) == $0.phase })
    }
}
