import DietCore
import FoodKit
import Foundation

/// The one way every surface looks up a barcode (docs/rules.md §6): the user's own foods first, then
/// Open Food Facts unless offline; a product found there is saved among the user's foods, so
/// the next lookup works offline.
public struct BarcodeLookup: Sendable {
    /// What a lookup found.
    public enum Outcome: Hashable, Sendable {
        /// A food of the user's, or one just saved from Open Food Facts (`fromOpenFoodFacts`).
        case found(Food, fromOpenFoodFacts: Bool)
        /// Open Food Facts does not know the code.
        case unknown
        /// Not among the user's foods, and Open Food Facts was not asked (offline) or could not
        /// be reached.
        case notOnDevice
        /// Open Food Facts knows the product but not its energy.
        case incomplete(name: String)
        /// Open Food Facts answered with an unexpected status.
        case serverError(status: Int)
    }

    let client: OpenFoodFactsClient?

    /// - Parameter client: nil when offline (Open Food Facts is never asked).
    public init(client: OpenFoodFactsClient?) {
        self.client = client
    }

    /// The client for `environment`: nil when `WDIET_OFFLINE` is set; the server of
    /// `WDIET_OPEN_FOOD_FACTS_URL`, else the public one.
    public static func client(environment: [String: String], offline: Bool = false) -> OpenFoodFactsClient? {
        if offline || OfflineSetting.isOffline(environment) { return nil }
        let base = environment["WDIET_OPEN_FOOD_FACTS_URL"].flatMap(URL.init(string:)) ?? OpenFoodFactsClient.production
        return OpenFoodFactsClient(baseURL: base)
    }

    /// Looks `barcode` up: `local` finds a food of the user's, `save` stores one found online.
    public func find(
        _ barcode: Barcode,
        language: Language,
        local: () throws -> Food?,
        save: (CustomFood) throws -> Food
    ) async throws -> Outcome {
        if let food = try local() { return .found(food, fromOpenFoodFacts: false) }
        guard let client else { return .notOnDevice }
        let product: CustomFood?
        do throws(OpenFoodFactsClient.Failure) {
            product = try await client.product(barcode, language: language)
        } catch {
            switch error {
            case .unreachable: return .notOnDevice
            case .incomplete(let name): return .incomplete(name: name)
            case .unexpectedResponse(let status): return .serverError(status: status)
            }
        }
        guard let product else { return .unknown }
        return .found(try save(product), fromOpenFoodFacts: true)
    }
}
