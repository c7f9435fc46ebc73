import DietCore
import Foundation
import TestSupport
import Testing

@Suite("Analytics events")
struct AnalyticsEventTests {
    static let cases: [(AnalyticsEvent, String)] = [
        (.onboardingStepCompleted(step: .eatingWindow, index: 8), #"{"index":8,"step":"eating_window"}"#),
        (.onboardingCompleted(goal: .lose, language: .de, preset: .openEnded), #"{"goal":"lose","language":"de","preset":"open_ended"}"#),
        (.mealLogged(hasMacros: true, source: .search, outsideWindow: false), #"{"has_macros":true,"outside_window":false,"source":"search"}"#),
        (.mealEdited, "{}"), (.mealDeleted, "{}"),
        (.weightLogged(replacedSameDay: true), #"{"replaced_same_day":true}"#),
        (.phaseSwitched(from: .diet, to: .maintenance, programmeDay: 22), #"{"from":"diet","programme_day":22,"to":"maintenance"}"#),
        (.cycleRecovered(reason: .timeZoneChange, programmeDay: 21), #"{"programme_day":21,"reason":"time_zone_change"}"#),
        (.streakActivated(days: 7), #"{"days":7}"#),
        (.educationOpened(topic: "matador-study"), #"{"topic":"matador-study"}"#),
        (.eatingWindowChanged(start: .hm(11), end: .hm(17)), #"{"end":"17:00","start":"11:00"}"#),
        (.dataExported(format: "json"), #"{"format":"json"}"#), (.accountDeleted, "{}"),
        (.briefingGenerated(hasRecovery: false, hasCalendar: true), #"{"has_calendar":true,"has_recovery":false}"#),
        (.errorOccurred(code: "validation.weight", surface: "cli"), #"{"code":"validation.weight","surface":"cli"}"#),
    ]

    @Test("every core event of docs/rules.md §9 has its snake_case name")
    func names() {
        #expect(
            Self.cases.map(\.0.name) == [
                "onboarding_step_completed", "onboarding_completed", "meal_logged", "meal_edited", "meal_deleted", "weight_logged",
                "phase_switched", "cycle_recovered", "streak_activated", "education_opened", "eating_window_changed",
                "data_exported", "account_deleted", "briefing_generated", "error_occurred",
            ]
        )
    }

    @Test("properties encode to the pinned JSON", arguments: 0..<15)
    func properties(index: Int) throws {
        let (event, json) = Self.cases[index]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(event.properties), as: UTF8.self) == json)
        let decoded = try JSONDecoder().decode([String: AnalyticsValue].self, from: Data(json.utf8))
        #expect(decoded == event.properties)
    }

    @Test("a stored record decodes from literal JSON with its local date and zone")
    func record() throws {
        let json = """
            {"id":"6F1C1C3A-1B4E-4C53-9C1F-3C1D5E7A9B21","name":"meal_logged","occurred_at":788918400,
            "local_date":"2026-01-01","time_zone":"Europe/Berlin","properties":{"has_macros":false,"source":"manual","outside_window":true}}
            """
        let record = try JSONDecoder().decode(AnalyticsRecord.self, from: Data(json.utf8))
        let expected = AnalyticsRecord(
            id: record.id,
            event: .mealLogged(hasMacros: false, source: .manual, outsideWindow: true),
            at: Date(timeIntervalSinceReferenceDate: 788_918_400),
            in: Zones.berlin
        )
        #expect(record == expected)
        #expect(record.localDate == .ymd(2026, 1, 1))
    }
}
