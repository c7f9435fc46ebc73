import AsyncHTTPClient
import DietCore
import FoodKit
import Foundation
import NIOCore

/// Looks up packaged products by barcode in Open Food Facts (open data, ODbL), with the
/// product API v2: `GET /api/v2/product/{code}.json`.
public struct OpenFoodFactsClient: Sendable {
    public static let attribution = "Open Food Facts (openfoodfacts.org), ODbL"
    public static let production = URL(string: "https://world.openfoodfacts.org") ?? URL(fileURLWithPath: "/")

    public enum Failure: Error, Hashable, Sendable {
        /// The server answered something that is not the documented JSON.
        case unexpectedResponse(status: Int)
        /// The product exists but has no usable energy value.
        case incomplete(String)
        /// No connection (offline, DNS, timeout): the caller stays quiet and offers manual entry.
        case unreachable
    }

    let baseURL: URL
    let timeout: TimeAmount
    /// The largest answer read: a product's JSON is a few kilobytes, its richest some hundreds.
    static let maximumBody = 4 << 20

    /// One AsyncHTTPClient for the process, not URLSession (which would link libcurl into every
    /// start of `wdiet`); a refused connection is said at once, not retried until the deadline.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout = .init(connect: .seconds(8))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    public init(baseURL: URL = production, timeout: TimeInterval = 8) {
        self.baseURL = baseURL
        self.timeout = .milliseconds(Int64(max(timeout, 0.001) * 1000))
    }

    /// The product as one of the user's foods, named in `language` when the product has such
    /// a name; nil when Open Food Facts does not know the barcode.
    public func product(_ barcode: Barcode, language: Language) async throws(Failure) -> CustomFood? {
        let url = baseURL.appendingPathComponent("api/v2/product/\(barcode.gtin13).json")
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "User-Agent", value: "w-diet/1.0 (https://github.com/w-diet)")
        request.headers.add(name: "Accept", value: "application/json")
        let status: Int
        let data: Data
        do {
            let response = try await Self.client.execute(request, deadline: .now() + timeout)
            status = Int(response.status.code)
            data = Data(try await response.body.collect(upTo: Self.maximumBody).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw .unexpectedResponse(status: 200)
        } catch {
            throw .unreachable
        }
        guard let body = try? JSONDecoder().decode(ProductResponse.self, from: data) else {
            throw .unexpectedResponse(status: status)
        }
        guard body.status == 1, let product = body.product else {
            if status == 404 || body.status == 0 { return nil }
            throw .unexpectedResponse(status: status)
        }
        return try Self.food(from: product, barcode: barcode, language: language)
    }

    /// A name from the shared database as the app may store it: control characters (which the
    /// row contract refuses) become spaces, and the ends are trimmed.
    /// The product's serving as a portion's name: "30 g", at most 80 characters, "serving" when
    /// it has none.
    static func servingName(_ text: String?) -> String {
        let name = String(cleaned(text ?? "").prefix(80)).trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty ? "serving" : name
    }

    static func cleaned(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { TextRules.isForbidden($0) ? " " : $0 }))
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func food(from product: ProductResponse.Product, barcode: Barcode, language: Language) throws(Failure) -> CustomFood {
        let n = product.nutriments
        // the product's name in the user's language, then its generic name in that language,
        // then the name it was entered with
        let name =
            [product.names[language.rawValue], product.genericNames[language.rawValue], product.productName, product.genericName]
            .compactMap { $0.map(cleaned) }.first { !$0.isEmpty } ?? barcode.digits
        guard let kcal = n.energyKcal100g ?? n.energyKj100g.map({ $0 / 4.184 }) else { throw .incomplete(name) }
        let fiber = n.fiber100g ?? 0
        let nutrients = Nutrients(
            kcal: kcal,
            proteinG: n.proteins100g ?? 0,
            carbsG: n.carbohydrates100g ?? 0,
            totalCarbsG: (n.carbohydrates100g ?? 0) + fiber,
            fiberG: fiber,
            sugarsG: n.sugars100g ?? 0,
            fatG: n.fat100g ?? 0,
            sodiumMg: (n.sodium100g ?? 0) * 1000
        )
        let serving = product.servingQuantity.flatMap {
            $0 > 0 && $0 <= 5000 ? Portion(amount: 1, name: Self.servingName(product.servingSize), grams: $0) : nil
        }
        do {
            return try CustomFood(
                name: String(name.prefix(80)),
                barcode: barcode,
                per100g: nutrients,
                portions: serving.map { [$0] } ?? [],
                source: .openFoodFacts,
                attribution: attribution
            )
        } catch {
            throw .incomplete(name)
        }
    }
}

/// The documented JSON of the product API v2 (only the fields w-diet reads).
struct ProductResponse: Decodable {
    let status: Int
    let product: Product?

    struct Product: Decodable {
        let productName: String?
        let genericName: String?
        let names: [String: String]
        let genericNames: [String: String]
        let nutriments: Nutriments
        let servingSize: String?
        let servingQuantity: Double?

        struct Key: CodingKey {
            let stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            productName = try c.decodeIfPresent(String.self, forKey: Key(stringValue: "product_name"))
            genericName = try c.decodeIfPresent(String.self, forKey: Key(stringValue: "generic_name"))
            var names: [String: String] = [:]
            var genericNames: [String: String] = [:]
            for language in Language.allCases.map(\.rawValue) {
                names[language] = try? c.decodeIfPresent(String.self, forKey: Key(stringValue: "product_name_\(language)"))
                genericNames[language] = try? c.decodeIfPresent(String.self, forKey: Key(stringValue: "generic_name_\(language)"))
            }
            self.names = names
            self.genericNames = genericNames
            nutriments = try c.decodeIfPresent(Nutriments.self, forKey: Key(stringValue: "nutriments")) ?? Nutriments()
            servingSize = try c.decodeIfPresent(String.self, forKey: Key(stringValue: "serving_size"))
            servingQuantity = Self.number(c, "serving_quantity")
        }

        /// OFF writes some numbers as strings ("30").
        static func number(_ c: KeyedDecodingContainer<Key>, _ key: String) -> Double? {
            if let value = try? c.decodeIfPresent(Double.self, forKey: Key(stringValue: key)) { return value }
            return (try? c.decodeIfPresent(String.self, forKey: Key(stringValue: key))).flatMap { $0.flatMap(Double.init) }
        }
    }

    struct Nutriments: Decodable {
        var energyKcal100g: Double?
        var energyKj100g: Double?
        var proteins100g: Double?
        var carbohydrates100g: Double?
        var sugars100g: Double?
        var fat100g: Double?
        var fiber100g: Double?
        var sodium100g: Double?

        init() {}

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Product.Key.self)
            energyKcal100g = Product.number(c, "energy-kcal_100g")
            energyKj100g = Product.number(c, "energy-kj_100g") ?? Product.number(c, "energy_100g")
            proteins100g = Product.number(c, "proteins_100g")
            carbohydrates100g = Product.number(c, "carbohydrates_100g")
            sugars100g = Product.number(c, "sugars_100g")
            fat100g = Product.number(c, "fat_100g")
            fiber100g = Product.number(c, "fiber_100g")
            sodium100g = Product.number(c, "sodium_100g")
        }
    }
}
