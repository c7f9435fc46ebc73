import DietCore
import Foundation
import HTTPTypes
import Testing

/// Issue 16, first step: the app can be installed on a phone's home screen.
@Suite("Installable: manifest, icons and theme")
struct InstallableTests {
    /// The width and height a PNG's header declares; nil for anything that is no PNG.
    static func pngSize(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count > 24, bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
        let number = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    @Test("every page links the manifest, the touch icon and the theme colour; the manifest names a standalone app from /")
    func manifest() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            try await browser.onboard()
            let page = try await browser.get("/")
            let link = try #require(page.first(#"<link rel="manifest" href="(/assets/manifest\.webmanifest\?v=[0-9a-z]+)">"#))
            #expect(page.body.contains(##"<meta name="theme-color" content="#F4A460">"##))
            #expect(page.body.contains(#"<link rel="apple-touch-icon" href="/assets/apple-touch-icon.png?v="#))
            let served = try await browser.bytes(link)
            #expect(served.status == .ok && served.headers[.contentType] == "application/manifest+json")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(served.bytes)) as? [String: Any])
            #expect(json["name"] as? String == "w-diet" && json["short_name"] as? String == "w-diet")
            #expect(json["start_url"] as? String == "/" && json["scope"] as? String == "/" && json["display"] as? String == "standalone")
            #expect(json["theme_color"] as? String == "#F4A460" && json["background_color"] as? String != nil)
        }
    }

    @Test("the manifest's icons exist at the sizes they claim: 192 and 512, a maskable 512, and the SVG")
    func icons() async throws {
        let harness = try WebHarness()
        defer { harness.remove() }
        try await harness.run { browser in
            let manifest = try await browser.bytes("/assets/manifest.webmanifest")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(manifest.bytes)) as? [String: Any])
            let icons = try #require(json["icons"] as? [[String: String]])
            #expect(Set(icons.compactMap { $0["sizes"] }).isSuperset(of: ["192x192", "512x512"]))
            #expect(icons.contains { $0["purpose"] == "maskable" && $0["sizes"] == "512x512" })
            for icon in icons {
                let src = try #require(icon["src"])
                let sizes = try #require(icon["sizes"])
                let served = try await browser.bytes(src)
                #expect(served.status == .ok && served.headers[.contentType] == icon["type"], "\(src)")
                guard sizes != "any" else { continue }
                let size = try #require(Self.pngSize(served.bytes), "\(src) is no PNG")
                #expect("\(size.0)x\(size.1)" == sizes, "\(src)")
            }
            let touch = try await browser.bytes("/assets/apple-touch-icon.png")
            #expect(Self.pngSize(touch.bytes).map { $0 == (180, 180) } == true)
        }
    }
}
