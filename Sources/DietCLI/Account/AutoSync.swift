import DietStore
import DietSync
import Foundation

/// A command that works on the local store; after it, changes it left waiting go up.
protocol StoreCommand: CLICommand {
    var options: StoreOptions { get }
}

extension LogMealCommand: StoreCommand {}
extension LogWeightCommand: StoreCommand {}
extension LogTextCommand: StoreCommand {}
extension LogAgainCommand: StoreCommand {}
extension CopyDayCommand: StoreCommand {}
extension OnboardCommand: StoreCommand {}
extension EditMealCommand: StoreCommand {}
extension DeleteMealCommand: StoreCommand {}
extension FoodAddCommand: StoreCommand {}
extension FoodBarcodeCommand: StoreCommand {}
extension RecipeAddCommand: StoreCommand {}
extension ProfileCommand: StoreCommand {}
extension SetCommand: StoreCommand {}
extension CycleCommand: StoreCommand {}
extension TodayCommand: StoreCommand {}
extension ImportCommand: StoreCommand {}
extension BriefingCommand: StoreCommand {}
extension CalendarAddCommand: StoreCommand {}
extension CalendarRefreshCommand: StoreCommand {}
extension CalendarRemoveCommand: StoreCommand {}

/// The quiet sync after a command: only with an account, only when something waits, one
/// short attempt, nothing printed. A failure (offline, server down) only postpones the next
/// automatic attempt with backoff; `wdiet sync` tries at once.
enum AutoSync {
    static func run(_ options: StoreOptions, context: CLIContext) async {
        let path = options.resolvedPath(environment: context.environment)
        let file = AccountFile(databasePath: path)
        guard context.environment["WDIET_NO_AUTO_SYNC"] == nil, FileManager.default.fileExists(atPath: file.path),
            let store = try? AppDatabase.open(path: path), let status = try? store.syncStatus(), status.pending > 0
        else { return }
        var synchronizer = Synchronizer(store: store, file: file)
        synchronizer.timeout = 3
        _ = await synchronizer.syncIfDue()
    }
}
