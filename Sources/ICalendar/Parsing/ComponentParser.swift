/// Something wrong in a calendar that did not stop the rest from being read.
public struct ICalendarProblem: Hashable, Sendable, CustomStringConvertible {
    public let line: Int
    public let message: String

    public var description: String { "line \(line): \(message)" }
}

/// Builds the component tree. A damaged line is reported and skipped; a component whose END
/// never comes is closed at the end of its parent and reported.
enum ComponentParser {
    static let maxDepth = 16

    static func parse(_ text: String) throws(ICalendarError) -> (Component, [ICalendarProblem]) {
        var problems: [ICalendarProblem] = []
        var stack: [Component] = []
        var root: Component?
        for (line, raw) in ContentLines.unfold(text) {
            let content: ContentLine
            do {
                content = try ContentLines.parse(raw, line: line)
            } catch {
                if stack.isEmpty, root == nil { throw .notACalendar("line \(line) is not a content line") }
                problems.append(ICalendarProblem(line: line, message: error.description.replacingOccurrences(of: "line \(line): ", with: "")))
                continue
            }
            switch content.name {
            case "BEGIN":
                let name = content.value.uppercased()
                if stack.isEmpty {
                    guard root == nil else {
                        problems.append(ICalendarProblem(line: line, message: "content after the end of the calendar is ignored"))
                        continue
                    }
                    guard name == "VCALENDAR" else { throw .notACalendar("it starts with BEGIN:\(content.value), not BEGIN:VCALENDAR") }
                }
                guard stack.count < maxDepth else { throw .notACalendar("components are nested deeper than \(maxDepth) levels") }
                stack.append(Component(name: name, line: line))
            case "END":
                let name = content.value.uppercased()
                guard let index = stack.lastIndex(where: { $0.name == name }) else {
                    problems.append(ICalendarProblem(line: line, message: "END:\(content.value) has no matching BEGIN"))
                    continue
                }
                // Components opened after the one being closed lost their END: close them too.
                while stack.count > index + 1 {
                    let open = stack.removeLast()
                    problems.append(ICalendarProblem(line: open.line, message: "BEGIN:\(open.name) is never ended"))
                    stack[stack.count - 1].children.append(open)
                }
                let closed = stack.removeLast()
                if stack.isEmpty {
                    root = closed
                } else {
                    stack[stack.count - 1].children.append(closed)
                }
            default:
                guard !stack.isEmpty else {
                    if root == nil { throw .notACalendar("line \(line) comes before BEGIN:VCALENDAR") }
                    continue
                }
                stack[stack.count - 1].properties.append(content)
            }
        }
        while let open = stack.popLast() {
            problems.append(ICalendarProblem(line: open.line, message: "BEGIN:\(open.name) is never ended"))
            if stack.isEmpty {
                root = root ?? open
            } else {
                stack[stack.count - 1].children.append(open)
            }
        }
        guard let root else { throw .notACalendar("it is empty") }
        return (root, problems)
    }
}
