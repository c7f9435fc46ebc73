import DietCore

/// ANSI styling that disappears when colour is off.
struct Terminal {
    let color: Bool

    enum Style: String {
        case bold = "1"
        case dim = "2"
        case green = "38;2;76;175;80"
        case orange = "38;2;255;167;38"
        case red = "38;2;239;83;80"
        case gold = "38;2;244;164;96"
    }

    func paint(_ text: String, _ style: Style) -> String {
        color ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    func macroStyle(_ macro: Macro) -> Style {
        switch macro {
        case .protein: .green
        case .carbs: .orange
        case .fat: .red
        }
    }

    /// The ring as a bar of `width` cells: each macro's share of 360° in its colour (letters
    /// P, C, F without colour), the rest as dots, a "+" when the ring overflows.
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
        cells += String(repeating: "·", count: max(0, width - used))
        return "[" + cells + "]" + (ring.overshootDegrees > 0 ? "+" : "")
    }

    /// A progress bar of `width` cells for a 0…1 fraction.
    func bar(_ fraction: Double, width: Int = 20) -> String {
        let filled = Int((min(1, max(0, fraction)) * Double(width)).rounded())
        return paint(String(repeating: "█", count: filled), .gold) + String(repeating: "░", count: width - filled)
    }
}
