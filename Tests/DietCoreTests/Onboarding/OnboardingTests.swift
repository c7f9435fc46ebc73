import DietCore
import Foundation
import TestSupport
import Testing

@Suite("Onboarding")
struct OnboardingTests {
    func through(goal: Goal, window: EatingWindow? = nil, goalWeightKg: Double? = nil) throws -> Onboarding {
        var onboarding = Onboarding(language: .de)
        try onboarding.answer(.start)
        try onboarding.answer(.sex(.female))
        try onboarding.answer(.age(34))
        try onboarding.answer(.heightCm(168))
        try onboarding.answer(.weightKg(72.5))
        try onboarding.answer(.activity(.light))
        try onboarding.answer(.goal(goal))
        if goal != .maintain { try onboarding.answer(.goalWeightKg(goalWeightKg)) }
        if goal == .lose { try onboarding.answer(.eatingWindow(window ?? .standard)) }
        return onboarding
    }

    @Test("losing weight takes all 9 steps and yields Alice's profile, starting today")
    func lose() throws {
        let onboarding = try through(goal: .lose)
        #expect(onboarding.isComplete)
        let result = try onboarding.result(clock: FixedClock.at(.ymd(2026, 1, 5), 9, in: Zones.berlin), timeZone: Zones.berlin)
        var alice = Profile.alice
        alice.language = .de
        #expect(result.profile == alice)
        #expect(result.startDate == .ymd(2026, 1, 5) && result.timeZoneIdentifier == "Europe/Berlin")
    }

    @Test("maintain skips the eating window: 7 steps")
    func maintain() throws {
        var onboarding = try through(goal: .maintain)
        #expect(onboarding.isComplete && onboarding.steps.count == 7)
        onboarding.back()
        #expect(onboarding.step == .goal && onboarding.progress == (7, 7))
    }

    @Test("progress counts 9 steps until a goal other than lose is chosen")
    func progress() throws {
        var onboarding = Onboarding(language: .en)
        try onboarding.answer(.start)
        #expect(onboarding.progress == (2, 9))
        #expect(Localizer(.en).render(onboarding.progressMessage) == "2 of 9")
    }

    @Test("the goal weight step (optional) follows lose and gain, is checked against the weight typed, and reaches the profile")
    func goalWeight() throws {
        let lose = try through(goal: .lose, goalWeightKg: 65.0)
        let clock = FixedClock.at(.ymd(2026, 1, 5), 9, in: Zones.berlin)
        #expect(try lose.result(clock: clock, timeZone: Zones.berlin).profile.goalWeightKg == 65.0)
        #expect(try through(goal: .gain).steps.count == 8)
        #expect(try through(goal: .gain, goalWeightKg: 75).result(clock: clock, timeZone: Zones.berlin).profile.goalWeightKg == 75)
        var wrongSide = try through(goal: .gain)
        wrongSide.back()
        #expect(wrongSide.step == .goalWeight)
        #expect(throws: ValidationError.self) { try wrongSide.answer(.goalWeightKg(70)) }
        #expect(wrongSide.step == .goalWeight)
        // choosing another goal drops a goal weight typed for the first one
        wrongSide.back()
        try wrongSide.answer(.goal(.maintain))
        #expect(wrongSide.isComplete && wrongSide.goalWeightKg == nil)
    }

    @Test("back navigation keeps every answer")
    func back() throws {
        var onboarding = Onboarding(language: .en)
        try onboarding.answer(.start)
        try onboarding.answer(.sex(.male))
        try onboarding.answer(.age(45))
        onboarding.back()
        onboarding.back()
        #expect(onboarding.step == .sex && onboarding.sex == .male && onboarding.age == 45)
        onboarding.back()
        onboarding.back()
        #expect(onboarding.step == .welcome)
    }

    @Test("invalid age, height and weight are refused with the typed error; the step and answers stay")
    func invalid() throws {
        var onboarding = Onboarding(language: .en)
        try onboarding.answer(.start)
        try onboarding.answer(.sex(.other))
        #expect(throws: ValidationError.self) { try onboarding.answer(.age(12)) }
        #expect(onboarding.step == .age && onboarding.sex == .other && onboarding.age == nil)
        do {
            try onboarding.answer(.age(120))
        } catch {
            #expect(error.description == "Age must be from 18 to 99; you entered 120.")
        }
        try onboarding.answer(.age(30))
        #expect(throws: ValidationError.self) { try onboarding.answer(.heightCm(99)) }
        try onboarding.answer(.heightCm(180))
        #expect(throws: ValidationError.self) { try onboarding.answer(.weightKg(72.55)) }
        #expect(onboarding.step == .weight)
    }

    @Test("an answer for another step is refused")
    func wrongStep() {
        var onboarding = Onboarding(language: .en)
        #expect(throws: ValidationError.self) { try onboarding.answer(.age(30)) }
        #expect(onboarding.step == .welcome)
    }

    @Test("the weight step proposes the default by sex until one is typed")
    func weightDefault() throws {
        var onboarding = Onboarding(language: .en)
        try onboarding.answer(.start)
        try onboarding.answer(.sex(.male))
        #expect(onboarding.proposedWeightKg == 90.0)
        onboarding.back()
        try onboarding.answer(.sex(.female))
        #expect(onboarding.proposedWeightKg == 70.0)
    }

    @Test("switching the goal away from lose drops the eating-window step")
    func goalChange() throws {
        var onboarding = try through(goal: .lose)
        onboarding.back()
        onboarding.back()
        onboarding.back()
        #expect(onboarding.step == .goal)
        try onboarding.answer(.goal(.gain))
        try onboarding.answer(.goalWeightKg(nil))
        #expect(onboarding.isComplete && !onboarding.steps.contains(.eatingWindow))
    }

    @Test("the start date is the local date: 23:59 and 00:00 in Berlin, and another zone")
    func startDate() throws {
        let onboarding = try through(goal: .lose)
        let late = try onboarding.result(clock: FixedClock.at(.ymd(2026, 1, 5), 23, 59, in: Zones.berlin), timeZone: Zones.berlin)
        let midnight = try onboarding.result(clock: FixedClock.at(.ymd(2026, 1, 6), 0, 0, in: Zones.berlin), timeZone: Zones.berlin)
        // 23:59 Berlin on the 5th is still the 5th's afternoon in New York
        let newYork = try onboarding.result(clock: FixedClock.at(.ymd(2026, 1, 6), 0, 30, in: Zones.berlin), timeZone: Zones.newYork)
        #expect(late.startDate == .ymd(2026, 1, 5) && midnight.startDate == .ymd(2026, 1, 6) && newYork.startDate == .ymd(2026, 1, 5))
    }

    @Test("an unfinished onboarding has no result")
    func incomplete() {
        #expect(throws: ValidationError.self) {
            try Onboarding(language: .en).result(clock: FixedClock.at(.ymd(2026, 1, 5), 9, in: Zones.berlin), timeZone: Zones.berlin)
        }
    }

    @Test("every step has a title and subtitle in three languages")
    func texts() {
        for step in OnboardingStep.allCases {
            for language in Language.allCases {
                #expect(Localizer(language).hasKey(step.title.key) && Localizer(language).hasKey(step.subtitle.key))
            }
        }
    }
}
