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
        .library(name: "ICalendar", targets: ["ICalendar"]),
        .library(name: "ReadyDay", targets: ["ReadyDay"]),
        .library(name: "DietStore", targets: ["DietStore"]),
        .executable(name: "wdiet", targets: ["wdiet"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", exact: "2.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/vapor/jwt-kit", exact: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        // already in the graph through Hummingbird; the server's counters and timers name it
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        // the WHOOP payload test reads the OpenAPI document (YAML) itself; tests only
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", exact: "1.5.0"),
        // already in the graph through Hummingbird; named for the modules DietWeb imports itself
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
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
        .target(
            name: "FoodFacts",
            dependencies: [
                "DietCore", "FoodKit", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // Wire types shared by client and server, the hybrid logical clock, the merge rule.
        .target(name: "SyncProtocol"),
        // The local SQLite store: migrations, intentions, the sync outbox, export and purge.
        .target(
            name: "DietStore",
            dependencies: ["DietCore", "FoodKit", "SyncProtocol", .product(name: "GRDB", package: "GRDB.swift")],
            resources: [.copy("Resources")]
        ),
        // Bringing in what people already have: Apple Health exports (XML, streamed out of the
        // zip), Cronometer and MyFitnessPal CSV diaries.
        .target(
            name: "DietImport",
            dependencies: [
                "DietCore", "DietStore", .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
        // The commands of `wdiet` as testable types.
        .target(
            name: "DietCLI",
            dependencies: [
                "DietBriefing", "DietCore", "DietImport", "DietStore", "DietSync", "DietWeb", "FoodKit", "FoodFacts", "ICalendar", "ReadyDay",
                "WhoopAPI", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "wdiet", dependencies: ["DietCLI"]),
        // The morning briefing: recovery zones, event demand, calendar load, recommendation rules,
        // workout windows, the nutrition emphasis.
        .target(name: "ReadyDay", dependencies: ["DietCore"]),
        // WHOOP's developer API v2: OAuth, the collections with pagination, rate limits, webhooks.
        .target(
            name: "WhoopAPI",
            dependencies: [
                "ReadyDay",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The briefing of a day from the device's stored calendars and WHOOP records.
        .target(
            name: "DietBriefing",
            dependencies: [
                "DietCore", "DietStore", "ICalendar", "ReadyDay", "SyncProtocol", "WhoopAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // What one connection may hold of a server, for `wdiet serve` and `wdiet-server` alike: the
        // global and per-address connection caps, the idle, header and body timeouts.
        .target(
            name: "ServerConnections",
            dependencies: [
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The web app of `wdiet serve`: routes, security and sign-in (bcrypt, HTTPS), Mustache
        // templates and static assets (resources).
        .target(
            name: "DietWeb",
            dependencies: [
                "DietBriefing", "DietCore", "DietImport", "DietStore", "DietSync", "FoodFacts", "FoodKit", "ICalendar", "ReadyDay",
                "ServerConnections",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources")]
        ),
        // RFC 5545 calendars: parsing, time zones, recurrence expansion (Foundation only).
        .target(name: "ICalendar"),
        // The client side of sync: the HTTP API client, push of the outbox, pull and merge.
        .target(
            name: "DietSync",
            dependencies: [
                "DietStore", "SyncProtocol", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The cloud: accounts and sync on PostgreSQL (Hummingbird). Migrations and the OpenAPI
        // document are resources.
        .target(
            name: "DietServer",
            dependencies: [
                "ServerConnections", "SyncProtocol", "WhoopAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources")]
        ),
        .executableTarget(name: "wdiet-server", dependencies: ["DietServer"]),
        // Latency benchmarks over seeded data (the store, food search, the web app), run by scripts/bench.
        .executableTarget(
            name: "wdiet-bench",
            dependencies: [
                "DietCore", "DietStore", "DietWeb", "FoodKit", "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/StoreBenchmarks"
        ),
        // Throughput and latency of the sync server against the psql ceiling, run by scripts/bench.
        .executableTarget(
            name: "wdiet-sync-bench",
            dependencies: [
                "SyncProtocol", "TestSupport", .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Benchmarks/SyncBenchmarks"
        ),
        // A seeded mutation fuzzer for the WHOOP webhook verifier, run by scripts/fuzz.
        .executableTarget(name: "wdiet-webhook-fuzz", dependencies: ["WhoopAPI", "TestSupport"], path: "Fuzz/WebhookFuzz"),
        // Fixtures shared by test targets and benchmarks: fixed clocks, sample profiles, the seeded
        // generator, the child-process runner.
        .target(name: "TestSupport", dependencies: ["DietCore", "SyncProtocol"], path: "Tests/Support/TestSupport"),
        // The fake WHOOP server; no PostgreSQL, so the WHOOP tests do not link it.
        .target(
            name: "WhoopTestSupport",
            dependencies: [
                "WhoopAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            path: "Tests/Support/WhoopTestSupport"
        ),
        .testTarget(
            name: "DietCoreTests",
            dependencies: ["DietCore", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "DietImportTests", dependencies: ["DietImport", "DietCore", "DietStore", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "FoodKitTests", dependencies: ["FoodKit", "DietCore", "TestSupport"]),
        .testTarget(name: "FoodFactsTests", dependencies: ["FoodFacts", "FoodKit", "DietCore", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "SyncProtocolTests", dependencies: ["SyncProtocol", "TestSupport"]),
        .testTarget(name: "ICalendarTests", dependencies: ["ICalendar"]),
        // Fetching calendars from real local servers: size, decompression and time limits.
        .testTarget(
            name: "DietBriefingTests",
            dependencies: [
                "DietBriefing", "TestSupport", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "ReadyDayTests", dependencies: ["ReadyDay", "DietCore", "TestSupport"]),
        .testTarget(
            name: "WhoopAPITests",
            dependencies: [
                "WhoopAPI", "ReadyDay", "ICalendar", "DietCore", "WhoopTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "DietStoreTests",
            dependencies: ["DietStore", "DietCore", "FoodKit", "SyncProtocol", "TestSupport"],
            exclude: [
                "Foods/search-queries.tsv", "Foods/phrase-set.tsv", "Foods/german-everyday.tsv", "Foods/german-everyday.md",
                "Foods/german-heldout.tsv", "Foods/german-heldout.md", "Foods/german-third.tsv", "Foods/german-third.md",
                "Foods/real-lines.tsv", "Foods/real-lines-sources.md",
            ]
        ),
        .testTarget(
            name: "DietCLITests",
            dependencies: [
                "DietCLI", "DietCore", "DietStore", "TestSupport", "ServerTestSupport", "WhoopTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "DietWebTests",
            dependencies: [
                "DietBriefing", "DietWeb", "DietCore", "DietStore", "DietSync", "TestSupport", "ServerTestSupport", "WhoopTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        // A fresh PostgreSQL database per test and the server built on it.
        .target(
            name: "ServerTestSupport",
            dependencies: [
                "DietServer", "SyncProtocol",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Tests/Support/ServerTestSupport"
        ),
        .testTarget(
            name: "DietServerTests",
            dependencies: [
                "DietServer", "SyncProtocol", "TestSupport", "ServerTestSupport", "WhoopTestSupport",
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "DietSyncTests",
            dependencies: [
                "DietSync", "DietStore", "DietCore", "DietServer", "SyncProtocol", "TestSupport", "ServerTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // The real executables together: wdiet clients against a real wdiet-server on PostgreSQL.
        .testTarget(
            name: "E2ETests",
            dependencies: [
                "SyncProtocol", "ServerTestSupport", "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // The repository explains itself: docs/ agrees with Package.swift, code cites docs/ only.
        .testTarget(name: "RepositoryTests"),
    ],
    swiftLanguageModes: [.v6]
)
