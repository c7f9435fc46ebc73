import DietCore
import FoodKit
import Foundation

/// The fields of a submitted form: url-encoded or multipart. Values are kept as typed, so a
/// page re-shown after a validation error keeps what the user entered.
struct FormData: Sendable {
    struct File: Sendable {
        let filename: String
        let data: Data
    }

    private(set) var fields: [String: [String]] = [:]
    private(set) var files: [String: File] = [:]

    init() {}

    init(fields: [String: [String]], files: [String: File] = [:]) {
        self.fields = fields
        self.files = files
    }

    /// The first value of `name`, trimmed; nil when missing or blank.
    subscript(_ name: String) -> String? {
        guard let value = fields[name]?.first?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    /// The first value of every field as typed, for showing a form again after an error.
    var typed: [String: String] { fields.compactMapValues(\.first) }

    /// The label of the form field `name` in messages: the validated field's name where one
    /// matches ("Meal name"), else the field's own name.
    static func label(of name: String, _ l: Localizer) -> String {
        let fields: [String: ValidationError.Field] = [
            "name": .mealName, "text": .mealText, "email": .email, "password": .password, "server": .server, "url": .calendarAddress,
            "file": .fileName, "q": .search, "kcal": .calories, "protein": .protein, "carbs": .carbs, "fat": .fat, "fiber": .fiber,
            "time": .time, "date": .date, "age": .age, "height": .height, "sex": .sex, "activity": .activityLevel, "goal": .goal,
            "language": .language, "deficit": .deficit, "window_start": .eatingWindowStart, "window_end": .eatingWindowEnd,
            "moment": .eatingMoment, "moment_name": .momentName, "weight": .weight, "servings": .servings, "portion": .portion, "amount": .amount,
            "grams": .portion, "passphrase": .password, "repeat": .password,
        ]
        if let field = fields[name], l.hasKey("field.\(field.rawValue)") { return l.text("field.\(field.rawValue)") }
        return l.text("web.error.formField", ["name": .text(TextRules.visible(name))])
    }

    /// Every value of `name` (checkboxes).
    func all(_ name: String) -> [String] { fields[name] ?? [] }

    func file(_ name: String) -> File? { files[name] }

    /// `application/x-www-form-urlencoded`: `a=1&b=x+y`.
    static func urlEncoded(_ body: String) -> FormData {
        var fields: [String: [String]] = [:]
        for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(parts[0])
            let value = parts.count > 1 ? decode(parts[1]) : ""
            fields[name, default: []].append(value)
        }
        return FormData(fields: fields)
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return lineFeeds(spaced.removingPercentEncoding ?? spaced)
    }

    /// A browser sends a textarea's line breaks as CRLF (HTML's form encoding): they are line
    /// feeds to us, so only a stray carriage return counts as a control character.
    private static func lineFeeds(_ text: String) -> String {
        text.contains("\r") ? text.replacingOccurrences(of: "\r\n", with: "\n") : text
    }

    /// The first field (by name, or a file's name) whose name or value holds a control
    /// character `TextRules` forbids, with that value; nil when the form is clean.
    var forbiddenControlCharacter: (name: String, value: String)? {
        for (name, values) in fields.sorted(by: { $0.key < $1.key }) {
            for value in [name] + values where TextRules.forbiddenControlCharacter(in: value) != nil {
                return (name, value)
            }
        }
        for (name, file) in files.sorted(by: { $0.key < $1.key }) {
            for value in [name, file.filename] where TextRules.forbiddenControlCharacter(in: value) != nil {
                return (name, value)
            }
        }
        return nil
    }

    /// `multipart/form-data` with `boundary` (RFC 7578): text fields and files.
    static func multipart(_ body: Data, boundary: String) -> FormData? {
        let delimiter = Data("--\(boundary)".utf8)
        var fields: [String: [String]] = [:]
        var files: [String: File] = [:]
        var parts: [Data] = []
        var searchStart = body.startIndex
        var previous: Data.Index?
        while let range = body.range(of: delimiter, in: searchStart..<body.endIndex) {
            if let previous { parts.append(body[previous..<range.lowerBound]) }
            previous = range.upperBound
            searchStart = range.upperBound
        }
        guard !parts.isEmpty else { return nil }
        let separator = Data("\r\n\r\n".utf8)
        for var part in parts {
            // each part: CRLF, headers, CRLF CRLF, content, CRLF
            if part.starts(with: Data("\r\n".utf8)) { part = part.dropFirst(2) }
            if part.suffix(2) == Data("\r\n".utf8) { part = part.dropLast(2) }
            guard let split = part.range(of: separator) else { continue }
            let headers = String(decoding: part[part.startIndex..<split.lowerBound], as: UTF8.self)
            let content = Data(part[split.upperBound...])
            guard
                let disposition = headers.split(separator: "\r\n").first(where: {
                    $0.lowercased().hasPrefix("content-disposition:")
                })
            else { continue }
            guard let name = parameter("name", in: disposition) else { continue }
            if let filename = parameter("filename", in: disposition) {
                files[name] = File(filename: filename, data: content)
            } else {
                fields[name, default: []].append(lineFeeds(String(decoding: content, as: UTF8.self)))
            }
        }
        return FormData(fields: fields, files: files)
    }

    /// `name="value"` inside a Content-Disposition header.
    private static func parameter(_ name: String, in header: Substring) -> String? {
        for piece in header.split(separator: ";") {
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix(name + "=") else { continue }
            var value = trimmed.dropFirst(name.count + 1)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            return String(value)
        }
        return nil
    }
}
