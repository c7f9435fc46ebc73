import Foundation

/// The targets of Package.swift as SwiftPM reads them (`swift package dump-package`), so the
/// docs are checked against the manifest itself, not against a second parser of its text.
struct PackageManifest {
    /// One target: its name, kind, folder and what it depends on.
    struct Target {
        let name: String
        let type: String
        let path: String?
        let targetDependencies: [String]
        let productDependencies: [String]

        /// Fixtures for tests (`Tests/Support/…`): targets, but not part of the product.
        var isTestSupport: Bool {
            type == "regular" && ((path ?? "").hasPrefix("Tests/") || name.hasSuffix("TestSupport"))
        }

        /// Libraries and executables of the product, benchmarks and fuzzers included.
        var isProduct: Bool { type != "test" && !isTestSupport }
    }

    let targets: [Target]

    /// Reads the manifest at `root` with a throwaway scratch folder, so the test never waits for
    /// the build lock that the running `swift test` holds.
    static func load(root: URL) throws -> PackageManifest {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("wdiet-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // The output goes to a file, not a pipe: a pipe is read to its end only when every
        // process that inherited it has closed it, and a server another test starts meanwhile
        // would keep it open (see TestSupport's ChildProcess).
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let outputURL = scratch.appendingPathComponent("package.json")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--scratch-path", scratch.appendingPathComponent("build").path, "dump-package"]
        process.currentDirectoryURL = root
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ManifestError.dumpFailed(process.terminationStatus) }
        let data = try Data(contentsOf: outputURL)
        return try PackageManifest(json: data)
    }

    init(json: Data) throws {
        guard let object = try JSONSerialization.jsonObject(with: json) as? [String: Any],
            let rawTargets = object["targets"] as? [[String: Any]]
        else { throw ManifestError.unreadable }
        targets = rawTargets.compactMap(Self.target)
    }

    private static func target(_ raw: [String: Any]) -> Target? {
        guard let name = raw["name"] as? String, let type = raw["type"] as? String else { return nil }
        var targetDependencies: [String] = []
        var productDependencies: [String] = []
        for dependency in raw["dependencies"] as? [[String: Any]] ?? [] {
            // `byName` and `target` name a target of this package; `product` one of a package's.
            if let byName = (dependency["byName"] ?? dependency["target"]) as? [Any],
                let dependencyName = byName.first as? String
            {
                targetDependencies.append(dependencyName)
            } else if let product = dependency["product"] as? [Any], let productName = product.first as? String {
                productDependencies.append(productName)
            }
        }
        return Target(
            name: name,
            type: type,
            path: raw["path"] as? String,
            targetDependencies: targetDependencies,
            productDependencies: productDependencies
        )
    }
}

enum ManifestError: Error {
    case dumpFailed(Int32)
    case unreadable
}

/// The repository's root folder, found from this file's place in it.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // RepositoryTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()
