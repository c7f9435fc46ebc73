import ArgumentParser
import DietCore
import DietStore
import Foundation

/// `wdiet insights [--weeks N] [--json]`: the weekly summary (SPEC §8).
struct InsightsCommand: CLICommand {
    static let configuration = CommandConfiguration(commandName: "insights", abstract: "Your weeks at a glance: intake, adherence, weight trend, streaks.")

    @OptionGroup var options: StoreOptions

    func execute(_ context: CLIContext) throws -> String { "" }
}
