import DietCore
import Foundation
import TestSupport
import Testing

@Suite("Fire coach and roars")
struct CoachTests {
    let today = LocalDate.ymd(2026, 5, 10)

    func input(
        phase: Phase = .diet,
        dayInPhase: Int = 5,
        daysUntilSwitch: Int? = 10,
        logged: Bool = true,
        allGood: Bool = false,
        eaten: Int = 900,
        target: Int = 1400,
        streakDays: Int = 3,
        hour: Int = 13,
        badge: Bool = false,
        restarted: Bool = false,
        weighed: Bool = false
    ) -> CoachInput {
        let active = Set((0..<streakDays).map { today.adding(days: -$0) })
        return CoachInput(
            phase: phase,
            dayInPhase: dayInPhase,
            daysUntilSwitch: daysUntilSwitch,
            anythingLogged: logged,
            allMacrosGood: allGood,
            eatenKcal: eaten,
            targetKcal: target,
            streak: StreakStatus(activeDays: active, today: today),
            hour: hour,
            badgeEarnedToday: badge,
            restartedAfterGap: restarted,
            weightLoggedToday: weighed
        )
    }

    @Test("the last day of a block praises it as carried all the way only when no day of it was skipped (issue 30)")
    func wholeBlock() throws {
        let days: [LocalDate] = (0..<3).map { today.adding(days: $0) }
        let day = try #require(days.first { (date: LocalDate) -> Bool in (date.dayNumber % 3 + 3) % 3 == 1 })
        func coach(streak: Int) -> CoachAdvice {
            let active = Set((0..<streak).map { day.adding(days: -$0) })
            return CoachAdvice(
                CoachInput(
                    phase: .diet,
                    dayInPhase: 14,
                    daysUntilSwitch: 1,
                    anythingLogged: true,
                    allMacrosGood: false,
                    eatenKcal: 900,
                    targetKcal: 1400,
                    streak: StreakStatus(activeDays: active, today: day),
                    hour: 13,
                    badgeEarnedToday: false,
                    restartedAfterGap: false,
                    weightLoggedToday: false
                ),
                today: day
            )
        }
        #expect(coach(streak: 14).message.key == "coach.switchTomorrow.2")
        #expect(coach(streak: 4).message.key == "coach.switchTomorrow.1", "a day of the block was skipped")
    }

    /// The plain-values initialiser: smileys and counts.
    func plain(smileys: [Smiley], meals: Int, weighed: Bool = false, hour: Int = 13) -> CoachInput {
        CoachInput(
            phase: .diet,
            dayInPhase: 5,
            daysUntilSwitch: 10,
            smileys: smileys,
            mealsToday: meals,
            weightLoggedToday: weighed,
            eatenKcal: meals * 300,
            targetKcal: 1400,
            streak: StreakStatus(activeDays: [today, today.adding(days: -1)], today: today),
            hour: hour
        )
    }

