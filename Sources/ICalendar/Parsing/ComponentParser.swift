/// Something wrong in a calendar that did not stop the rest from being read.
public struct ICalendarProblem: Hashable, Sendable, CustomStringConvertible {
    public let line: Int
    public let message: String

    public var description: String { "line \(line): \(message)" }
}

/// Builds the component tree. A damaged line is reported and skipped; a component whose END
/// never comes is closed at the end of its parent and reported. Lines, components and
/// properties beyond `Limits` are skipped and reported.
enum ComponentParser {
    static let maxDepth = 16

    private struct State {
        var problems = ProblemList()
        var stack: [Component] = []
        var root: Component?
        var components = 0
        /// The component limit was reached: the rest of the text is not read.
        var truncated = false
    }

    static func parse(_ text: String) throws(ICalendarError) -> (Component, ProblemList) {
        var state = State()
        for unfolded in UnfoldedLines(text) {
            let line = unfolded.line
            if unfolded.isTooLong {
                if state.stack.isEmpty, state.root == nil { throw .notACalendar("line \(line) is longer than \(Limits.lineBytes >> 20) MB") }
                state.problems.add(line: line, "a line longer than \(Limits.lineBytes >> 20) MB is skipped")
                continue
            }
            let content: ContentLine
            do {
                content = try ContentLines.parse(unfolded.bytes, line: line)
            } catch {
                if state.stack.isEmpty, state.root == nil { throw .notACalendar("line \(line) is not a content line") }
                state.problems.add(line: line, error.description.replacingOccurrences(of: "line \(line): ", with: ""))
                continue
            }
            try read(content, into: &state)
            if state.truncated { break }
        }
        while let open = state.stack.popLast() {
            if !state.truncated { state.problems.add(line: open.line, "BEGIN:\(open.name) is never ended") }
            if state.stack.isEmpty {
                state.root = state.root ?? open
            } else {
                state.stack[state.stack.count - 1].children.append(open)
            }
        }
        guard let root = state.root else { throw .notACalendar("it is empty") }
        return (root, state.problems)
    }

    private static func read(_ content: ContentLine, into state: inout State) throws(ICalendarError) {
        switch content.name {
        case "BEGIN": try begin(content, into: &state)
        case "END": end(content, into: &state)
        default: try property(content, into: &state)
        }
    }

    private static func begin(_ content: ContentLine, into state: inout State) throws(ICalendarError) {
        let name = content.value.uppercased()
        if state.stack.isEmpty {
            guard state.root == nil else {
                state.problems.add(line: content.line, "content after the end of the calendar is ignored")
                return
            }
            guard name == "VCALENDAR" else { throw .notACalendar("it starts with BEGIN:\(content.value), not BEGIN:VCALENDAR") }
        }
        guard state.stack.count < maxDepth else { throw .notACalendar("components are nested deeper than \(maxDepth) levels") }
        state.components += 1
        guard state.components <= Limits.components else {
            state.problems.add(line: content.line, "the calendar has more than \(Limits.components) components; the rest is skipped")
            state.truncated = true
            return
        }
        state.stack.append(Component(name: name, line: content.line))
    }

    private static func end(_ content: ContentLine, into state: inout State) {
        let name = content.value.uppercased()
        guard let index = state.stack.lastIndex(where: { $0.name == name }) else {
            state.problems.add(line: content.line, "END:\(content.value) has no matching BEGIN")
            return
        }
        // Components opened after the one being closed lost their END: close them too.
        while state.stack.count > index + 1 {
            let open = state.stack.removeLast()
            state.problems.add(line: open.line, "BEGIN:\(open.name) is never ended")
            state.stack[state.stack.count - 1].children.append(open)
        }
        let closed = state.stack.removeLast()
        if state.stack.isEmpty {
            state.root = closed
        } else {
            state.stack[state.stack.count - 1].children.append(closed)
        }
    }

    private static func property(_ content: ContentLine, into state: inout State) throws(ICalendarError) {
        guard let last = state.stack.indices.last else {
            if state.root == nil { throw .notACalendar("line \(content.line) comes before BEGIN:VCALENDAR") }
            return
        }
        guard state.stack[last].properties.count < Limits.propertiesPerComponent else {
            if !state.stack[last].isFull {
                state.stack[last].isFull = true
                state.problems.add(
                    line: state.stack[last].line,
                    "BEGIN:\(state.stack[last].name) has more than \(Limits.propertiesPerComponent) properties; the rest are skipped"
                )
            }
            return
        }
        state.stack[last].properties.append(content)
    }
}
