import DietCore
import TestSupport
import Testing

@Suite("Streak")
struct StreakTests {
    let today = LocalDate.ymd(2026, 5, 10)
    func days(_ offsets: [Int]) -> Set<LocalDate> { Set(offsets.map { today.adding(days: -$0) }) }

    @Test("a run ending today is counted and lit")
    func today_() {
        let streak = StreakStatus(activeDays: days([0, 1, 2]), today: today)
        #expect(streak.count == 3 && streak.isLit)
        #expect(Localizer(.en).render(streak.message) == "3-day streak")
    }

    @Test("today still open: the run ending yesterday counts, the flame is out")
    func openToday() {
        let streak = StreakStatus(activeDays: days([1, 2, 3, 4]), today: today)
        #expect(streak.count == 4 && !streak.isLit)
        #expect(Localizer(.de).render(streak.message) == "Trag heute etwas ein, um deine Serie von 4 Tagen zu halten")
    }

    @Test("yesterday and today inactive show 0")
    func broken() {
        let streak = StreakStatus(activeDays: days([2, 3, 4, 5]), today: today)
        #expect(streak.count == 0 && !streak.isLit && !streak.isFreshStart)
    }

    @Test("a gap ends the run")
    func gap() {
        let streak = StreakStatus(activeDays: days([0, 1, 3, 4, 5, 6, 7, 8]), today: today)
        #expect(streak.count == 2 && !streak.isFreshStart)
    }

    @Test("logging again after a break is a fresh start; a first day ever is not")
    func freshStart() {
        #expect(StreakStatus(activeDays: days([0, 3, 4]), today: today).isFreshStart)
        #expect(!StreakStatus(activeDays: days([0]), today: today).isFreshStart)
    }

    @Test("milestones are reached on the day the run hits 7, 30, 90, 365", arguments: [7, 30, 90, 365])
    func milestones(length: Int) {
        #expect(StreakStatus(activeDays: days(Array(0..<length)), today: today).milestoneToday == length)
        #expect(StreakStatus(activeDays: days(Array(0..<(length - 1))), today: today).milestoneToday == nil)
    }

    @Test("future days do not count")
    func future() {
        let streak = StreakStatus(activeDays: Set([today, today.adding(days: 1), today.adding(days: 2)]), today: today)
        #expect(streak.count == 1)
    }
}
