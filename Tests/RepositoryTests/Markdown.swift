import Foundation

/// Just enough Markdown for the docs tests: sections, tables and Mermaid edges.
struct Markdown {
    let text: String

    init(file: String) throws {
        text = try String(contentsOf: repositoryRoot.appendingPathComponent(file), encoding: .utf8)
    }

    init(text: String) { self.text = text }

    /// The text under `## title` up to the next `## ` heading (nested `###` headings included).
    func section(_ title: String) -> Markdown {
        var inside = false
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                inside = line.dropFirst(3).trimmingCharacters(in: .whitespaces) == title
                continue
            }
            if inside { lines.append(line) }
        }
        return Markdown(text: lines.joined(separator: "\n"))
    }

    /// The edges `from --> to` of every Mermaid block, by the nodes' labels (`id["label"]`) where
    /// they have one, and every node named in them.
    func mermaidGraph() -> (edges: Set<Edge>, nodes: Set<String>) {
        var labels: [String: String] = [:]
        var idEdges: [(String, String)] = []
        var ids: Set<String> = []
        for block in codeBlocks(language: "mermaid") {
            for line in block where !line.hasPrefix("graph") && !line.hasPrefix("%%") {
                let sides = line.components(separatedBy: "-->").map { $0.trimmingCharacters(in: .whitespaces) }
                let nodes = sides.compactMap { Self.node($0, labels: &labels) }
                ids.formUnion(nodes)
                if nodes.count == 2 { idEdges.append((nodes[0], nodes[1])) }
            }
        }
        let name = { (id: String) in labels[id] ?? id }
        return (Set(idEdges.map { Edge(name($0.0), name($0.1)) }), Set(ids.map(name)))
    }

    /// Every table as its rows of trimmed cells: the header first, the separator row left out.
    func tables() -> [[[String]]] {
        var tables: [[[String]]] = []
        var current: [[String]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("|") else {
                if !current.isEmpty { tables.append(current) }
                current = []
                continue
            }
            let cells = trimmed.split(separator: "|", omittingEmptySubsequences: false)
                .dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if !cells.allSatisfy({ $0.allSatisfy { $0 == "-" || $0 == ":" } }) { current.append(cells) }
        }
        if !current.isEmpty { tables.append(current) }
        return tables
    }

    /// The body rows of the tables whose header is exactly `header`.
    func rows(header: [String]) -> [[String]] {
        tables().filter { $0.first == header }.flatMap { $0.dropFirst() }.filter { $0.count == header.count }
    }

    /// The `code` spans of a piece of text.
    static func codeSpans(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false)
            .enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    private func codeBlocks(language: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```" + language {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(current ?? [])
                current = nil
            } else if current != nil, !trimmed.isEmpty {
                current?.append(trimmed)
            }
        }
        return blocks
    }

    /// A node written `id` or `id["label"]`; nil for anything else.
    private static func node(_ text: String, labels: inout [String: String]) -> String? {
        guard let id = text.split(separator: "[").first.map(String.init), !id.isEmpty,
            id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { return nil }
        if let open = text.range(of: "[\""), let close = text.range(of: "\"]", options: .backwards) {
            labels[id] = String(text[open.upperBound..<close.lowerBound])
        }
        return id
    }
}

/// A dependency: `from` imports `to`.
struct Edge: Hashable, Comparable, CustomStringConvertible {
    let from: String
    let to: String

    init(_ from: String, _ to: String) {
        self.from = from
        self.to = to
    }

    var description: String { "\(from) --> \(to)" }

    static func < (lhs: Edge, rhs: Edge) -> Bool { lhs.description < rhs.description }
}
