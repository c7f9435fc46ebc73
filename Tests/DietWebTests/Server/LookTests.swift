import DietCore
import DietStore
import DietWeb
import Foundation
import Testing

/// Issue 16, "looks and feels like a first-class app": the icon set, the fire mascot chosen by
/// the domain, the roars reaching the page, dark mode and its contrast.
@Suite("Look and feel")
struct LookTests {
    @Test("the tab bar: an SVG icon and a visible label for every tab, no emoji")
    func tabBar() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let page = try await browser.get("/")
            let nav = try #require(page.first(#"(<nav class="tab-bar"[\s\S]*?</nav>)"#))
            let tabs = nav.components(separatedBy: "<li>").dropFirst()
            #expect(tabs.count == 5)
            for tab in tabs {
                #expect(tab.contains(#"<span class="tab-icon" aria-hidden="true"><svg "#), "\(tab)")
                #expect(tab.contains(#"stroke="currentColor""#), "\(tab)")
                let label = try #require(Browser.Page(status: .ok, body: tab, headers: [:]).first(#"<span class="tab-label">([^<]+)</span>"#))
                #expect(!label.trimmingCharacters(in: .whitespaces).isEmpty)
            }
            #expect(Self.emoji(in: nav).isEmpty, "no emoji in the tab bar: \(Self.emoji(in: nav))")
            // Given the stylesheet, the label is shown (not the visually-hidden clip of old)
            let css = try await browser.get("/assets/app.css").body
            let rule = try #require(Self.rules(in: css, selector: ".tab-label").first)
            #expect(!rule.contains("clip") && !rule.contains("position: absolute") && !rule.contains("width: 1px"), "\(rule)")
        }
    }

    @Test("no page draws its interface with emoji: onboarding's choices, empty meals, the briefing use the icon set")
    func noEmojiInTheInterface() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.get("/onboarding")
            let sex = try await browser.post("/onboarding", [("language", "en"), ("step", "welcome"), ("action", "next")])
            #expect(sex.body.contains("name=\"sex\""))
            #expect(Self.emoji(in: sex.body).isEmpty, "\(Self.emoji(in: sex.body))")
            try await browser.onboard()
            for path in ["/meals", "/briefing"] {
                // the macro smileys are the product's feedback (docs/rules.md §5), not interface
                let body = try await browser.get(path).body.replacing(/<span( class="macro-emoji")?>(😊|😐|😞)<\/span>/, with: "")
                #expect(Self.emoji(in: body).isEmpty, "\(path): \(Self.emoji(in: body))")
            }
            #expect(try await browser.get("/meals").body.contains("icon-meal"))
        }
    }

    @Test("the coach card draws the mascot variation the domain chose: glasses, strong, gentle")
    func mascotVariation() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            // Given the first habit-week morning with nothing logged: the coach teaches
            try await self.expectMascot(.glasses, harness: harness, browser: browser)
            // When every macro reaches its goal (within the day's calories): the coach celebrates
            let report = try #require(try harness.store().today(timeZone: harness.timeZone)).report
            let goals = Dictionary(uniqueKeysWithValues: report.macros.map { ($0.macro, String(Int($0.goalG.rounded()))) })
            try await browser.post(
                "/log/manual",
                [
                    ("name", "Big meal"), ("kcal", String(report.calories.targetKcal - 10)),
                    ("protein", goals[.protein] ?? ""), ("carbs", goals[.carbs] ?? ""), ("fat", goals[.fat] ?? ""),
                ]
            )
            try await self.expectMascot(.strong, harness: harness, browser: browser)
            // When the day goes far over the target with carbs above their goal: the coach soothes
            try await browser.post("/log/manual", [("name", "Cake"), ("kcal", "2500"), ("protein", "5"), ("carbs", "500"), ("fat", "40")])
            try await self.expectMascot(.gentle, harness: harness, browser: browser)
        }
    }

    private func expectMascot(_ variation: FireVariation, harness: WebHarness, browser: Browser) async throws {
        let chosen = try #require(try harness.store().today(timeZone: harness.timeZone)).report.coach.variation
        #expect(chosen == variation, "the domain's choice")
        let page = try await browser.get("/")
        let coach = try #require(page.first(#"(<p class="coach [\s\S]*?</p>)"#))
        #expect(coach.contains(#"<svg class="mascot-fire mascot-\#(variation.rawValue)" data-mascot="\#(variation.rawValue)""#), "\(coach)")
        #expect(page.body.components(separatedBy: "data-mascot=").count == 2, "one mascot on the dashboard")
        #expect(Self.emoji(in: coach).isEmpty, "the mascot is drawn, not an emoji: \(Self.emoji(in: coach))")
        #expect(page.missingStrings.isEmpty)
    }

    @Test("the welcome and the error page show the drawn mascot")
    func mascotElsewhere() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            let welcome = try await browser.get("/onboarding")
            #expect(welcome.body.contains(#"data-mascot="default""#))
            let missing = try await browser.get("/no-such-page")
            #expect(missing.status == .notFound && missing.body.contains(#"data-mascot="default""#))
            #expect(!missing.body.contains("🔥"))
        }
    }

    @Test("a roar in the flash reaches the page once, as data-roar on the body")
    func roarReachesPage() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            #expect(!(try await browser.get("/")).body.contains("data-roar"))
            // When a meal is saved (docs/rules.md §5: a saved meal roars)
            let saved = try await browser.post("/log/manual", [("name", "Soup"), ("kcal", "300")])
            #expect(saved.status == .seeOther)
            let flash = try #require(browser.cookies["wdiet_flash"])
            let roar = try #require(flash.split(separator: "~")[0].split(separator: ".").dropFirst().first.flatMap { Int($0) })
            // Then the dashboard carries it for the mascot's animation and the haptics
            let page = try await browser.get("/")
            #expect(page.body.contains(#"<body class="has-tabs" data-roar="\#(roar)">"#), "\(page.body.prefix(1500))")
            #expect(!(try await browser.get("/")).body.contains("data-roar"), "once")
            // And the stylesheet pulses the mascot as many times, with reduced motion turning it off
            let css = try await browser.get("/assets/app.css").body
            #expect(css.contains(#"[data-roar="2"] .mascot-fire"#) && css.contains(#"[data-roar="3"] .mascot-fire"#))
            #expect(css.contains("@media (prefers-reduced-motion: reduce)"))
        }
    }

    @Test("the big 'kcal left' figure, and 'kcal over' in the over style past the target")
    func kcalLeft() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            try await browser.post("/log/manual", [("name", "Lunch"), ("kcal", "600")])
            let target = try #require(try harness.store().today(timeZone: harness.timeZone)).report.calories.targetKcal
            let l = Localizer(.en)
            let page = try await browser.get("/")
            #expect(page.first(#"<strong class="ring-left" data-kcal-left>([^<]+)</strong>"#) == l.number(Double(target - 600), digits: 0))
            #expect(page.body.contains(#"<span class="ring-left-label">kcal left</span>"#))
            try await browser.post("/log/manual", [("name", "Feast"), ("kcal", "\(target)")])
            let over = try await browser.get("/")
            #expect(over.body.contains(#"<figure class="ring is-over""#))
            #expect(over.first(#"<strong class="ring-left" data-kcal-left>([^<]+)</strong>"#) == "600")
            #expect(over.body.contains(#"<span class="ring-left-label">kcal over</span>"#))
        }
    }

    @Test("dark mode by the system's scheme: color-scheme and a theme colour per scheme")
    func darkModeMeta() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            let page = try await browser.get("/onboarding")
            #expect(page.body.contains(#"<meta name="color-scheme" content="light dark">"#))
            #expect(page.body.contains(#"<meta name="theme-color" media="(prefers-color-scheme: dark)""#))
            let css = try await browser.get("/assets/app.css").body
            let colours = try #require(ColourScheme(css: css))
            #expect(colours.light.keys.filter { $0 != "--fire-gold" }.count > 20)
            for name in [
                "--bg", "--surface", "--text", "--text-muted", "--accent", "--border", "--good", "--warn", "--over", "--diet", "--maintenance",
                "--habit",
            ] {
                #expect(colours.light[name] != nil && colours.dark[name] != nil, "every colour in both schemes (\(name))")
            }
        }
    }

    /// Text on background (4.5:1) and large text or UI on background (3:1), as app.css pairs them.
    static let textPairs: [(String, String)] = [
        ("--text", "--bg"), ("--text", "--surface"), ("--text", "--surface-2"), ("--text", "--field"), ("--text", "--accent-soft"),
        ("--text-muted", "--bg"), ("--text-muted", "--surface"), ("--text-muted", "--surface-2"), ("--text-muted", "--accent-soft"),
        ("--on-accent", "--accent"), ("--on-accent", "--accent-hover"), ("--accent-text", "--bg"), ("--accent-text", "--surface"),
        ("--accent-text", "--accent-soft"), ("--text", "--surface-2"), ("--on-danger", "--danger"),
        ("--success-text", "--good-soft"), ("--good", "--surface"), ("--warn", "--warn-soft"), ("--text", "--warn-soft"),
        ("--over", "--surface"), ("--over", "--bg"), ("--error-text", "--error-soft"), ("--error-text", "--surface"),
        ("--protein-text", "--surface"), ("--carbs-text", "--surface"), ("--fat-text", "--surface"),
        ("--text", "--habit"), ("--text", "--diet"), ("--text", "--maintenance"), ("--text", "--completed"),
        ("--text-muted", "--habit"), ("--text-muted", "--diet"), ("--text-muted", "--maintenance"),
        ("--banner-text", "--banner-bg"), ("--on-accent", "--flame"), ("--flame-face", "--flame-belly"),
    ]
    static let uiPairs: [(String, String)] = [
        ("--border-strong", "--surface"), ("--border-strong", "--field"), ("--border-strong", "--bg"),
        ("--accent-text", "--bg"), ("--flame-dark", "--surface"),
    ]

    @Test("AA contrast in light and dark: every text pair 4.5:1, large text and UI 3:1 (WCAG relative luminance)")
    func contrast() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            let css = try await browser.get("/assets/app.css").body
            let scheme = try #require(ColourScheme(css: css))
            for (name, colours) in [("light", scheme.light), ("dark", scheme.dark)] {
                for (pairs, minimum) in [(Self.textPairs, 4.5), (Self.uiPairs, 3.0)] {
                    for (foreground, background) in pairs {
                        let f = try #require(colours[foreground], "\(name) \(foreground)")
                        let b = try #require(colours[background], "\(name) \(background)")
                        let ratio = Colour.contrast(f, b)
                        #expect(ratio >= minimum, "\(name): \(foreground) on \(background) is \(String(format: "%.2f", ratio)):1")
                    }
                }
            }
        }
    }

    @Test("the contrast computation: black on white is 21:1, equal colours 1:1, #777 on white fails 4.5:1")
    func contrastArithmetic() throws {
        let white = try #require(Colour(hex: "#FFFFFF"))
        let black = try #require(Colour(hex: "#000"))
        #expect(abs(Colour.contrast(black, white) - 21) < 0.001)
        #expect(abs(Colour.contrast(white, white) - 1) < 0.001)
        let grey = try #require(Colour(hex: "#777777"))
        #expect(Colour.contrast(grey, white) < 4.5 && Colour.contrast(grey, white) > 4.4)
    }

    /// The emoji (pictographic scalars, not plain text symbols like ← or ·) in `text`.
    static func emoji(in text: String) -> [String] {
        text.unicodeScalars.filter { $0.properties.isEmojiPresentation || ($0.properties.isEmoji && $0.value >= 0x2100 && $0.value != 0x2013) }
            .map { String($0) }
    }

    /// The declaration blocks of `selector`'s rules in `css`.
    static func rules(in css: String, selector: String) -> [String] {
        css.components(separatedBy: "\n").filter { $0.hasPrefix(selector + " {") }
    }
}

