import DietCore
import DietWeb
import Foundation
import Testing

/// No developer words on a person's screen (issue 30): set-up details (environment variables,
/// OAuth scopes, callback addresses) and CLI commands live in docs/whoop.md and the terminal,
/// never in the web app's strings or pages.
@Suite("The web app speaks plain words")
struct PlainWordsTests {
    /// What gives a text away as a developer's: each with what it is.
    static let developerWords: [(name: String, pattern: String)] = [
        ("an environment variable", #"WDIET_"#),
        ("a CLI command", #"\bwdiet "#),
        ("OAuth", #"OAuth"#),
        ("an OAuth scope", #"\bscopes?\b"#),
        ("a web address", #"https?://"#),
        ("a backtick", "`"),
        ("a command-line option", #"--[a-z]"#),
        ("WHOOP's developer site", #"developer\.whoop"#),
    ]

    /// The developer words `text` holds, by name.
    static func developerWords(in text: String) -> [String] {
        developerWords.filter { text.range(of: $0.pattern, options: [.regularExpression, .caseInsensitive]) != nil }.map(\.name)
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The table as committed: `Sources/DietCore/Resources/Strings/<language>.json`.
    static func table(_ language: Language) throws -> [String: String] {
        let url = root.appendingPathComponent("Sources/DietCore/Resources/Strings/\(language.rawValue).json")
        return try JSONDecoder().decode([String: String].self, from: Data(contentsOf: url))
    }

    /// The keys outside `web.` that the web app's code names: outright (`"cli.text.unparsed"`)
    /// or as a family it completes (`"cli.roar.\(level)"`, two parts deep at least).
    static func otherKeysTheWebNames(in table: [String: String]) throws -> Set<String> {
        let walker = try #require(FileManager.default.enumerator(at: root.appendingPathComponent("Sources/DietWeb"), includingPropertiesForKeys: nil))
        var keys: Set<String> = []
        for case let file as URL in walker where file.pathExtension == "swift" {
            let source = try String(contentsOf: file, encoding: .utf8)
            for match in source.matches(of: /"([a-z][A-Za-z]*\.[A-Za-z0-9_.]*)/) {
                let name = String(match.output.1)
                guard !name.hasPrefix("web.") else { continue }
                if table[name] != nil {
                    keys.insert(name)
                } else if name.hasSuffix("."), name.filter({ $0 == "." }).count >= 2 {
                    keys.formUnion(table.keys.filter { $0.hasPrefix(name) })
                }
            }
        }
        return keys
    }

    /// What a person sees of a page: its text, and the labels read out, shown on hover or in a
    /// confirmation; without scripts, styles, markup, links' targets or fields' placeholders
    /// (the calendar address field shows "https://" as the start of what to paste).
    static func visibleText(_ html: String) -> String {
        let page = html.replacingOccurrences(of: #"(?is)<(script|style)\b[^>]*>.*?</\1>"#, with: " ", options: .regularExpression)
        let labels = page.matches(of: /\b(?:aria-label|title|alt|data-confirm)="([^"]*)"/).map { String($0.output.1) }
        let text = page.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        return ([text] + labels).joined(separator: "\n")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test("every web string in every language is free of environment variables, scopes, addresses, CLI commands and options")
    func webStrings() throws {
        for language in Language.allCases {
            let table = try Self.table(language)
            let web = table.filter { $0.key.hasPrefix("web.") }
            #expect(web.count > 400)
            for (key, text) in web.sorted(by: { $0.key < $1.key }) {
                let words = Self.developerWords(in: text)
                #expect(words.isEmpty, "\(language) \(key) holds \(words.joined(separator: ", ")): \(text)")
            }
        }
    }

    @Test("so is every string the web app takes from the CLI's and the store's tables")
    func borrowedStrings() throws {
        for language in Language.allCases {
            let table = try Self.table(language)
            let keys = try Self.otherKeysTheWebNames(in: table)
            #expect(keys.contains("cli.text.unparsed") && keys.contains("cli.roar.1"), "the web app's keys are found")
            for key in keys.sorted() {
                let text = table[key] ?? ""
                let words = Self.developerWords(in: text)
                #expect(words.isEmpty, "\(language) \(key) holds \(words.joined(separator: ", ")): \(text)")
            }
        }
    }

    @Test(
        "a server without WHOOP's app registration says in plain words what connecting needs, and nothing of the set-up",
        arguments: Language.allCases
    )
    func whoopNotConfigured(language: Language) async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        let l = Localizer(language)
        try await harness.run { browser in
            browser.acceptLanguage = language.rawValue
            // Given a server started without WDIET_WHOOP_CLIENT_ID and WDIET_WHOOP_CLIENT_SECRET
            let page = try await browser.get("/briefing")
            #expect(page.status == .ok)
            // Then the WHOOP card says what connecting needs
            #expect(page.shows(l.text("web.briefing.whoop.notConfigured")))
            // and the page shows no set-up detail, no callback address, no command
            let words = Self.developerWords(in: Self.visibleText(page.body))
            #expect(words.isEmpty, "\(language): the briefing shows \(words.joined(separator: ", "))")
            #expect(!page.body.contains("/briefing/whoop/callback"))
            #expect(page.missingStrings.isEmpty, "\(page.missingStrings)")
        }
    }
}