    @Test(
        "situations pick the variation",
        arguments: [
            ("badge", FireVariation.strong), ("milestone", .strong), ("allGood", .strong), ("phaseStart", .glasses),
            ("habitWeek", .glasses), ("switchTomorrow", .glasses), ("overTarget", .gentle), ("quietEvening", .gentle),
            ("freshStart", .gentle), ("morning", .default), ("steady", .default), ("proteinTip", .glasses),
            ("weighedIn", .default),
        ]
    )
    func variations(situation: String, variation: FireVariation) throws {
        let inputs: [String: CoachInput] = [
            "badge": input(badge: true), "milestone": input(streakDays: 7), "allGood": input(allGood: true),
            "phaseStart": input(phase: .maintenance, dayInPhase: 1), "habitWeek": input(phase: .habit, dayInPhase: 1, logged: false),
            "switchTomorrow": input(daysUntilSwitch: 1), "overTarget": input(eaten: 1600),
            "quietEvening": input(logged: false, eaten: 0, hour: 20), "freshStart": input(restarted: true),
            "morning": input(logged: false, eaten: 0, hour: 8), "steady": input(),
            "proteinTip": plain(smileys: [.needsAttention, .good, .good], meals: 2, hour: 16),
            "weighedIn": input(logged: false, eaten: 0, hour: 9, weighed: true),
        ]
        let advice = CoachAdvice(try #require(inputs[situation]), today: today)
        #expect(advice.situation.rawValue == situation)
        #expect(advice.variation == variation)
    }

    @Test("celebration outranks teaching, teaching outranks soothing")
    func priority() {
        #expect(CoachAdvice(input(phase: .maintenance, dayInPhase: 1, allGood: true), today: today).situation == .allGood)
        #expect(CoachAdvice(input(phase: .maintenance, dayInPhase: 1, eaten: 2000), today: today).situation == .phaseStart)
    }

    @Test("the line rotates day by day and always exists in all three languages")
    func rotation() {
        let lines = (0..<3).map { CoachAdvice(input(), today: today.adding(days: $0)).message.key }
        #expect(Set(lines).count == 3)
        for situation in CoachAdvice.Situation.allCases {
            for variant in 1...3 {
                for language in Language.allCases {
                    #expect(Localizer(language).hasKey("coach.\(situation.rawValue).\(variant)"), "\(language) \(situation) \(variant)")
                }
            }
        }
    }

    /// Every key this engagement layer renders.
    static var engagementKeys: [String] {
        var keys = CoachAdvice.Situation.allCases.flatMap { situation in (1...3).map { "coach.\(situation.rawValue).\($0)" } }
        keys += [
            "streak.start", "streak.lit", "streak.keep", "streak.milestone", "streak.fresh_start", "badge.unlocked",
            "points.total",
        ]
        keys += Roar.allCases.map(\.message.key) + PointsLedger.Reason.allCases.map(\.message.key)
        for category in Badge.Category.allCases {
            for tier in Badge.Tier.allCases {
                let badge = Badge(category, tier)
                keys += [badge.nameMessage.key, badge.descriptionMessage.key, badge.categoryMessage.key]
            }
        }
        return keys
    }

    @Test("every coach, streak, roar, badge and points string exists in all three languages")
    func keysExist() {
        for key in Self.engagementKeys {
            for language in Language.allCases {
                #expect(Localizer(language).hasKey(key), "\(language) \(key)")
            }
        }
    }

    @Test("no coach, streak, roar, badge or points line shames, in any language")
    func noShaming() {
        // Whole words, or stems ending in "*"
        let banned = [
            "fail*", "bad", "cheat*", "guilt*", "lazy", "shame*", "weak*", "blew", "ruin*", "versag*",
            "schlecht*", "schuld*", "faul*", "schwach*", "sünd*", "fracas*", "malo", "mala", "culpa*", "vago",
            "perezos*", "débil", "trampa*", "pecad*",
        ]
        for language in Language.allCases {
            let localizer = Localizer(language)
            for key in Self.engagementKeys {
                let words = localizer.template(key).lowercased().split { !$0.isLetter }.map(String.init)
                for ban in banned {
                    let hit = ban.hasSuffix("*") ? words.contains { $0.hasPrefix(ban.dropLast()) } : words.contains(ban)
                    #expect(!hit, "\(language) \(key): \(ban)")
                }
            }
        }
    }

    @Test("the scan catches a shaming word (guards the scan itself)")
    func scanWorks() {
        let words = "You failed today".lowercased().split { !$0.isLetter }.map(String.init)
        #expect(words.contains { $0.hasPrefix("fail") })
    }

    @Test("a weigh-in without meals is not a quiet evening: the flame is lit")
    func weighInEvening() {
        // old initialiser, weight not stated: a lit streak with no meal means a weigh-in
        let derived = CoachInput(
            phase: .diet,
            dayInPhase: 5,
            daysUntilSwitch: 10,
            anythingLogged: false,
            allMacrosGood: false,
            eatenKcal: 0,
            targetKcal: 1400,
            streak: StreakStatus(activeDays: [today], today: today),
            hour: 20
        )
        #expect(derived.weightLoggedToday)
        #expect(CoachAdvice(derived, today: today).situation == .weighedIn)
    }

    @Test("plain values: three good smileys with meals are an all-good day")
    func smileysAllGood() {
        let advice = CoachAdvice(plain(smileys: [.good, .good, .good], meals: 3), today: today)
        #expect(advice.situation == .allGood && advice.variation == .strong)
    }

    @Test("plain values: nothing logged is never all good, even with empty smileys")
    func emptyNotGood() {
        #expect(!plain(smileys: [.neutral, .neutral, .neutral], meals: 0).allMacrosGood)
        #expect(!plain(smileys: [], meals: 2).allMacrosGood)
    }

    @Test("the protein tip waits for the afternoon")
    func proteinTipTiming() {
        #expect(CoachAdvice(plain(smileys: [.needsAttention, .good, .good], meals: 1, hour: 12), today: today).situation == .steady)
        #expect(CoachAdvice(plain(smileys: [.needsAttention, .good, .good], meals: 1, hour: 15), today: today).situation == .proteinTip)
    }

    @Test("the first day of a block is a teaching day; the habit week's first day is not a phase start")
    func firstDay() {
        #expect(input(phase: .diet, dayInPhase: 1).isFirstDayOfPhase)
        #expect(!input(phase: .habit, dayInPhase: 1).isFirstDayOfPhase)
        #expect(CoachAdvice(input(phase: .diet, dayInPhase: 1), today: today).variation == .glasses)
    }

    @Test("the coach line fills in the kcal left")
    func rendered() throws {
        // Given a steady day with 900 of 1400 kcal eaten; one of three consecutive days shows variant 1
        let advice = try #require(
            (0..<3).map { CoachAdvice(input(), today: today.adding(days: $0)) }
                .first { $0.message.key == "coach.steady.1" }
        )
        // Then it names the 1400 − 900 = 500 kcal left
        #expect(Localizer(.en).render(advice.message) == "Nice logging! 500 kcal left for today.")
    }

    @Test("roar levels: triple beats double beats single")
    func roars() {
        #expect(Roar.level(for: .init(mealSaved: true)) == .single)
        #expect(Roar.level(for: .init(mealSaved: true, allMacrosGood: true)) == .double)
        #expect(Roar.level(for: .init(streakMilestone: true)) == .double)
        #expect(Roar.level(for: .init(mealSaved: true, allMacrosGood: true, badgeEarned: true)) == .triple)
        #expect(Roar.level(for: .init(phaseCompleted: true)) == .triple)
        #expect(Roar.level(for: .init()) == nil)
    }

    @Test("each roar has a caption in every language")
    func roarCaptions() {
        #expect(Localizer(.en).render(Roar.single.message) == "Roar! Meal saved.")
        #expect(Set(Roar.allCases.map(\.message.key)).count == 3)
    }
}
