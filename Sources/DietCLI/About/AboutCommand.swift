import ArgumentParser
import DietCore
import DietStore

/// `wdiet about`: where the bundled food data comes from, with the attribution its licences ask for.
struct AboutCommand: CLICommand {
    static let configuration = CommandConfiguration(
        commandName: "about",
        abstract: "Show where the food data comes from and its licences."
    )

    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String {
        let session = try Session.open(options, context: context)
        let l = session.localizer
        let sources = try session.store.foodDataSources()
        if json {
            return try JSONOutput.encode(
                sources.map { ["id": $0.id, "name": $0.name, "licence": $0.licence, "attribution": $0.attribution, "url": $0.url] }
            )
        }
        let blocks = sources.map { source in
            [
                "\(source.name) · \(l.text("web.about.foods", ["count": .integer(source.foods)]))",
                "  " + l.text("web.about.licence", ["licence": .text(source.licence)]),
                "  " + source.attribution,
            ] + (source.url.isEmpty ? [] : ["  " + source.url])
        }
        return ([l.text("cli.about.title")] + blocks.map { $0.joined(separator: "\n") }).joined(separator: "\n\n")
    }
}
