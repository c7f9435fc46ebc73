import Foundation

/// Left- or right-aligned plain-text columns, measured in characters (grapheme clusters).
struct TextTable {
    enum Alignment { case left, right }

    let alignments: [Alignment]
    private(set) var rows: [[String]] = []

    init(_ alignments: [Alignment]) {
        self.alignments = alignments
    }

    mutating func append(_ row: [String]) {
        rows.append(row)
    }

    func render(separator: String = "  ") -> String {
        let widths = alignments.indices.map { column in
            rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        return rows.map { row in
            alignments.indices.map { column in
                let cell = column < row.count ? row[column] : ""
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return alignments[column] == .left ? cell + padding : padding + cell
            }
            .joined(separator: separator)
            .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        .joined(separator: "\n")
    }
}
