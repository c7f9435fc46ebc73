import DietCore
import FoodKit
import Foundation
import TestSupport
import Testing

@testable import FoodFacts

/// Runs `body` against a fresh fake server speaking the documented product API v2.
func withFakeOpenFoodFacts(_ body: (URL) async throws -> Void) async throws {
    let server = try FakeOpenFoodFacts()
    try await body(server.baseURL)
    withExtendedLifetime(server) {}
}

@Suite("Open Food Facts")
struct OpenFoodFactsClientTests {
    @Test("a known product becomes a food per 100 g, named in the user's language, with its serving and attribution")
    func found() async throws {
        let code = try Barcode("4006381333931")
        try await withFakeOpenFoodFacts { url in
            let product = try await OpenFoodFactsClient(baseURL: url).product(code, language: .de)
            let food = try #require(product)
            #expect(food.name == "Schoko-Knuspermüsli")
            #expect(food.per100g.kcal == 452 && food.per100g.proteinG == 9.1 && food.per100g.carbsG == 61 && food.per100g.fatG == 17)
            #expect(abs(food.per100g.sodiumMg - 40) < 1e-9)
            #expect(food.portions == [Portion(amount: 1, name: "45 g", grams: 45)])
            #expect(food.attribution == OpenFoodFactsClient.attribution && food.source == .openFoodFacts)
            #expect(food.barcode?.gtin13 == "4006381333931")
        }
    }

    @Test(
        "a Spanish speaker reads the Spanish name; without one, the generic name in Spanish; then the name entered",
        arguments: [
            (
                #"{"product_name":"Vollmilch","product_name_de":"Frische Vollmilch","product_name_es":"Leche entera fresca","nutriments":{"energy-kcal_100g":64}}"#,
                Language.es, "Leche entera fresca"
            ),
            (
                #"{"product_name":"Vollmilch","product_name_es":"","generic_name_es":"Leche entera","nutriments":{"energy-kcal_100g":64}}"#,
                .es, "Leche entera"
            ),
            (#"{"product_name":"Vollmilch","product_name_es":"Leche entera","nutriments":{"energy-kcal_100g":64}}"#, .de, "Vollmilch"),
            (#"{"product_name_de":"Vollmilch","product_name_es":"Leche entera","nutriments":{"energy-kcal_100g":64}}"#, .de, "Vollmilch"),
        ] as [(String, Language, String)]
    )
    func nameInLanguage(json: String, language: Language, name: String) throws {
        let product = try JSONDecoder().decode(ProductResponse.Product.self, from: Data(json.utf8))
        #expect(try OpenFoodFactsClient.food(from: product, barcode: try Barcode("4006381333931"), language: language).name == name)
    }

    @Test("control characters in a product's name and serving become spaces, so the food can be stored and synced")
    func controlCharactersCleaned() throws {
        let json =
            #"{"product_name_de":"Knusper\u001b[2Jmüsli\u0000","serving_size":"1\u0085Schale","serving_quantity":45,"nutriments":{"energy-kcal_100g":452}}"#
        let product = try JSONDecoder().decode(ProductResponse.Product.self, from: Data(json.utf8))
        let food = try OpenFoodFactsClient.food(from: product, barcode: try Barcode("4006381333931"), language: .de)
        #expect(food.name == "Knusper [2Jmüsli")
        #expect(food.portions.map(\.name) == ["1 Schale"])
    }

    @Test("an unknown barcode is no product, not an error")
    func notFound() async throws {
        let code = try Barcode("96385074")
        try await withFakeOpenFoodFacts { url in
            let product = try await OpenFoodFactsClient(baseURL: url).product(code, language: .en)
            #expect(product == nil)
        }
    }

    @Test("a product without energy is reported as incomplete")
    func incomplete() async throws {
        let code = try Barcode("036000291452")
        try await withFakeOpenFoodFacts { url in
            let client = OpenFoodFactsClient(baseURL: url)
            await #expect(throws: OpenFoodFactsClient.Failure.incomplete("Sparkling water")) {
                try await client.product(code, language: .en)
            }
        }
    }

    @Test("a server answering something else is an unexpected response; no server is unreachable")
    func failures() async throws {
        let code = try Barcode("4006381333931")
        try await withFakeOpenFoodFacts { url in
            let client = OpenFoodFactsClient(baseURL: url.appendingPathComponent("elsewhere"))
            await #expect(throws: OpenFoodFactsClient.Failure.unexpectedResponse(status: 500)) {
                try await client.product(code, language: .en)
            }
        }
        let closed = OpenFoodFactsClient(baseURL: try #require(URL(string: "http://127.0.0.1:9")), timeout: 2)
        await #expect(throws: OpenFoodFactsClient.Failure.unreachable) {
            try await closed.product(code, language: .en)
        }
    }
}

/// Timed, so the suite runs alone (`scripts/test`): in the parallel run a test task can wait
/// tens of seconds for a thread.
@Suite("Open Food Facts refused")
struct OpenFoodFactsRefusedTests {
    /// With AsyncHTTPClient's shared client a closed port was tried again and again until the
    /// lookup's deadline.
    @Test("a closed port is unreachable at once, not after the lookup's deadline")
    func closedPortAtOnce() async throws {
        let closed = OpenFoodFactsClient(baseURL: try #require(URL(string: "http://127.0.0.1:9")), timeout: 20)
        let started = ContinuousClock.now
        await #expect(throws: OpenFoodFactsClient.Failure.unreachable) {
            try await closed.product(try Barcode("4006381333931"), language: .en)
        }
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}
