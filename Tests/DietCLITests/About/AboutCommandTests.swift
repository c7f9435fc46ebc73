import DietCore
import Foundation
import Testing

@testable import DietCLI

/// Issue 29: `wdiet about` gives the food data's sources with their licences.
@Suite("wdiet about")
struct AboutCommandTests {
    @Test("the sources with BLS 4.0's attribution first, in German; JSON for scripts")
    func about() async throws {
        let cli = CLIHarness()
        try await cli.onboardAlice()
        let text = try await cli.run(["about"], now: "2026-01-05T08:00", lang: "de")
        #expect(text.hasPrefix("w-diet: ein lokaler Ernährungscoach. Lebensmitteldaten:"), "\(text)")
        #expect(text.contains("Bundeslebensmittelschlüssel (BLS) 4.0 · 7.140 Lebensmittel"))
        #expect(text.contains("Lizenz: CC BY 4.0") && text.contains("DOI: 10.25826/Data20251217-134202-0"))
        let json = try await cli.run(["about", "--json"], now: "2026-01-05T08:00")
        let sources = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: String]]
        #expect(sources?.first?["id"] == "bls" && sources?.first?["licence"] == "CC BY 4.0")
        #expect(sources?.map { $0["id"] ?? "" }.sorted() == ["bls", "dish", "usda"])
    }
}
