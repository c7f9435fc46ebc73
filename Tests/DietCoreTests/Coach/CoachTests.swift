import DietCore
import Foundation
import TestSupport
import Testing

@Suite("Fire coach and roars")
struct CoachTests {
    let today = LocalDate.ymd(2026, 5, 10)

    func input(phase: Phase = .diet, dayInPhase: Int = 5, daysUntilSwitch: Int? = 10, logged: Bool = true,
               allGood: Bool = false, eaten: Int = 900, target: Int = 1400, streakDays: Int = 3, hour: Int = 13,
               badge: Bool = false, restarted: Bool = false) -> CoachInput {
        let active = Set((0..<streakDays).map { today.adding(days: -$0) })
        return CoachInput(phase: phase, dayInPhase: dayInPhase, daysUntilSwitch: daysUntilSwitch, anythingLogged: logged,
                          allMacrosGood: allGood, eatenKcal: eaten, targetKcal: target,
                          streak: StreakStatus(activeDays: active, today: today), hour: hour, badgeEarnedToday: badge,
                          restartedAfterGap: restarted)
    }

    @Test("situations pick the variation", arguments: [
        ("badge", FireVariation.strong), ("milestone", .strong), ("allGood", .strong), ("phaseStart", .glasses),
        ("habitWeek", .glasses), ("switchTomorrow", .glasses), ("overTarget", .gentle), ("quietEvening", .gentle),
        ("freshStart", .gentle), ("morning", .default), ("steady", .default),
    ])
    func variations(situation: String, variation: FireVariation) throws {
        let inputs: [String: CoachInput] = [
            "badge": input(badge: true), "milestone": input(streakDays: 7), "allGood": input(allGood: true),
            "phaseStart": input(phase: .maintenance, dayInPhase: 1), "habitWeek": input(phase: .habit, dayInPhase: 1, logged: false),
            "switchTomorrow": input(daysUntilSwitch: 1), "overTarget": input(eaten: 1600),
            "quietEvening": input(logged: false, eaten: 0, hour: 20), "freshStart": input(restarted: true),
            "morning": input(logged: false, eaten: 0, hour: 8), "steady": input(),
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

    @Test("no coach line shames, in any language")
    func noShaming() {
        // Whole words, or stems ending in "*"
        let banned = ["fail*", "bad", "cheat*", "guilt*", "lazy", "shame*", "weak*", "versag*", "schlecht*", "schuld*",
                      "faul*", "schwach*", "fracas*", "malo", "mala", "culpa*", "vago", "perezos*", "débil", "trampa*"]
        for language in Language.allCases {
            let localizer = Localizer(language)
            for situation in CoachAdvice.Situation.allCases {
                for variant in 1...3 {
                    let text = localizer.template("coach.\(situation.rawValue).\(variant)").lowercased()
                    let words = text.split { !$0.isLetter }.map(String.init)
                    for ban in banned {
                        let hit = ban.hasSuffix("*") ? words.contains { $0.hasPrefix(ban.dropLast()) } : words.contains(ban)
                        #expect(!hit, "\(language) coach.\(situation.rawValue).\(variant): \(ban)")
                    }
                }
            }
        }
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
}
