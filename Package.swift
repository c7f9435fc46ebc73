// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "w-diet",
    defaultLocalization: "en",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "DietCore", targets: ["DietCore"]),
        .library(name: "FoodKit", targets: ["FoodKit"]),
        .library(name: "SyncProtocol", targets: ["SyncProtocol"]),
        .library(name: "DietStore", targets: ["DietStore"]),
        .executable(name: "wdiet", targets: ["wdiet"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // Foundation only: every product rule that needs no storage.
        .target(
            name: "DietCore",
            resources: [.copy("Resources")]
        ),
        // Foods without storage: quantities, meal text, search folding and ranking, barcodes.
        .target(name: "FoodKit", dependencies: ["DietCore"]),
        // Open Food Facts product lookup by barcode (URLSession; no other dependency).
        .target(name: "FoodFacts", dependencies: ["DietCore", "FoodKit"]),
        // Wire types shared by client and server, the hybrid logical clock, the merge rule.
        .target(name: "SyncProtocol"),
        // The local SQLite store: migrations, intentions, the sync outbox, export and purge.
        .target(
            name: "DietStore",
            dependencies: ["DietCore", "FoodKit", "SyncProtocol", .product(name: "GRDB", package: "GRDB.swift")],
            resources: [.copy("Resources")]
        ),
        // The commands of `wdiet` as testable types.
        .target(
            name: "DietCLI",
            dependencies: [
                "DietCore", "DietStore", "FoodKit", "FoodFacts",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "wdiet", dependencies: ["DietCLI"]),
        // Latency benchmarks over seeded data, run by scripts/bench.
        .executableTarget(name: "wdiet-bench", dependencies: ["DietCore", "DietStore", "FoodKit"], path: "Benchmarks/StoreBenchmarks"),
        // Fixtures shared by test targets: fixed clocks, sample profiles.
        .target(name: "TestSupport", dependencies: ["DietCore"]),
        .testTarget(
            name: "DietCoreTests",
            dependencies: ["DietCore", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "FoodKitTests", dependencies: ["FoodKit", "DietCore"], exclude: ["Parsing/phrases.tsv"]),
        .testTarget(name: "FoodFactsTests", dependencies: ["FoodFacts", "FoodKit", "DietCore", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "SyncProtocolTests", dependencies: ["SyncProtocol"]),
        .testTarget(
            name: "DietStoreTests", dependencies: ["DietStore", "DietCore", "FoodKit", "SyncProtocol", "TestSupport"],
            exclude: ["Foods/search-queries.tsv"]
        ),
        .testTarget(name: "DietCLITests", dependencies: [
            "DietCLI", "DietCore", "DietStore", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
