import DietCore
import Foundation
import GRDB
import TestSupport
import Testing

@testable import DietStore

/// Badges and points over 60 days logged through the store's intentions, checked against a
/// hand computation (docs/rules.md §5).
///
/// The journey (day 0 = Mon 2026-01-05, Alice, losing): one small meal a day on days 0–9 and
/// 12–59 (days 10 and 11 empty: the streak breaks); weights on days 40–59 falling 0.2 kg a day
/// from 72.0; on days 50–54 the day's meal has exactly the day's macro goals. Badges: streak
/// bronze on day 6 (7 days), streak silver on day 41 (30 days from day 12), milestone bronze
/// on day 51 (the 50th meal: 10 + 40), weight bronze on day 51 (the 11th weigh-in, k = 10: the
/// 7-entry average 72 − 0.2·8 = 70.4 kg is 2.2 % below 72.0; on day 50 it is 1.9 %).
/// Points: 12 a day on days 0–9 (meal 10, opened 2) = 120; day 10 breaks the streak: −5 % →
/// 114, day 11 −5 % → 108.3; days 12–59: 48 × 12 + 20 weights × 5 + 5 macro days × 5 = 701;
/// total 809.3, shown 809. No cycle bonus (no cycle reaches 70 % of days with every macro good).
@Suite("Rewards journey")
struct RewardsJourneyTests {
    static let start = LocalDate.ymd(2026, 1, 5)

    /// Logs day `index` at noon and claims badges as a surface would; returns the claim.
    @discardableResult
    static func live(day index: Int, store: AppDatabase, clock: FixedClock) throws -> [Badge] {
        let date = start.adding(days: index)
        clock.set(date.instant(at: TimeOfDay(hour: 12)!, in: Zones.berlin))
        if (40...59).contains(index) {
            try store.logWeight(try WeightEntry(date: date, kg: 72.0 - 0.2 * Double(index - 40)), timeZone: Zones.berlin)
        }
        if (50...54).contains(index), let targets = try store.today(timeZone: Zones.berlin)?.report.targets {
            try store.logMeal(
                try meal(
                    "Plate",
                    kcal: targets.kcal,
                    protein: targets.proteinG,
                    carbs: targets.carbsG,
                    fat: targets.fatG,
                    at: clock
                )
            )
        } else {
            try store.logMeal(try meal("Soup", kcal: 300, protein: 10, carbs: 30, fat: 5, at: clock))
        }
        return try store.claimNewBadges(timeZone: Zones.berlin)
    }

    static let activeDays = Array(0...9) + Array(12...59)