/// An sRGB colour and WCAG 2.x contrast.
struct Colour: Equatable {
    let red: Double, green: Double, blue: Double

    init?(hex: String) {
        var digits = hex.trimmingCharacters(in: .whitespaces).dropFirst()
        if digits.count == 3 { digits = Substring(digits.map { "\($0)\($0)" }.joined()) }
        guard hex.hasPrefix("#"), digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        red = Double(value >> 16 & 0xFF) / 255
        green = Double(value >> 8 & 0xFF) / 255
        blue = Double(value & 0xFF) / 255
    }

    /// WCAG relative luminance: each channel linearised, weighted 0.2126, 0.7152, 0.0722.
    var luminance: Double {
        func linear(_ c: Double) -> Double { c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// (L1 + 0.05) / (L2 + 0.05), the lighter over the darker.
    static func contrast(_ a: Colour, _ b: Colour) -> Double {
        let (l1, l2) = (max(a.luminance, b.luminance), min(a.luminance, b.luminance))
        return (l1 + 0.05) / (l2 + 0.05)
    }
}

/// The colour custom properties of app.css: `:root` for light, and the `:root` inside
/// `@media (prefers-color-scheme: dark)` over it for dark; `var(--x)` resolved.
struct ColourScheme {
    let light: [String: Colour]
    let dark: [String: Colour]

    init?(css rawCSS: String) {
        let css = rawCSS.replacingOccurrences(of: #"/\*[\s\S]*?\*/"#, with: "", options: .regularExpression)
        guard let rootStart = css.range(of: ":root {"), let darkStart = css.range(of: "@media (prefers-color-scheme: dark) {"),
            let darkRoot = css.range(of: ":root {", range: darkStart.upperBound..<css.endIndex)
        else { return nil }
        let lightBlock = css[rootStart.upperBound...].prefix { $0 != "}" }
        let darkBlock = css[darkRoot.upperBound...].prefix { $0 != "}" }
        let lightRaw = Self.declarations(String(lightBlock))
        let darkRaw = lightRaw.merging(Self.declarations(String(darkBlock))) { $1 }
        light = Self.resolve(lightRaw)
        dark = Self.resolve(darkRaw)
    }

    private static func declarations(_ block: String) -> [String: String] {
        var values: [String: String] = [:]
        for part in block.components(separatedBy: ";") {
            let pair = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            guard pair.count == 2, pair[0].hasPrefix("--") else { continue }
            values[pair[0]] = pair[1]
        }
        return values
    }

    private static func resolve(_ raw: [String: String]) -> [String: Colour] {
        var colours: [String: Colour] = [:]
        for name in raw.keys {
            var value = raw[name] ?? ""
            for _ in 0..<5 where value.hasPrefix("var(") {
                value = raw[String(value.dropFirst(4).dropLast())] ?? ""
            }
            if let colour = Colour(hex: value) { colours[name] = colour }
        }
        return colours
    }
}
