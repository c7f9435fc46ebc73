import DietCore
import Foundation

/// A form's state for a template: the values as typed and one message per bad field.
struct FormState {
    var values: [String: String] = [:]
    var errors: [String: String] = [:]

    /// `{{#errors.kcal}}…{{/errors.kcal}}` and `{{values.kcal}}` in templates.
    var template: [String: Any] { ["values": values, "errors": errors, "hasErrors": !errors.isEmpty] }
}

/// `<option>` lists for the selects of the eating window and the choices of a form.
enum Options {
    /// Every half hour of the day, `selected` marked.
    static func times(selected: TimeOfDay) -> [[String: Any]] {
        stride(from: 0, to: 24 * 60, by: 30).map { minutes in
            let time = TimeOfDay(minutesSinceMidnight: minutes)
            return ["value": time.formatted, "selected": time == selected]
        }
    }

    static func choices<T: RawRepresentable<String>>(_ all: [T], selected: String?, label: (T) -> String) -> [[String: Any]] {
        all.map { ["value": $0.rawValue, "label": label($0), "checked": $0.rawValue == selected] }
    }
}

/// The eating window form of onboarding and settings: a start, an end and 2–5 moments.
enum WindowForm {
    /// The window from `window_start`, `window_end` and `moment` fields; errors by field.
    static func parse(_ form: FormData, _ l: Localizer) -> Result<EatingWindow, FieldError> {
        guard let start = form["window_start"].flatMap(TimeOfDay.init(string:)) else {
            return .failure(FieldError(field: "window_start", message: l.text("web.error.time", ["value": .text(form["window_start"] ?? "")])))
        }
        guard let end = form["window_end"].flatMap(TimeOfDay.init(string:)) else {
            return .failure(FieldError(field: "window_end", message: l.text("web.error.time", ["value": .text(form["window_end"] ?? "")])))
        }
        var moments: [TimeOfDay] = []
        for text in form.all("moment") where !text.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let time = TimeOfDay(string: text.trimmingCharacters(in: .whitespaces)) else {
                return .failure(FieldError(field: "moment", message: l.text("web.error.time", ["value": .text(text)])))
            }
            moments.append(time)
        }
        do {
            return .success(try EatingWindow(start: start, end: end, moments: moments))
        } catch {
            let field = error.field == .eatingMoments ? "moment" : "window_end"
            return .failure(FieldError(field: field, message: l.render(error.message)))
        }
    }

    /// Template values: the selects and five moment fields (blank after the window's own).
    static func values(start: String, end: String, moments: [String]) -> [String: Any] {
        let startTime = TimeOfDay(string: start) ?? EatingWindow.standard.start
        let endTime = TimeOfDay(string: end) ?? EatingWindow.standard.end
        let padded = (moments + Array(repeating: "", count: 5)).prefix(5)
        return [
            "starts": Options.times(selected: startTime), "ends": Options.times(selected: endTime),
            "moments": padded.enumerated().map { ["index": $0.offset + 1, "value": $0.element] as [String: Any] },
        ]
    }

    static func values(_ window: EatingWindow) -> [String: Any] {
        values(start: window.start.formatted, end: window.end.formatted, moments: window.moments.map(\.formatted))
    }
}

/// A message for one field of a form.
struct FieldError: Error {
    let field: String
    let message: String
}

extension Localizer {
    /// A number as the user would type it back into a field: 170 → "170", 170.5 → "170,5" in
    /// German (NumberInput reads both separators).
    func typed(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : number(value, digits: 1)
    }

    /// "P 32 g · C 0 g · F 4 g" in the user's language.
    func macros(protein: Double, carbs: Double, fat: Double, digits: Int = 0) -> String {
        text(
            "web.food.macros",
            [
                "protein": .decimal(protein, digits: digits), "carbs": .decimal(carbs, digits: digits),
                "fat": .decimal(fat, digits: digits),
            ]
        )
    }
}
