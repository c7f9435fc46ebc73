import DietCore
import Foundation

/// ANSI styling that disappears when colour is off.
struct Terminal {
    let color: Bool

    enum Style: String, CaseIterable {
        case bold = "1"
        case dim = "2"
        case green = "38;2;76;175;80"
        case orange = "38;2;255;167;38"
        case red = "38;2;239;83;80"
        case gold = "38;2;244;164;96"
    }

    func paint(_ text: String, _ style: Style) -> String {
        color ? Self.sequence(style.rawValue) + text + Self.reset : text
    }

    static func sequence(_ code: String) -> String { "\u{1B}[\(code)m" }
    static let reset = sequence("0")
    /// The only escape sequences the CLI itself writes: its styles and the reset.
    static let ownSequences = Style.allCases.map { sequence($0.rawValue) } + [reset]

    /// Text as it may reach the terminal: every control character except line feed and tab is
    /// written visibly (`\u001B`, see `TextRules.visible`), so stored or received text (a meal
    /// name synced from elsewhere, a server's message) can never clear the screen or move the
    /// cursor. With `keepingStyles`, the CLI's own colour sequences stay; nothing else does.
    static func safe(_ text: String, keepingStyles: Bool) -> String {
        guard keepingStyles, text.contains("\u{1B}") else { return TextRules.visible(text) }
        var output = ""
        var rest = Substring(text)
        while let escape = rest.firstIndex(of: "\u{1B}") {
            output += TextRules.visible(String(rest[..<escape]))
            let tail = rest[escape...]
            if let own = ownSequences.first(where: { tail.hasPrefix($0) }) {
                output += own
                rest = tail.dropFirst(own.count)
            } else {
                output += TextRules.escape("\u{1B}")
                rest = tail.dropFirst()
            }
        }
        return output + TextRules.visible(String(rest))
    }

    /// Prints `text` made safe (`safe(_:keepingStyles:)`) to standard output.
    static func print(_ text: String, keepingStyles: Bool = false, terminator: String = "\n") {
        Swift.print(safe(text, keepingStyles: keepingStyles), terminator: terminator)
    }

    /// Writes `text` made safe, and a line feed, to standard error.
    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((safe(text, keepingStyles: false) + "\n").utf8))
    }

    func macroStyle(_ macro: Macro) -> Style {
        switch macro {
        case .protein: .green
        case .carbs: .orange
        case .fat: .red
        }
    }

    /// The ring as a bar of `width` cells: each macro's share of 360° in its colour (letters
    /// P, C, F without colour), the rest as dots; over the day's target the ring is full (the
    /// energy the macros do not account for as "=") with a "+" after it (docs/rules.md §5).
    func ring(_ ring: ProgressRing, width: Int = 30) -> String {
        var cells = ""
        var used = 0
        for segment in ring.segments {
            let end = Int((segment.endDegrees / 360 * Double(width)).rounded())
            let count = max(0, end - used)
            used += count
            let glyph = color ? "█" : String(segment.macro.rawValue.prefix(1)).uppercased()
            cells += paint(String(repeating: glyph, count: count), macroStyle(segment.macro))
        }
        cells += String(repeating: ring.isOver ? "=" : "·", count: max(0, width - used))
        return "[" + cells + "]" + (ring.overshootDegrees > 0 ? "+" : "")
    }

    /// A progress bar of `width` cells for a 0…1 fraction.
    func bar(_ fraction: Double, width: Int = 20) -> String {
        let filled = Int((min(1, max(0, fraction)) * Double(width)).rounded())
        return paint(String(repeating: "█", count: filled), .gold) + String(repeating: "░", count: width - filled)
    }
}
