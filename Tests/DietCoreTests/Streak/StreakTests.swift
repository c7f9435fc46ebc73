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

    @Test("the longest run is found anywhere in the history, future days ignored")
    func longest() {
        // runs ending today: {0,1} = 2, {3,4,5,6} = 4, {9} = 1; tomorrow and after do not count
        let active = days([0, 1, 3, 4, 5, 6, 9]).union([today.adding(days: 1), today.adding(days: 2)])
        #expect(StreakStatus.longest(activeDays: active, through: today) == 4)
        #expect(StreakStatus.longest(activeDays: [], through: today) == 0)
    }

    @Test("a milestone today has a celebration line; other days have none")
    func milestoneLine() throws {
        let seven = StreakStatus(activeDays: days(Array(0..<7)), today: today)
        #expect(Localizer(.en).render(try #require(seven.milestoneMessage)) == "7 days in a row!")
        #expect(Localizer(.es).render(try #require(seven.milestoneMessage)) == "¡7 días seguidos!")
        #expect(StreakStatus(activeDays: days(Array(0..<8)), today: today).milestoneMessage == nil)
    }

    @Test("a fresh start after a break gets a welcome-back line")
    func freshStartLine() {
        #expect(StreakStatus(activeDays: days([0, 5]), today: today).freshStartMessage == Message("streak.fresh_start"))
        #expect(StreakStatus(activeDays: days([0, 1]), today: today).freshStartMessage == nil)
    }
}
