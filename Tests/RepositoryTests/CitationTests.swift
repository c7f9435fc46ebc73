import Foundation
import Testing

/// The repository explains itself: code cites `docs/`, and the paths the docs name exist.
@Suite("Code cites docs/, and docs/ names what exists")
struct CitationTests {
    /// The documents the project was designed from live outside the repository; their names,
    /// spelled in pieces so this file does not cite them itself.
    static let outsideDocuments: [(name: String, pattern: String)] = [
        ("SP" + "EC", #"\bSP"# + #"EC\b"#),
        ("se" + "ed 0…", #"(?i)\bseeds? 0"#),
        ("STY" + "LE.md", #"STY"# + #"LE\.md"#),
        ("ARCHI" + "TECTURE.md", #"ARCHI"# + #"TECTURE\.md"#),
    ]

    @Test("no file under Sources, Tests, Benchmarks, Fuzz or scripts cites a document outside docs/")
    func noOutsideCitations() throws {
        // Given every text file of the code folders
        var citations: [String] = []
        for file in try Self.textFiles(under: ["Sources", "Tests", "Benchmarks", "Fuzz", "scripts"]) {
            // When each line is searched for the outside documents' names
            for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for document in Self.outsideDocuments where line.range(of: document.pattern, options: .regularExpression) != nil {
                    citations.append("\(file.path):\(number + 1) cites \(document.name)")
                }
            }
        }
        // Then there is none: a rule is cited as docs/rules.md §n, a design as docs/architecture.md
        #expect(citations.isEmpty, "\(citations.count) citations outside docs/:\n\(citations.joined(separator: "\n"))")
    }

    @Test("every repository path a docs/ page names in code marks exists")
    func docsPathsExist() throws {
        // Given the paths named in `code` in the docs written for this repository
        let pages = ["docs/README.md", "docs/architecture.md", "docs/rules.md", "docs/howto.md", "docs/style.md"]
        let roots = ["Sources/", "Tests/", "Benchmarks/", "Fuzz/", "scripts/", "docs/", "data/", ".ci/"]
        var missing: [String] = []
        for page in pages {
            let text = try Markdown(file: page).text
            let spans = Markdown.codeSpans(text) + Self.linkTargets(text, page: page)
            for span in spans {
                // a path, not a command or a pattern: the first word, without a `:line` suffix
                guard let word = span.split(separator: " ").first.map(String.init),
                    roots.contains(where: word.hasPrefix), !word.contains("<"), !word.contains("*"),
                    !word.contains("…")
                else { continue }
                let path = (word.split(separator: ":").first.map(String.init) ?? word)
                    .trimmingCharacters(in: CharacterSet(charactersIn: ",;."))
                // When each is looked up from the repository's root
                if !FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent(path).path) {
                    missing.append("\(page): \(path)")
                }
            }
        }
        // Then every one exists
        #expect(missing.isEmpty, "named in docs/, not in the repository:\n\(missing.joined(separator: "\n"))")
    }

    /// The targets of relative Markdown links, `[text](target)`, as paths from the root.
    static func linkTargets(_ text: String, page: String) -> [String] {
        let pattern = #"\]\(([^)#\s]+)"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            guard let target = Range(match.range(at: 1), in: text).map({ String(text[$0]) }),
                !target.contains("://")
            else { return nil }
            var parts = page.split(separator: "/").dropLast().map(String.init)
            for part in target.split(separator: "/").map(String.init) where part != "." {
                if part == "..", !parts.isEmpty { parts.removeLast() } else { parts.append(part) }
            }
            return parts.joined(separator: "/")
        }
    }

    /// The UTF-8 text files under `folders`, build products and hidden folders left out.
    static func textFiles(under folders: [String]) throws -> [(path: String, text: String)] {
        var files: [(path: String, text: String)] = []
        for folder in folders {
            let url = repositoryRoot.appendingPathComponent(folder)
            guard
                let walker = FileManager.default.enumerator(
                    at: url,
                    includingPropertiesForKeys: [.isRegularFileKey],
                    options: [.skipsHiddenFiles]
                )
            else { continue }
            for case let file as URL in walker {
                guard (try file.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true,
                    let data = FileManager.default.contents(atPath: file.path),
                    let text = String(data: data, encoding: .utf8), !text.contains("\0")
                else { continue }
                let path = String(file.path.dropFirst(repositoryRoot.path.count + 1))
                files.append((path, text))
            }
        }
        return files
    }
}
