import Foundation
import Yams

/// WHOOP's OpenAPI document, read for its response schemas, and payloads built from them: every
/// property, or the required ones only, with values by type, format and enum.
struct OpenAPIPayloads {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    enum Mode: String, CaseIterable, Sendable {
        case allProperties = "all properties"
        case requiredOnly = "required properties only"
    }

    /// The document beside the repository (`../shared/reference`), never a copy inside it.
    static let documentURL = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "../shared/reference/whoop-openapi.yml").standardized

    /// Dates as RFC 3339 allows them: milliseconds, whole seconds, an offset other than Z.
    static let dates = ["2022-04-24T11:25:44.774Z", "2022-04-24T11:25:44Z", "2022-04-24T06:25:44.774-05:00"]
    static let uuid = "ecfc6a15-4661-442f-a9a4-f160dd7afae8"
    /// Above 2^53: a value that passes through a Double loses its last digit.
    static let int64 = 9_007_199_254_740_993
    /// Not a whole number: an integer field where the document says number fails to decode.
    static let number = 98.25

    let root: Node
    let schemas: Node

    init() throws {
        let text = try String(contentsOf: Self.documentURL, encoding: .utf8)
        guard let root = try Yams.compose(yaml: text), let schemas = root["components"]?["schemas"] else {
            throw Failure(description: "\(Self.documentURL.path) has no components.schemas")
        }
        self.root = root
        self.schemas = schemas
    }

    /// The schema name of every 200 `application/json` response, with the operations answering
    /// with it, and the item schema of every array property of those (a collection's records).
    func responseSchemas() throws -> [String: [String]] {
        var found: [String: [String]] = [:]
        for (path, item) in root["paths"]?.mapping ?? [:] {
            for (method, operation) in item.mapping ?? [:] {
                // By key text: the document quotes '200', and a quoted key is another node than 200.
                guard let schema = Self.child(operation, "responses").flatMap({ Self.child($0, "200") })?["content"]?["application/json"]?["schema"]
                else {
                    continue
                }
                let operationName = "\(method.string?.uppercased() ?? "?") \(path.string ?? "?")"
                guard let name = Self.referenceName(schema) else {
                    throw Failure(description: "\(operationName) answers with an inline schema: name it in the table")
                }
                found[name, default: []].append(operationName)
                for item in try arrayItemNames(of: name) {
                    found[item, default: []].append("items of \(name)")
                }
            }
        }
        return found
    }

    private func arrayItemNames(of name: String) throws -> [String] {
        try (resolve(name)["properties"]?.mapping ?? [:]).values.compactMap { property in
            property["type"]?.string == "array" ? property["items"].flatMap(Self.referenceName) : nil
        }
    }

    static func child(_ node: Node, _ key: String) -> Node? {
        node.mapping?.first { $0.key.string == key }?.value
    }

    static func referenceName(_ node: Node) -> String? {
        node["$ref"]?.string.flatMap { $0.hasPrefix("#/components/schemas/") ? String($0.dropFirst(21)) : nil }
    }

    func resolve(_ name: String) throws -> Node {
        guard let schema = schemas[name] else { throw Failure(description: "no schema \(name)") }
        return schema
    }

    /// How many payloads it takes to use every enum value and every date form once.
    func variantCount() -> Int {
        func count(_ node: Node) -> Int {
            var most = node["enum"]?.sequence?.count ?? 0
            for child in node.mapping.map({ Array($0.values) }) ?? [] { most = max(most, count(child)) }
            for child in node.sequence ?? [] { most = max(most, count(child)) }
            return most
        }
        return max(Self.dates.count, count(schemas))
    }

    /// The JSON of schema `name`, built with `mode`; `variant` picks the enum values and date forms.
    func payload(_ name: String, mode: Mode, variant: Int) throws -> Data {
        try JSONSerialization.data(withJSONObject: value(try resolve(name), mode: mode, variant: variant, depth: 0), options: [.sortedKeys])
    }

    func value(_ schema: Node, mode: Mode, variant: Int, depth: Int) throws -> Any {
        guard depth < 16 else { throw Failure(description: "schemas nest deeper than 16 levels") }
        if let name = Self.referenceName(schema) { return try value(try resolve(name), mode: mode, variant: variant, depth: depth + 1) }
        if schema["properties"] != nil || schema["type"]?.string == "object" {
            return try object(schema, mode: mode, variant: variant, depth: depth)
        }
        switch schema["type"]?.string {
        case "array":
            guard let items = schema["items"] else { throw Failure(description: "an array without items") }
            return [try value(items, mode: mode, variant: variant, depth: depth + 1)]
        case "string": return Self.string(schema, variant: variant)
        case "integer": return schema["format"]?.string == "int64" ? Self.int64 : Int(Int32.max)
        case "number": return Self.number
        case "boolean": return variant % 2 == 0
        default: throw Failure(description: "a schema of no known type: \(schema)")
        }
    }

    /// An object's properties (all, or the required ones). With every property, the properties
    /// of each `oneOf` alternative join in, so the widest alternative is decoded too.
    private func object(_ schema: Node, mode: Mode, variant: Int, depth: Int) throws -> [String: Any] {
        let required = Set((schema["required"]?.sequence ?? []).compactMap(\.string))
        var result: [String: Any] = [:]
        for (key, property) in schema["properties"]?.mapping ?? [:] {
            guard let key = key.string, mode == .allProperties || required.contains(key) else { continue }
            result[key] = try value(property, mode: mode, variant: variant, depth: depth + 1)
        }
        if mode == .allProperties {
            for alternative in schema["oneOf"]?.sequence ?? [] {
                guard let fields = try value(alternative, mode: mode, variant: variant, depth: depth + 1) as? [String: Any] else { continue }
                result.merge(fields) { own, _ in own }
            }
        }
        return result
    }

    static func string(_ schema: Node, variant: Int) -> String {
        if let values = schema["enum"]?.sequence?.compactMap(\.string), !values.isEmpty { return values[variant % values.count] }
        switch schema["format"]?.string {
        case "date-time": return dates[variant % dates.count]
        case "uuid": return uuid
        case "date": return "1990-01-31"
        default: return "text \(variant)"
        }
    }
}
