import DietCore
import Foundation
import TestSupport
import Testing

@Suite("Mindful meals")
struct RecoveryMindfulMealTests {
    let noon = LocalDate.ymd(2026, 5, 10).instant(at: .hm(12, 30), in: Zones.berlin)

    func entry(
        _ name: String = "Pasta with friends",
        hunger: String? = "4",
        fullness: String? = "3",
        feeling: String? = nil,
        language: Language = .en
    ) throws(ValidationError) -> MindfulMealEntry {
        try MindfulMealEntry(
            name: name,
            hunger: hunger,
            fullness: fullness,
            feeling: feeling,
            at: noon,
            in: Zones.berlin,
            language: language
        )
    }

    @Test(
        "hunger and fullness are read as a step 1–5 or a word in English, German or Spanish",
        arguments: [
            ("1", HungerScale.veryHungry), ("very hungry", .veryHungry), ("Sehr hungrig", .veryHungry),
            ("mucha hambre", .veryHungry), ("hungry", .hungry), ("hungrig", .hungry), ("con hambre", .hungry),
            (" Neutral ", .neutral), ("satisfied", .satisfied), ("angenehm satt", .satisfied), ("a gusto", .satisfied),
            ("satisfecha", .satisfied), ("very-full", .veryFull), ("sehr satt", .veryFull), ("muy llena", .veryFull),
            ("5", .veryFull),
        ]
    )
    func words(text: String, step: HungerScale) throws {
        #expect(try HungerScale.parse(text, field: .hunger) == step)
    }

    @Test("every step's word in every language reads back as that step")
    func roundTrip() throws {
        for language in Language.allCases {
            for step in HungerScale.allCases {
                let word = Localizer(language).render(step.word)
                #expect(try HungerScale.parse(word, field: .fullness) == step, "\(language) \(word)")
            }
        }
    }

    @Test(
        "hunger 0 or 6, a bad word and nothing are refused naming the field and the words",
        arguments: ["0", "6", "starvingish", "", "3.5"]
    )
    func badSteps(text: String) {
        #expect(throws: ValidationError.self) { try entry(hunger: text) }
        do {
            _ = try entry(hunger: text)
        } catch {
            #expect(error.field == .hunger)
            guard case .oneOf(let words) = error.allowed else {
                Issue.record("not a list: \(error.allowed)")
                return
            }
            #expect(words.contains("4 satisfied"))
        }
    }

    @Test("the refusal lists the words of the person's language")
    func germanWords() {
        do {
            _ = try entry(fullness: "7", language: .de)
            Issue.record("7 was accepted")
        } catch {
            #expect(error.field == .fullness)
            #expect(error.allowed == .oneOf(["1 sehr hungrig", "2 hungrig", "3 neutral", "4 angenehm satt", "5 sehr satt"]))
        }
    }

    @Test("a name of 80 characters is kept, 81 are refused, blank is refused")
    func nameLength() throws {
        #expect(try entry(String(repeating: "a", count: 80)).name.count == 80)
        #expect(throws: ValidationError(field: .mealName, allowed: .length(min: 1, max: 80), received: "81")) {
            try entry(String(repeating: "a", count: 81))
        }
        #expect(throws: ValidationError.self) { try entry("   ") }
    }

    @Test("control characters are refused in the name, the steps and the feeling")
    func controlCharacters() {
        #expect(throws: ValidationError.self) { try entry("Soup\u{1B}[2J") }
        #expect(throws: ValidationError.self) { try entry(hunger: "4\u{0}") }
        #expect(throws: ValidationError.self) { try entry(feeling: "calm\u{7F}") }
    }

    @Test("a feeling is one of the list, by its name or its word in any language; none is fine")
    func feelings() throws {
        #expect(try entry(feeling: "calm").feeling == .calm)
        #expect(try entry(feeling: "in guter Gesellschaft").feeling == .social)
        #expect(try entry(feeling: "Triste").feeling == .sad)
        #expect(try entry(feeling: "").feeling == nil)
        #expect(try entry().feeling == nil)
        #expect(throws: ValidationError.self) { try entry(feeling: "hangry") }
    }

    @Test("the entry keeps its local date, time and zone")
    func civilTime() throws {
        let meal = try entry()
        #expect(meal.localDate == .ymd(2026, 5, 10) && meal.localTime == .hm(12, 30))
        #expect(meal.timeZoneIdentifier == "Europe/Berlin")
        #expect(meal.hunger == .satisfied && meal.fullness == .neutral)
    }
}
