import Foundation

/// The small Markdown of the education articles as HTML: `#`/`##`/`###` headings,
/// paragraphs, `-` and `1.` lists, `**bold**` and `*italic*`. Text is escaped first, so an
/// article can never inject markup.
enum Markdown {
    static func html(_ text: String) -> String {
        var output: [String] = []
        var paragraph: [String] = []
        var list: (tag: String, items: [String])?

        func flushParagraph() {
            if !paragraph.isEmpty { output.append("<p>\(inline(paragraph.joined(separator: " ")))</p>") }
            paragraph = []
        }
        func flushList() {
            if let current = list {
                output.append("<\(current.tag)>" + current.items.map { "<li>\(inline($0))</li>" }.joined() + "</\(current.tag)>")
            }
            list = nil
        }

        for raw in text.components(separatedBy: .newlines) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty {
                flushParagraph()
                flushList()
            } else if let level = heading(line) {
                flushParagraph()
                flushList()
                // the page's own h1 is the title; article headings start at h2
                let tag = "h\(min(level + 1, 4))"
                output.append("<\(tag)>\(inline(String(line.dropFirst(level + 1))))</\(tag)>")
            } else if line.hasPrefix("- ") || line.hasPrefix("* ") {
                flushParagraph()
                if list?.tag != "ul" {
                    flushList()
                    list = ("ul", [])
                }
                list?.items.append(String(line.dropFirst(2)))
            } else if let range = line.range(of: #"^\d+\. "#, options: .regularExpression) {
                flushParagraph()
                if list?.tag != "ol" {
                    flushList()
                    list = ("ol", [])
                }
                list?.items.append(String(line[range.upperBound...]))
            } else {
                flushList()
                paragraph.append(line)
            }
        }
        flushParagraph()
        flushList()
        return output.joined(separator: "\n")
    }

    private static func heading(_ line: String) -> Int? {
        let hashes = line.prefix { $0 == "#" }.count
        guard (1...3).contains(hashes), line.dropFirst(hashes).first == " " else { return nil }
        return hashes
    }

    /// Escapes, then turns `**x**` into `<strong>` and `*x*` into `<em>`.
    static func inline(_ text: String) -> String {
        var escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        escaped = escaped.replacingOccurrences(of: #"\*\*(.+?)\*\*"#, with: "<strong>$1</strong>", options: .regularExpression)
        escaped = escaped.replacingOccurrences(of: #"\*(.+?)\*"#, with: "<em>$1</em>", options: .regularExpression)
        return escaped
    }
}
