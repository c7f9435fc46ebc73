import ArgumentParser

/// The `wdiet` command tree.
public struct WDiet: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "wdiet",
        abstract: "w-diet: a local-first nutrition coach with automated MATADOR diet cycling.",
        subcommands: [
            OnboardCommand.self, TodayCommand.self, LogCommand.self, MealsCommand.self, EditCommand.self,
            DeleteCommand.self, FoodCommand.self, RecipeCommand.self, HistoryCommand.self, CycleCommand.self, ProfileCommand.self, SetCommand.self,
            LearnCommand.self, BriefingCommand.self, CalendarCommand.self, WhoopCommand.self, AccountCommand.self, SyncCommand.self, ExportCommand.self, ImportCommand.self, DeleteAccountCommand.self, PlanCommand.self, ServeCommand.self,
        ]
    )

    public init() {}
}
