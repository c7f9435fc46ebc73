import Foundation
import Testing

/// docs/architecture.md draws the module graph; Package.swift is the graph. These tests keep the
/// drawing, its reasons and README's module table equal to the manifest.
@Suite("The module graph of the docs is Package.swift's")
struct ModuleGraphTests {
    let manifest: PackageManifest
    let architecture: Markdown

    init() throws {
        manifest = try PackageManifest.load(root: repositoryRoot)
        architecture = try Markdown(file: "docs/architecture.md")
    }

    @Test("docs/architecture.md draws exactly the dependencies between Package.swift's product targets")
    func productGraph() {
        // Given the product targets and their dependencies on each other
        let products = Set(manifest.targets.filter(\.isProduct).map(\.name))
        let declared = Set(
            manifest.targets.filter(\.isProduct).flatMap { target in
                target.targetDependencies.filter(products.contains).map { Edge(target.name, $0) }
            }
        )
        // When the graph under "## Modules" is read
        let drawn = architecture.section("Modules").mermaidGraph()
        // Then both have the same edges, and every product target is drawn
        #expect(declared.subtracting(drawn.edges).isEmpty, "in Package.swift, not drawn: \(declared.subtracting(drawn.edges).sorted())")
        #expect(drawn.edges.subtracting(declared).isEmpty, "drawn, not in Package.swift: \(drawn.edges.subtracting(declared).sorted())")
        #expect(products.subtracting(drawn.nodes).isEmpty, "targets not drawn: \(products.subtracting(drawn.nodes).sorted())")
        #expect(drawn.nodes.subtracting(products).isEmpty, "drawn, not targets: \(drawn.nodes.subtracting(products).sorted())")
    }

    @Test("every drawn edge says why it exists, and no reason is left for an edge that is gone")
    func everyEdgeHasAReason() {
        // Given the drawn graph and the table of reasons under it
        let modules = architecture.section("Modules")
        let drawn = modules.mermaidGraph().edges
        let reasons = Set(
            modules.rows(header: ["module", "depends on", "because"]).compactMap { row -> Edge? in
                guard row.count >= 3, !row[2].isEmpty else { return nil }
                return Edge(Self.plain(row[0]), Self.plain(row[1]))
            }
        )
        // Then each edge has exactly one row with a reason
        #expect(drawn.subtracting(reasons).isEmpty, "edges without a reason: \(drawn.subtracting(reasons).sorted())")
        #expect(reasons.subtracting(drawn).isEmpty, "reasons for edges not drawn: \(reasons.subtracting(drawn).sorted())")
    }

    @Test("the table of packages names each product target's package products as Package.swift does")
    func packageProducts() {
        // Given the package products each product target depends on
        let declared = Dictionary(
            uniqueKeysWithValues: manifest.targets.filter(\.isProduct)
                .filter { !$0.productDependencies.isEmpty }
                .map { ($0.name, Set($0.productDependencies)) }
        )
        // When the table "| module | packages | because |" is read
        let rows = architecture.section("Modules").rows(header: ["module", "packages", "because"])
        let named = Dictionary(
            rows.map { row in
                (Self.plain(row[0]), Set(Markdown.codeSpans(row[1])))
            },
            uniquingKeysWith: { $0.union($1) }
        )
        // Then both name the same products for the same modules
        for module in Set(declared.keys).union(named.keys).sorted() {
            #expect(
                declared[module] == named[module],
                "\(module): Package.swift \((declared[module] ?? []).sorted()), docs \((named[module] ?? []).sorted())"
            )
        }
    }

    @Test("the test-support graph under \"## Tests\" is Package.swift's")
    func testSupportGraph() {
        // Given every non-test target's dependency that starts or ends at a test-support target
        let support = Set(manifest.targets.filter(\.isTestSupport).map(\.name))
        let declared = Set(
            manifest.targets.filter { $0.type != "test" }.flatMap { target in
                target.targetDependencies.map { Edge(target.name, $0) }
            }.filter { support.contains($0.from) || support.contains($0.to) }
        )
        // When the graph under "## Tests" is read
        let drawn = architecture.section("Tests").mermaidGraph()
        // Then both have the same edges, and every test-support target is drawn
        #expect(declared.subtracting(drawn.edges).isEmpty, "in Package.swift, not drawn: \(declared.subtracting(drawn.edges).sorted())")
        #expect(drawn.edges.subtracting(declared).isEmpty, "drawn, not in Package.swift: \(drawn.edges.subtracting(declared).sorted())")
        #expect(support.subtracting(drawn.nodes).isEmpty, "test-support targets not drawn: \(support.subtracting(drawn.nodes).sorted())")
    }

    @Test("README's module table names every non-test target of Package.swift, and nothing else")
    func readmeModuleTable() throws {
        // Given the non-test targets (libraries, executables, benchmarks, test support)
        let targets = Set(manifest.targets.filter { $0.type != "test" }.map(\.name))
        // When the first column of README's "| module | what it holds |" table is read
        let readme = try Markdown(file: "README.md")
        let listed = Set(
            readme.rows(header: ["module", "what it holds"]).flatMap { row in
                Markdown.codeSpans(row[0]).filter { !$0.hasSuffix("/") && !$0.contains("/") }
            }
        )
        // Then the two sets are equal
        #expect(targets.subtracting(listed).isEmpty, "targets missing from README: \(targets.subtracting(listed).sorted())")
        #expect(listed.subtracting(targets).isEmpty, "README lists what is no target: \(listed.subtracting(targets).sorted())")
    }

    /// A cell without its code marks: "`DietCore`" → "DietCore".
    static func plain(_ cell: String) -> String { cell.replacingOccurrences(of: "`", with: "") }

    /// FoundationNetworking (URLSession on Linux) links libcurl and two dozen libraries into
    /// every start of `wdiet`: 8 ms of a cold `wdiet today`, whose budget is 50. The app's
    /// HTTP clients use AsyncHTTPClient instead; only tests may reach for URLSession.
    @Test("no module of the app imports FoundationNetworking")
    func noFoundationNetworking() throws {
        let importing = try CitationTests.textFiles(under: ["Sources"])
            .filter { $0.path.hasSuffix(".swift") && $0.text.contains("import FoundationNetworking") }.map(\.path)
        #expect(importing.isEmpty, "\(importing)")
    }
}
