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

/// The eating window form of onboarding and settings: a start, an end and 2–5 moments; in
/// settings each moment also has a name field beside it (`moment_name`, in the same order).
enum WindowForm {
    /// The fields a form offers for moments: five, blank after the window's own.
    static let slots = 5

    /// The window from `window_start`, `window_end`, `moment` and `moment_name` fields; errors by
    /// field. A name belongs to the moment field at its place: a blank moment drops its name,
    /// and a moment whose time changed keeps it. An empty name is the moment's default name.
    static func parse(_ form: FormData, _ l: Localizer) -> Result<EatingWindow, FieldError> {
        guard let start = form["window_start"].flatMap(TimeOfDay.init(string:)) else {
            return .failure(FieldError(field: "window_start", message: l.text("web.error.time", ["value": .text(form["window_start"] ?? "")])))
        }
        guard let end = form["window_end"].flatMap(TimeOfDay.init(string:)) else {
            return .failure(FieldError(field: "window_end", message: l.text("web.error.time", ["value": .text(form["window_end"] ?? "")])))
        }
        let typedNames = form.all("moment_name")
        var moments: [TimeOfDay] = []
        var names: [String?] = []
        for (index, text) in form.all("moment").enumerated() where !text.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let time = TimeOfDay(string: text.trimmingCharacters(in: .whitespaces)) else {
                return .failure(FieldError(field: "moment", message: l.text("web.error.time", ["value": .text(text)])))
            }
            moments.append(time)
            do throws(ValidationError) {
                names.append(try typedNames.indices.contains(index) ? EatingWindow.checkedName(typedNames[index]) : nil)
            } catch {
                return .failure(FieldError(field: "moment_name", message: l.render(error.message), index: index))
            }
        }
        do {
            return .success(try EatingWindow(start: start, end: end, moments: moments, names: names))
        } catch {
            let field =
                switch error.field {
                case .eatingMoments: "moment"
                case .momentName: "moment_name"
                default: "window_end"
                }
            return .failure(FieldError(field: field, message: l.render(error.message)))
        }
    }

    /// Template values: the selects and five moment fields (blank after the window's own).
    static func values(start: String, end: String, moments: [String]) -> [String: Any] {
        let startTime = TimeOfDay(string: start) ?? EatingWindow.standard.start
        let endTime = TimeOfDay(string: end) ?? EatingWindow.standard.end
        let padded = (moments + Array(repeating: "", count: slots)).prefix(slots)
        return [
            "starts": Options.times(selected: startTime), "ends": Options.times(selected: endTime),
            "moments": padded.enumerated().map { ["index": $0.offset + 1, "value": $0.element, "naming": false] as [String: Any] },
            "named": false,
        ]
    }

    /// Template values with a name field beside each moment field (settings): its value the
    /// name typed or given, its placeholder the default name of the time beside it, its label
    /// "Name of the meal at 07:30"; the field at `invalidName` (0-based) marked.
    static func values(start: String, end: String, moments: [String], names: [String], invalidName: Int? = nil, _ l: Localizer) -> [String: Any] {
        var result = values(start: start, end: end, moments: moments)
        let padded = Array((moments + Array(repeating: "", count: slots)).prefix(slots))
        let typed = Array((names + Array(repeating: "", count: slots)).prefix(slots))
        let times = padded.map { TimeOfDay(string: $0.trimmingCharacters(in: .whitespaces)) }
        let count = times.compactMap { $0 }.count
        result["moments"] = padded.indices.map { index -> [String: Any] in
            let time = times[index]
            let naming: [String: Any] = [
                "nameValue": typed[index],
                "namePlaceholder": time.map { l.render(EatingMoment.Kind(time: $0, momentCount: count).nameMessage) } ?? "",
                "nameLabel": time.map { l.text("web.settings.momentName", ["time": .time($0)]) }
                    ?? l.text("web.settings.momentNameNew", ["number": .integer(index + 1)]),
                "nameInvalid": index == invalidName,
            ]
            return ["index": index + 1, "value": padded[index], "naming": naming]
        }
        result["named"] = true
        return result
    }

    /// Settings: the window's times and the names the user gave its moments.
    static func values(_ window: EatingWindow, _ l: Localizer) -> [String: Any] {
        values(
            start: window.start.formatted,
            end: window.end.formatted,
            moments: window.moments.map(\.formatted),
            names: window.eatingMoments.map { $0.customName ?? "" },
            l
        )
    }
}

/// A message for one field of a form.
struct FieldError: Error {
    let field: String
    let message: String
    /// Which of the fields named `field` (0-based), where a form repeats it.
    var index: Int? = nil
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
