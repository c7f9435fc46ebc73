import DietCore

/// Why a file was refused, with the line it happened on: nothing of it was imported.
public struct ImportError: Error, Hashable, Sendable {
    /// The 1-based line of the file (of `export.xml` inside a zip); nil when the problem is
    /// not on one line (an unknown format, a damaged zip).
    public let line: Int?
    public let reason: Reason

    public init(line: Int?, _ reason: Reason) {
        self.line = line
        self.reason = reason
    }

    /// What is wrong, as data; `message(_:)` says it in the user's language.
    public enum Reason: Hashable, Sendable {
        case unreadable(String)
        case empty
        case unknownFormat
        case wdietExport(String)
        case truncated
        case xml(XMLProblem)
        case zipDamaged
        case zipEncrypted
        case zipMethod(Int)
        case zipNoHealthExport
        case csvQuote
        case csvColumns(expected: Int, got: Int)
        case missingColumn(String)
        case badNumber(column: String, value: String)
        case ambiguousNumber(column: String, value: String)
        case badDate(String)
        case badTime(String)
        case unknownUnit(String)
        case impossible(Quantity, value: String)
    }

    /// The kinds of value a file can hold an impossible amount of.
    public enum Quantity: String, Hashable, Sendable {
        case weight, energy, grams
    }

    /// The ways an XML file can be broken that the scanner tells apart.
    public enum XMLProblem: String, Hashable, Sendable {
        case unexpectedCharacter, unclosedTag, mismatchedEnd, unknownEntity, textOutsideRoot, tagTooLong, noRoot, attribute
    }

    /// "Line 12: …" in the user's language.
    public func message(_ l: Localizer) -> String {
        let text = l.render(reasonMessage)
        guard let line else { return text }
        return l.text("import.error.line", ["line": .integer(line), "reason": .text(text)])
    }

    var reasonMessage: Message {
        switch reason {
        case .unreadable(let path): Message("import.error.unreadable", ["path": .text(path)])
        case .empty: Message("import.error.empty")
        case .unknownFormat: Message("import.error.unknownFormat")
        case .wdietExport(let detail): Message("import.error.wdietExport", ["detail": .text(detail)])
        case .truncated: Message("import.error.truncated")
        case .xml(let problem): Message("import.error.xml.\(problem.rawValue)")
        case .zipDamaged: Message("import.error.zipDamaged")
        case .zipEncrypted: Message("import.error.zipEncrypted")
        case .zipMethod(let method): Message("import.error.zipMethod", ["method": .integer(method)])
        case .zipNoHealthExport: Message("import.error.zipNoHealthExport")
        case .csvQuote: Message("import.error.csvQuote")
        case let .csvColumns(expected, got): Message("import.error.csvColumns", ["expected": .integer(expected), "got": .integer(got)])
        case .missingColumn(let name): Message("import.error.missingColumn", ["column": .text(name)])
        case let .badNumber(column, value): Message("import.error.badNumber", ["column": .text(column), "value": .text(value)])
        case let .ambiguousNumber(column, value): Message("import.error.ambiguousNumber", ["column": .text(column), "value": .text(value)])
        case .badDate(let value): Message("import.error.badDate", ["value": .text(value)])
        case .badTime(let value): Message("import.error.badTime", ["value": .text(value)])
        case .unknownUnit(let unit): Message("import.error.unknownUnit", ["unit": .text(unit)])
        case let .impossible(quantity, value): Message("import.error.impossible.\(quantity.rawValue)", ["value": .text(value)])
        }
    }
}
