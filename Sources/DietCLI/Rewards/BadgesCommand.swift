import ArgumentParser
import DietCore
import DietStore
import Foundation

/// `wdiet badges [--json]`: earned and next badges, points and their history (SPEC §5).
struct BadgesCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "badges", abstract: "Your badges and points.")

    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String { "" }
}