    @Test("60 days earn the hand-computed badges on their days, each announced once, and the points total")
    func journey() throws {
        // Given Alice onboarded on day 0, who took back the weight she typed there (it is the
        // first weigh-in): her weigh-ins are those of days 40–59
        let (store, clock) = try makeStore(on: Self.start)
        try store.deleteWeight(on: Self.start)
        // When she logs the journey, claiming after every save, and claims again at the end
        var announced: [LocalDate: [Badge]] = [:]
        for index in Self.activeDays {
            let badges = try Self.live(day: index, store: store, clock: clock)
            if !badges.isEmpty { announced[Self.start.adding(days: index)] = badges }
        }
        let again = try store.claimNewBadges(timeZone: Zones.berlin)
        // Then each badge was announced once, on the day it was earned
        let day = { Self.start.adding(days: $0) }
        #expect(
            announced == [
                day(6): [Badge(.streak, .bronze)], day(41): [Badge(.streak, .silver)],
                day(51): [Badge(.milestone, .bronze), Badge(.weightProgress, .bronze)],
            ]
        )
        #expect(again.isEmpty)
        // and the rewards list them with those dates, the days on target counted, the points total
        let rewards = try store.rewards(timeZone: Zones.berlin)
        #expect(
            rewards.earned == [
                EarnedBadge(badge: Badge(.streak, .bronze), earnedOn: day(6)),
                EarnedBadge(badge: Badge(.streak, .silver), earnedOn: day(41)),
                EarnedBadge(badge: Badge(.milestone, .bronze), earnedOn: day(51)),
                EarnedBadge(badge: Badge(.weightProgress, .bronze), earnedOn: day(51)),
            ]
        )
        #expect(rewards.points.total == 809)
        let balance: Double = try #require(rewards.points.days.last?.balance)
        #expect(abs(balance - 809.3) < 1e-6)
        let bonusDays = rewards.points.days.filter { $0.breakdown[.macrosBonus] != nil }.map(\.date)
        #expect(bonusDays == (50...54).map(day))
        #expect(rewards.points.days.first?.date == day(0))
        #expect(rewards.points.days.first { $0.date == day(10) }?.decayed == 6)
    }

    @Test("the next badge of each category shows the history's progress")
    func nextBadges() throws {
        let (store, clock) = try makeStore(on: Self.start)
        try store.deleteWeight(on: Self.start)
        for index in Self.activeDays { try Self.live(day: index, store: store, clock: clock) }
        let next = try store.rewards(timeZone: Zones.berlin).next
        let byCategory = Dictionary(uniqueKeysWithValues: next.map { ($0.badge.category, $0) })
        // 48 days in a row (12–59), 58 meals, no cycle on target, best average 4.4 % below 72.0
        #expect(byCategory[.streak]?.badge.tier == .gold)
        #expect(byCategory[.streak]?.current == 48)
        #expect(byCategory[.milestone]?.badge == Badge(.milestone, .silver))
        #expect(byCategory[.milestone]?.current == 58)
        #expect(byCategory[.adherence]?.badge == Badge(.adherence, .bronze))
        #expect(byCategory[.adherence]?.current == 0)
        #expect(byCategory[.weightProgress]?.badge == Badge(.weightProgress, .silver))
        let weightProgress = try #require(byCategory[.weightProgress]?.current)
        let expected: Double = 3.2 / 72 * 100
        #expect(abs(weightProgress - expected) < 1e-6)
    }

    @Test("in recovery mode a badge is recorded silently and never announced later")
    func recoverySilent() throws {
        // Given six days logged, then recovery mode on
        let (store, clock) = try makeStore(on: Self.start)
        for index in 0...5 { #expect(try Self.live(day: index, store: store, clock: clock).isEmpty) }
        try store.setRecoveryMode(true, timeZone: Zones.berlin)
        // When the seventh day earns the streak badge
        let claimed = try Self.live(day: 6, store: store, clock: clock)
        // Then nothing is announced, but the badge is kept
        #expect(claimed.isEmpty)
        #expect(try store.rewards(timeZone: Zones.berlin).earned.map(\.badge) == [Badge(.streak, .bronze)])
        #expect(try store.count("earned_badges") == 1)
        // and after recovery mode ends it is not announced either
        try store.setRecoveryMode(false, timeZone: Zones.berlin)
        #expect(try Self.live(day: 7, store: store, clock: clock).isEmpty)
    }

    @Test("a badge earned long before it is first claimed is recorded without a roar")
    func oldBadgeSilent() throws {
        // Given seven days logged without claiming (an imported history)
        let (store, clock) = try makeStore(on: Self.start)
        for index in 0...6 {
            clock.set(Self.start.adding(days: index).instant(at: TimeOfDay(hour: 12)!, in: Zones.berlin))
            try store.logMeal(try meal(at: clock))
        }
        // When the first claim comes 14 days later
        clock.set(Self.start.adding(days: 20).instant(at: TimeOfDay(hour: 12)!, in: Zones.berlin))
        // Then the badge is stored with its day, but not announced
        #expect(try store.claimNewBadges(timeZone: Zones.berlin).isEmpty)
        #expect(
            try store.rewards(timeZone: Zones.berlin).earned == [
                EarnedBadge(
                    badge: Badge(.streak, .bronze),
                    earnedOn: Self.start.adding(days: 6)
                )
            ]
        )
    }

    @Test("a stored badge stays when its history is deleted, and purge removes it")
    func neverLostButPurged() throws {
        // Given seven days logged and claimed
        let (store, clock) = try makeStore(on: Self.start)
        var ids: [UUID] = []
        for index in 0...6 {
            clock.set(Self.start.adding(days: index).instant(at: TimeOfDay(hour: 12)!, in: Zones.berlin))
            ids.append(try store.logMeal(try meal(at: clock)).id)
        }
        #expect(try store.claimNewBadges(timeZone: Zones.berlin) == [Badge(.streak, .bronze)])
        // When a meal of the run is deleted, the badge stays
        try store.deleteMeal(ids[3], timeZone: Zones.berlin)
        #expect(try store.rewards(timeZone: Zones.berlin).earned.map(\.badge) == [Badge(.streak, .bronze)])
        // and when everything is deleted, nothing of it is left
        try store.purge()
        #expect(try store.count("earned_badges") == 0)
    }
}
